import { ALB_SCENARIOS } from './scenarios/alb.js';
import { conformance } from './support/suite.js';

conformance(ALB_SCENARIOS);
