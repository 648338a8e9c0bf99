/**
 * The Lease the replicas compete for, read and written through client-node's CoordinationV1Api.
 * Every write carries the resourceVersion last read, so two replicas racing for the lease cannot
 * both win: the loser gets 409 Conflict.
 */
import { CoordinationV1Api, V1MicroTime, type KubeConfig, type V1Lease } from '@kubernetes/client-node';

export interface LeaseRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  /** RFC 3339 as read back; only compared for change, never against our clock. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions: number;
  resourceVersion?: string;
}

export interface LeaseStore {
  get(): Promise<LeaseRecord | undefined>;
  /** Fails with code 409 when the lease already exists. */
  create(record: LeaseRecord): Promise<LeaseRecord>;
  /** Fails with code 409 when `record.resourceVersion` is stale. */
  update(record: LeaseRecord): Promise<LeaseRecord>;
}

export function statusCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown; statusCode?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function timeString(v: unknown): string | undefined {
  if (v instanceof Date) return v.toISOString();
  return typeof v === 'string' ? v : undefined;
}

function toRecord(lease: V1Lease): LeaseRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: timeString(spec.acquireTime),
    renewTime: timeString(spec.renewTime),
    leaseTransitions: spec.leaseTransitions ?? 0,
    resourceVersion: lease.metadata?.resourceVersion,
  };
}

// MicroTime must be written with microseconds (RFC3339Micro), which V1MicroTime's toISOString does.
function micro(v: string | undefined): V1MicroTime | undefined {
  return v === undefined ? undefined : new V1MicroTime(Date.parse(v));
}

export function createLeaseStore(kc: KubeConfig, namespace: string, name: string): LeaseStore {
  const api = kc.makeApiClient(CoordinationV1Api);
  const body = (r: LeaseRecord): V1Lease => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace, ...(r.resourceVersion ? { resourceVersion: r.resourceVersion } : {}) },
    spec: {
      holderIdentity: r.holderIdentity,
      leaseDurationSeconds: r.leaseDurationSeconds,
      acquireTime: micro(r.acquireTime),
      renewTime: micro(r.renewTime),
      leaseTransitions: r.leaseTransitions,
    },
  });
  return {
    async get() {
      try {
        return toRecord(await api.readNamespacedLease({ name, namespace }));
      } catch (err) {
        if (statusCode(err) === 404) return undefined;
        throw err;
      }
    },
    async create(record) {
      return toRecord(await api.createNamespacedLease({ namespace, body: body(record) }));
    },
    async update(record) {
      return toRecord(await api.replaceNamespacedLease({ name, namespace, body: body(record) }));
    },
  };
}
