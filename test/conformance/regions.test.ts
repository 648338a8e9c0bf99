import { REGION_SCENARIOS } from './scenarios/regions.js';
import { conformance } from './support/suite.js';

conformance(REGION_SCENARIOS);
