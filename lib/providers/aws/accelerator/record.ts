/**
 * The accelerator record: per stack, the accelerator (listeners, endpoint groups, DNS name, static
 * IPs) as GA held it after our last completed apply, and the fingerprint of the desired
 * accelerator it was applied for. Kept in a ConfigMap beside the targets records
 * (deploy/target-records.ts), under the same rule: a record, when present, is exactly what GA held
 * after the apply that wrote it, so an apply that changes something forgets it first and writes
 * it after its last call. That is what lets a no-op reconcile make no GA call at all (its status
 * comes from here), and a change be planned without reading GA; a resync reads GA instead.
 */
import { createHash } from 'node:crypto';
import { isAlreadyExists, type KubeClient } from '../../../kube/client.js';
import { Resources } from '../../../kube/resources.js';
import type { KubeObject } from '../../../kube/types.js';
import type { Logger } from '../../../log/logger.js';
import type { ActualAccelerator } from './types.js';

export interface AcceleratorRecord {
  /** acceleratorFingerprint() of the desired accelerator applied; empty while only retiring. */
  fingerprint: string;
  /** The stack's accelerator; absent when it has none (only retiring ones). */
  accelerator?: ActualAccelerator;
  /** Accelerators of the stack being disabled and deleted (replaced, or no longer wanted). */
  retiring?: string[];
}

export interface AcceleratorRecordStore {
  read(stackId: string): Promise<AcceleratorRecord | undefined>;
  /** Whether this owner has any record (one paged LIST, the sweep's question). */
  any(): Promise<boolean>;
  forget(stackId: string): Promise<void>;
  write(stackId: string, record: AcceleratorRecord): Promise<void>;
}

export const ACCELERATOR_RECORD_OWNER_LABEL = 'multicluster.karmada.io/accelerator-record-owner';
const STACK_ANNOTATION = 'multicluster.karmada.io/stack';
const DATA_KEY = 'accelerator';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

function isRecord(v: unknown): v is AcceleratorRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Partial<AcceleratorRecord>;
  const a = r.accelerator;
  return (
    typeof r.fingerprint === 'string' &&
    (r.retiring === undefined ||
      (Array.isArray(r.retiring) && r.retiring.every((x) => typeof x === 'string'))) &&
    (a === undefined ||
      (typeof a === 'object' &&
        typeof a.arn === 'string' &&
        typeof a.dnsName === 'string' &&
        Array.isArray(a.ips) &&
        Array.isArray(a.listeners ?? [])))
  );
}

export class KubeAcceleratorRecords implements AcceleratorRecordStore {
  constructor(
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly ownerId: string,
    private readonly logger: Pick<Logger, 'warn'>,
  ) {}

  /** `mcp-accelerator-<hash>`: a valid name whatever the stack ID holds, one per owner and stack. */
  nameOf(stackId: string): string {
    const hash = createHash('sha256').update(`${this.ownerId}\n${stackId}`).digest('hex');
    return `mcp-accelerator-${hash.slice(0, 32)}`;
  }

  async read(stackId: string): Promise<AcceleratorRecord | undefined> {
    const cm = await this.kube.get<ConfigMap>(Resources.ConfigMap, this.namespace, this.nameOf(stackId));
    if (!cm || cm.metadata.annotations?.[STACK_ANNOTATION] !== stackId) return undefined;
    try {
      const parsed: unknown = JSON.parse(cm.data?.[DATA_KEY] ?? '');
      if (isRecord(parsed)) return parsed;
      throw new Error('not an accelerator record');
    } catch (err) {
      // Not a record: GA is read instead.
      this.logger.warn('unreadable accelerator record; reading Global Accelerator instead', {
        configMap: `${this.namespace}/${cm.metadata.name ?? ''}`,
        error: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }

  async any(): Promise<boolean> {
    const found = await this.kube.list<ConfigMap>(Resources.ConfigMap, {
      namespace: this.namespace,
      labelSelector: `${ACCELERATOR_RECORD_OWNER_LABEL}=${this.ownerId}`,
      limit: 1,
    });
    return found.items.length > 0;
  }

  forget(stackId: string): Promise<void> {
    return this.kube.delete(Resources.ConfigMap, this.namespace, this.nameOf(stackId));
  }

  async write(stackId: string, record: AcceleratorRecord): Promise<void> {
    const cm: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: this.nameOf(stackId),
        namespace: this.namespace,
        labels: { [ACCELERATOR_RECORD_OWNER_LABEL]: this.ownerId },
        annotations: { [STACK_ANNOTATION]: stackId },
      },
      data: { [DATA_KEY]: JSON.stringify(record) },
    };
    try {
      await this.kube.create(Resources.ConfigMap, cm);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // Replaced the way the targets records are, so the functions need no update access.
      await this.forget(stackId);
      await this.kube.create(Resources.ConfigMap, cm);
    }
  }
}
