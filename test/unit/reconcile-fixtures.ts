/** Small builders shared by the unit tests of lib/reconcile and lib/karmada. */
import type { Cluster, MultiClusterIngress, ResourceBinding } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { ChangeType, NormalizedNotification } from '../../lib/notification/types.js';

const ref = { apiVersion: 'v1', kind: 'Thing', namespace: 'default', name: 'x' };
export const note = (
  change: ChangeType,
  object?: KubeObject,
  oldObject?: KubeObject,
): NormalizedNotification => ({
  change,
  ref,
  source: 'native',
  ...(object ? { object } : {}),
  ...(oldObject ? { oldObject } : {}),
});
export const obj = (extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject =>
  ({ metadata: { name: 'x', ...meta }, ...extra }) as KubeObject;

/** An MCI with one rule routing one Prefix path to each of `services`. */
export const mci = (
  services: string[],
  extra: Partial<MultiClusterIngress['spec']> = {},
  meta = {},
): MultiClusterIngress => ({
  metadata: { name: 'm', ...meta },
  spec: {
    ...extra,
    rules: [
      {
        http: {
          paths: services.map((s) => ({ pathType: 'Prefix', backend: { service: { name: s } } })),
        },
      },
    ],
  },
});

/** A ResourceBinding for `resource`, scheduled to `clusters` and required by `requiredBy`. */
export const binding = (
  name: string,
  resource: { apiVersion?: string; kind?: string; name?: string; namespace?: string },
  clusters: string[] = [],
  requiredBy: string[][] = [],
): ResourceBinding => ({
  metadata: { name, namespace: 'default' },
  spec: {
    resource,
    clusters: clusters.map((c) => ({ name: c })),
    requiredBy: requiredBy.map((cs) => ({ clusters: cs.map((c) => ({ name: c })) })),
  },
});
export const serviceRef = (name: string, apiVersion = 'v1') => ({
  apiVersion,
  kind: 'Service',
  name,
  namespace: 'default',
});

/** Cluster member1, with TrafficControl among its remedy actions or not. */
export const remedied = (trafficControl: boolean, meta = {}): Cluster => ({
  metadata: { name: 'member1', ...meta },
  status: trafficControl ? { remedyActions: ['TrafficControl'] } : {},
});
export const clusterNote = (change: ChangeType, now?: Cluster, old?: Cluster): NormalizedNotification => ({
  ...note(change, now, old),
  ref: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1' },
});
