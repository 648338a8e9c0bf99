/**
 * `npm start -- --provider aws --regions us-east-1` after a two-Region run: the Clusters keep
 * their spec.region (member2 in eu-west-1), and the one-Region configuration serves every
 * cluster behind its one ALB, as the README and the switch banner say (last-run.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { switchNotice } from '../../dev/local/last-run.js';
import { seed, startPipeline, type Pipeline } from '../../dev/local/pipeline.js';
import { upstreamScenario } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';

let pipeline: Pipeline;

beforeAll(async () => {
  pipeline = await startPipeline({
    provider: 'aws',
    regions: ['us-east-1'],
    stateDir: mkdtempSync(join(tmpdir(), 'one-region-')),
    logLevel: 'SILENT',
  });
  // What a two-Region run left: member1 in us-east-1, member2 in eu-west-1.
  await seed(pipeline.kube, upstreamScenario(['us-east-1', 'eu-west-1']));
}, 60_000);
afterAll(async () => pipeline?.close());

describe('one Region after two', () => {
  it('serves the cluster of the Region no longer configured behind the one ALB, as the banner says', async () => {
    const member2 = await pipeline.kube.get<KubeObject & { spec: { region?: string } }>(
      Resources.Cluster,
      undefined,
      'member2',
    );
    expect(member2?.spec.region).toBe('eu-west-1');
    await vi.waitFor(
      async () => {
        const mci = await pipeline.kube.get<MultiClusterIngress>(
          Resources.MultiClusterIngress,
          'default',
          'minimal-ingress',
        );
        expect(mci?.status?.loadBalancer?.ingress?.[0]?.hostname).toMatch(
          /\.us-east-1\.elb\.amazonaws\.com$/,
        );
      },
      // The local pipeline's first delivery retries on the forwarder's backoff: on a loaded machine
      // (the whole suite on two cores) the ALB takes longer than a quiet run's few seconds.
      { timeout: 75_000, interval: 100 },
    );
    const snap = pipeline.elbv2!.snapshot();
    const alb = snap.loadBalancers.find((lb) => lb.Type === 'application')!;
    const groups = new Set(
      snap.targetGroups
        .filter((tg) => tg.LoadBalancerArns?.includes(alb.LoadBalancerArn!))
        .map((tg) => tg.TargetGroupArn),
    );
    const targets = snap.targets.filter((t) => groups.has(t.TargetGroupArn)).map((t) => t.Id);
    expect(targets.sort()).toEqual(['10.1.0.11', '10.1.0.12', '10.2.0.21']);
    const events = await pipeline.kube.list<KubeObject & { reason?: string }>(Resources.Event, {
      namespace: 'default',
    });
    expect(events.items.map((e) => e.reason)).not.toContain('ClusterRegionUnknown');

    const told = switchNotice(
      { provider: 'aws', regions: ['us-east-1', 'eu-west-1'] },
      { provider: 'aws', regions: ['us-east-1'] },
      '/s',
    ).join('\n');
    expect(told).toContain("every cluster's\n    endpoints go to us-east-1's load balancers");
    expect(told).not.toMatch(/left out/);
  }, 90_000);
});
