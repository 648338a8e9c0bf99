/**
 * Which Regions may hold a stack's load balancer: one ConfigMap per stack and Region on the
 * Karmada API server, created before the first call that builds there and deleted after the
 * stack there is gone. A reconcile reads them with one LIST per stack (memoised per reconcile),
 * so it knows which Regions that no longer have clusters still need their stack deleted without
 * an AWS call per Region; an interrupted deploy leaves its marker, so nothing it built is missed.
 * Create and delete only, as the targets records (deploy/target-records.ts): the functions need
 * no update access.
 */
import { createHash } from 'node:crypto';
import { isAlreadyExists, type KubeClient } from '../../../kube/client.js';
import { Resources } from '../../../kube/resources.js';
import type { KubeObject } from '../../../kube/types.js';
import type { ProviderContext } from '../../../provider/contract.js';
import { perReconcile } from '../../../provider/per-reconcile.js';

export const MARKER_OWNER_LABEL = 'multicluster.karmada.io/region-marker-owner';
export const MARKER_STACK_LABEL = 'multicluster.karmada.io/region-marker-stack';
export const MARKER_STACK_ANNOTATION = 'multicluster.karmada.io/stack';
export const MARKER_REGION_ANNOTATION = 'multicluster.karmada.io/region';

const hash = (text: string, length: number) =>
  createHash('sha256').update(text).digest('hex').slice(0, length);

export class RegionMarkers {
  private readonly reads = perReconcile(() => new Map<string, Promise<Set<string>>>());

  constructor(
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly ownerId: string,
  ) {}

  private stackLabel(stackId: string): string {
    return hash(`${this.ownerId}\n${stackId}`, 32);
  }

  /** `mcp-region-<hash>`: one per owner, stack and Region. */
  nameOf(stackId: string, region: string): string {
    return `mcp-region-${hash(`${this.ownerId}\n${stackId}\n${region}`, 32)}`;
  }

  /** The Regions marked for the stack (one LIST per stack and reconcile). */
  regions(ctx: ProviderContext | undefined, stackId: string): Promise<Set<string>> {
    if (!ctx) return this.list(stackId);
    const byStack = this.reads(ctx);
    let read = byStack.get(stackId);
    if (!read) {
      read = this.list(stackId);
      byStack.set(stackId, read);
      read.catch(() => byStack.delete(stackId));
    }
    return read;
  }

  private async list(stackId: string): Promise<Set<string>> {
    const found = await this.kube.list<KubeObject>(Resources.ConfigMap, {
      namespace: this.namespace,
      labelSelector: `${MARKER_OWNER_LABEL}=${this.ownerId},${MARKER_STACK_LABEL}=${this.stackLabel(stackId)}`,
    });
    return new Set(
      found.items
        .filter((cm) => cm.metadata.annotations?.[MARKER_STACK_ANNOTATION] === stackId)
        .flatMap((cm) => cm.metadata.annotations?.[MARKER_REGION_ANNOTATION] ?? []),
    );
  }

  async add(ctx: ProviderContext | undefined, stackId: string, region: string): Promise<void> {
    const known = await this.regions(ctx, stackId);
    if (known.has(region)) return;
    try {
      await this.kube.create(Resources.ConfigMap, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: this.nameOf(stackId, region),
          namespace: this.namespace,
          labels: { [MARKER_OWNER_LABEL]: this.ownerId, [MARKER_STACK_LABEL]: this.stackLabel(stackId) },
          annotations: { [MARKER_STACK_ANNOTATION]: stackId, [MARKER_REGION_ANNOTATION]: region },
        },
      });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
    known.add(region);
  }

  async remove(ctx: ProviderContext | undefined, stackId: string, region: string): Promise<void> {
    await this.kube.delete(Resources.ConfigMap, this.namespace, this.nameOf(stackId, region));
    const read = ctx && this.reads(ctx).get(stackId);
    if (read) (await read).delete(region);
  }
}
