import type { Elbv2Snapshot } from '../../dev/elbv2-sim/index.js';

/** What the ELBv2 simulator holds when nothing is left: every collection present and empty. */
export const EMPTY_SIM_STATE: Readonly<Elbv2Snapshot> = Object.freeze({
  loadBalancers: [],
  targetGroups: [],
  listeners: [],
  rules: [],
  targets: [],
  tags: [],
});
