/**
 * Which EndpointSlices may become targets: only the ones Karmada's endpointslice controller
 * collected from a member cluster. It names them `imported-<cluster>-<slice>` and annotates them
 * `work.karmada.io/namespace: karmada-es-<cluster>` (see model/targets.ts). A slice someone wrote by
 * hand in the Karmada control plane with the `derived-<svc>` label would otherwise point a load
 * balancer at any private address they like.
 */
import type { EndpointSlice } from '../../karmada/types.js';
import { EXECUTION_SPACE_PREFIX, IMPORTED_SLICE_PREFIX, WORK_NAMESPACE_KEY } from './model/targets.js';

export function isImportedSlice(slice: Readonly<EndpointSlice>): boolean {
  const name = slice.metadata.name ?? '';
  const workNamespace = slice.metadata.annotations?.[WORK_NAMESPACE_KEY] ?? '';
  if (!workNamespace.startsWith(EXECUTION_SPACE_PREFIX)) return false;
  const cluster = workNamespace.slice(EXECUTION_SPACE_PREFIX.length);
  // The name must agree with the execution space it claims to come from.
  return cluster.length > 0 && name.startsWith(`${IMPORTED_SLICE_PREFIX}${cluster}-`);
}

export function importedSlicesOnly(slices: readonly EndpointSlice[]): EndpointSlice[] {
  return slices.filter(isImportedSlice);
}
