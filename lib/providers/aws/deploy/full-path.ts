/**
 * What only a full deploy or a deletion needs, beyond the fast path every reconcile tries first
 * (the stack's fingerprint and targets, deployer.ts): discovery of the whole stack, the planners of
 * each resource type and the deletions. A change, a drift check (resync), a first create, a
 * deletion or the orphan sweep reads it; a container that only sees unchanged stacks and endpoint
 * churn never does. Loaded through `loadFullPath` (../lazy-parts.ts), so in the function bundles it is
 * a chunk of its own.
 */
export { discover } from './discover.js';
export { planStack } from './plan.js';
export {
  deleteStack,
  deleteUnattachedTargetGroup,
  inventoryStacks,
  listOwnerInventory,
  unattachedTargetGroups,
} from './deletion.js';
