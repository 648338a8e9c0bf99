/**
 * The resync's bulk fingerprints over every Region (FingerprintSource): an object is in sync
 * when each Region records what it wants there, its fingerprint where it serves the object and
 * nothing where it does not. Each Region's part reads its own in bulk (fingerprints.ts: the
 * Tagging API, else ELBv2's Describe calls, and the targets records), once per pass. A Region
 * whose read fails records nothing readable, so its objects are reconciled.
 */
import { errorMessage } from '../../../errors.js';
import type { MultiClusterIngress, MultiClusterService } from '../../../karmada/types.js';
import type { KubeClient } from '../../../kube/client.js';
import type { DesiredFingerprint, FingerprintSource, ProviderContext } from '../../../provider/contract.js';
import { NOT_SERVED } from '../balancer-types.js';
import { DEEP_CHECK_CALLS } from '../fingerprints.js';
import type { RegionalPart } from './part.js';

/** One Region's state in the combined fingerprint: `<region>=<state>`. */
const entry = (region: string, state: string) => `${region}=${state}`;
/** What a Region whose read failed records: never a desired state. */
const UNREADABLE = '?';

export class RegionalFingerprints implements FingerprintSource {
  readonly deepCheckCalls: number;
  /** Each object's desired fingerprint in each Region, by the combined one handed out. */
  private readonly regional = new WeakMap<DesiredFingerprint, Map<string, DesiredFingerprint>>();

  constructor(private readonly parts: readonly RegionalPart[]) {
    // A deep check reconciles the object in every Region.
    this.deepCheckCalls = DEEP_CHECK_CALLS * parts.length;
  }

  async desired(
    obj: Readonly<MultiClusterIngress> | Readonly<MultiClusterService>,
    kube: KubeClient,
  ): Promise<DesiredFingerprint> {
    const byRegion = new Map<string, DesiredFingerprint>();
    for (const part of this.parts)
      byRegion.set(part.region, await part.provider.fingerprintSource.desired(obj, kube));
    const first = [...byRegion.values()][0]!;
    const states = [...byRegion].map(([region, d]) =>
      d.fingerprint === undefined ? undefined : entry(region, d.fingerprint),
    );
    // A Region whose model does not build: the object's reconcile says why.
    const fingerprint = states.every((s) => s !== undefined) ? states.join(';') : undefined;
    const combined: DesiredFingerprint = {
      stackId: first.stackId,
      locator: first.locator,
      ...(fingerprint !== undefined ? { fingerprint } : {}),
    };
    this.regional.set(combined, byRegion);
    return combined;
  }

  async recorded(ctx: ProviderContext, stacks: readonly DesiredFingerprint[]): Promise<Map<string, string>> {
    const states = new Map<string, Map<string, string>>();
    for (const part of this.parts) {
      // Each Region looks for its own load balancer name (a Region's scheme may differ, and so its name).
      const own = stacks.map((s) => this.regional.get(s)?.get(part.region) ?? s);
      let found: Map<string, string>;
      try {
        found = await part.provider.fingerprintSource.recorded(ctx, own);
      } catch (err) {
        ctx.logger.warn('could not read a Region’s fingerprints: its objects are reconciled', {
          region: part.region,
          error: errorMessage(err),
        });
        found = new Map(stacks.map((s) => [s.stackId, UNREADABLE]));
      }
      states.set(part.region, found);
    }
    const out = new Map<string, string>();
    for (const { stackId } of stacks) {
      const recorded = this.parts.map((p) => states.get(p.region)?.get(stackId));
      // Nothing in any Region: nothing recorded (an object not ours is then in sync).
      if (recorded.every((r) => r === undefined)) continue;
      out.set(stackId, this.parts.map((p, i) => entry(p.region, recorded[i] ?? NOT_SERVED)).join(';'));
    }
    return out;
  }
}
