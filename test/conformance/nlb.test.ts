import { NLB_SCENARIOS } from './scenarios/nlb.js';
import { conformance } from './support/suite.js';

conformance(NLB_SCENARIOS);
