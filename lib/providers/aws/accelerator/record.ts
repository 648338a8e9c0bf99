/**
 * The accelerator record: per stack, the accelerator (listeners, endpoint groups, DNS name, static
 * IPs) as GA held it after our last completed apply, and the fingerprint of the desired
 * accelerator it was applied for. Kept in a ConfigMap beside the targets records
 * (deploy/target-records.ts), under the same rule: a record, when present, is exactly what GA held
 * after the apply that wrote it, so an apply that changes something forgets it first and writes
 * it after its last call. That is what lets a no-op reconcile make no GA call at all (its status
 * comes from here), and a change be planned without reading GA; a resync reads GA instead.
 */
import type { KubeClient } from '../../../kube/client.js';
import type { Logger } from '../../../log/logger.js';
import { ConfigMapRecords, type RecordKind } from '../record-store.js';
import type { ActualAccelerator } from './types.js';

export interface AcceleratorRecord {
  /** acceleratorFingerprint() of the desired accelerator applied; empty while only retiring. */
  fingerprint: string;
  /** The stack's accelerator; absent when it has none (only retiring ones). */
  accelerator?: ActualAccelerator;
  /** Accelerators of the stack being disabled and deleted (replaced, or no longer wanted). */
  retiring?: string[];
  /**
   * Regions whose traffic dial the `before` phase set to 0 for a drain, while GA had not yet been
   * seen DEPLOYED since: their targets stay registered until it is (reconcile.ts, lowerDials).
   */
  lowered?: string[];
}

export interface AcceleratorRecordStore {
  read(stackId: string): Promise<AcceleratorRecord | undefined>;
  /** Whether this owner has any record (one paged LIST, the sweep's question). */
  any(): Promise<boolean>;
  forget(stackId: string): Promise<void>;
  write(stackId: string, record: AcceleratorRecord): Promise<void>;
}

export const ACCELERATOR_RECORD_OWNER_LABEL = 'multicluster.karmada.io/accelerator-record-owner';

function isRecord(v: unknown): v is AcceleratorRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<AcceleratorRecord>;
  const a = r.accelerator;
  return (
    typeof r.fingerprint === 'string' &&
    [r.retiring, r.lowered].every(
      (list) => list === undefined || (Array.isArray(list) && list.every((x) => typeof x === 'string')),
    ) &&
    (a === undefined ||
      (typeof a === 'object' &&
        typeof a.arn === 'string' &&
        typeof a.dnsName === 'string' &&
        Array.isArray(a.ips) &&
        Array.isArray(a.listeners ?? [])))
  );
}

const ACCELERATOR_RECORDS: RecordKind<AcceleratorRecord> = {
  prefix: 'mcp-accelerator',
  ownerLabel: ACCELERATOR_RECORD_OWNER_LABEL,
  dataKey: 'accelerator',
  encode: (record) => record,
  decode: (raw) => {
    if (!isRecord(raw)) throw new Error('not an accelerator record');
    return raw;
  },
  unreadable: 'unreadable accelerator record; reading Global Accelerator instead',
};

/** `mcp-accelerator-<hash>` ConfigMaps (record-store.ts), beside the targets records. */
export class KubeAcceleratorRecords
  extends ConfigMapRecords<AcceleratorRecord>
  implements AcceleratorRecordStore
{
  constructor(kube: KubeClient, namespace: string, ownerId: string, logger: Pick<Logger, 'warn'>) {
    super(ACCELERATOR_RECORDS, kube, namespace, ownerId, logger);
  }
}
