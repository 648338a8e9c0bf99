/**
 * What only a full deploy or a deletion needs, beyond the fast path every reconcile tries first
 * (the stack's fingerprint and targets, deployer.ts): discovery of the whole stack, the planners of
 * each resource type and the deletions. A change, a drift check (resync), a first create, a
 * deletion or the orphan sweep reads it; a container that only sees unchanged stacks and endpoint
 * churn never does. Loaded through `loadFullPath` (../lazy-parts.ts), so in the function bundles it
 * is a chunk of its own.
 */
// Costs nothing at run time: the provider's factory is loaded before any of this can be (it builds
// the provider that loads it). It tells esbuild so: a lazily loaded module that shares only part of
// a chunk of the start set splits it in two, and every extra file costs a cold start its own load;
// importing the whole of what loads it first keeps the start set's chunks as they were.
import '../factory.js';

export { discover } from './discover.js';
export { planStack } from './plan.js';
export { decideNlbSecurityGroups } from './nlb-security-groups.js';
export {
  deleteStack,
  deleteUnattachedTargetGroup,
  inventoryStacks,
  listOwnerInventory,
  unattachedTargetGroups,
} from './deletion.js';
