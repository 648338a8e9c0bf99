import { NETWORK_SCENARIOS } from './scenarios/network.js';
import { conformance } from './support/suite.js';

conformance(NETWORK_SCENARIOS);
