import { SWEEP_SCENARIOS } from './scenarios/sweep.js';
import { conformance } from './support/suite.js';

conformance(SWEEP_SCENARIOS);
