/**
 * A record per stack kept on the Karmada API server: one ConfigMap per owner and stack (and
 * scope, such as a Region), named by a hash so any stack ID gives a valid name, labelled with its
 * owner so one LIST finds them all, and annotated with the stack it is for. Created and deleted
 * only, never updated (a write that finds one replaces it), so the functions need no update
 * access. A ConfigMap that is not this stack's, or does not parse, is no record: whoever reads it
 * reads the truth from AWS instead, and is told why in a warning.
 *
 * The targets records (deploy/target-records.ts) and the accelerator records
 * (accelerator/record.ts) are two of these.
 */
import { createHash } from 'node:crypto';
import { isAlreadyExists, type KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import type { KubeObject } from '../../kube/types.js';
import type { Logger } from '../../log/logger.js';

export const RECORD_STACK_ANNOTATION = 'multicluster.karmada.io/stack';
/** A record's Region, on the records of every Region but the primary one (regions/). */
export const RECORD_REGION_ANNOTATION = 'multicluster.karmada.io/region';

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export interface RecordKind<T> {
  /** The name's prefix: `mcp-targets` gives `mcp-targets-<hash>`. */
  prefix: string;
  /** The label naming the owner, which a LIST of this kind selects on. */
  ownerLabel: string;
  /** The ConfigMap's data key holding the record. */
  dataKey: string;
  /** The record as stored (JSON-serialisable). */
  encode(record: T): unknown;
  /** The stored record back; throws when it is not one. */
  decode(raw: unknown): T;
  /** The warning when a record cannot be read: what is read instead. */
  unreadable: string;
}

export class ConfigMapRecords<T> {
  constructor(
    private readonly kind: RecordKind<T>,
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly ownerId: string,
    private readonly logger: Pick<Logger, 'warn'>,
    /**
     * The Region of the stacks recorded here, when records of several Regions must be told apart
     * (a multi-Region provider's non-primary Regions): named, annotated and read apart.
     */
    private readonly region?: string,
  ) {}

  /** `<prefix>-<hash>`: a valid name whatever the stack ID holds, one per owner, stack (and Region). */
  nameOf(stackId: string): string {
    const scoped = this.region === undefined ? '' : `\n${this.region}`;
    const hash = createHash('sha256').update(`${this.ownerId}\n${stackId}${scoped}`).digest('hex');
    return `${this.kind.prefix}-${hash.slice(0, 32)}`;
  }

  async read(stackId: string): Promise<T | undefined> {
    const cm = await this.kube.get<ConfigMap>(Resources.ConfigMap, this.namespace, this.nameOf(stackId));
    return cm && this.parse(cm, stackId);
  }

  /** Drops the record (a missing one is fine). */
  forget(stackId: string): Promise<void> {
    return this.kube.delete(Resources.ConfigMap, this.namespace, this.nameOf(stackId));
  }

  async write(stackId: string, record: T): Promise<void> {
    const cm: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: this.nameOf(stackId),
        namespace: this.namespace,
        labels: { [this.kind.ownerLabel]: this.ownerId },
        annotations: {
          [RECORD_STACK_ANNOTATION]: stackId,
          ...(this.region !== undefined ? { [RECORD_REGION_ANNOTATION]: this.region } : {}),
        },
      },
      data: { [this.kind.dataKey]: JSON.stringify(this.kind.encode(record)) },
    };
    try {
      await this.kube.create(Resources.ConfigMap, cm);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // One is there (a write that had nothing to forget, or could not read it): replaced by
      // delete and create, so the functions need no update access.
      await this.forget(stackId);
      await this.kube.create(Resources.ConfigMap, cm);
    }
  }

  /** Every record of this owner (and Region), by stack ID: one paged LIST. */
  async list(): Promise<Map<string, T>> {
    // Without a limit the client reads every page.
    const found = await this.kube.list<ConfigMap>(Resources.ConfigMap, {
      namespace: this.namespace,
      labelSelector: this.selector(),
    });
    const out = new Map<string, T>();
    for (const cm of found.items) {
      const stackId = cm.metadata.annotations?.[RECORD_STACK_ANNOTATION];
      const record = stackId !== undefined ? this.parse(cm, stackId) : undefined;
      if (stackId !== undefined && record) out.set(stackId, record);
    }
    return out;
  }

  /** Whether this owner has any record of this kind (a LIST of one item). */
  async any(): Promise<boolean> {
    const found = await this.kube.list<ConfigMap>(Resources.ConfigMap, {
      namespace: this.namespace,
      labelSelector: this.selector(),
      limit: 1,
    });
    return found.items.length > 0;
  }

  private selector(): string {
    return `${this.kind.ownerLabel}=${this.ownerId}`;
  }

  private parse(cm: ConfigMap, stackId: string): T | undefined {
    if (cm.metadata.annotations?.[RECORD_STACK_ANNOTATION] !== stackId) return undefined;
    if (cm.metadata.annotations[RECORD_REGION_ANNOTATION] !== this.region) return undefined;
    try {
      return this.kind.decode(JSON.parse(cm.data?.[this.kind.dataKey] ?? '') as unknown);
    } catch (err) {
      this.logger.warn(this.kind.unreadable, {
        configMap: `${this.namespace}/${cm.metadata.name ?? ''}`,
        error: err instanceof Error ? err.message : String(err),
      });
      return undefined;
    }
  }
}
