/**
 * IngressGroups, as one chunk of the function bundles (lazy-parts.ts `loadIngressGroups`): who is
 * in a group and where its stack lives (ingress-groups.ts), the group's model
 * (model/ingress-group.ts), the tenant policy over its members (ingress-group-admission.ts) and
 * its join record (ingress-group-record.ts). Only a MultiClusterIngress that is, or was, in a group loads it.
 */
// Costs nothing at run time: the provider's factory is loaded before any of this can be (it builds
// the provider that loads it). It tells esbuild so, and the start set's chunks stay whole (see
// deploy/full-path.ts).
import './factory.js';
export { formerGroupRef, resolveGroup } from './ingress-groups.js';
export { admitIngressGroupStack, buildIngressGroupStack } from './model/ingress-group.js';
export { groupPolicyCheck, memoizedPolicyReads } from './ingress-group-admission.js';
export { KubeGroupRecords } from './ingress-group-record.js';
