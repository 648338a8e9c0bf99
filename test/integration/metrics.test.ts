/**
 * The metrics of real work: the ELBv2 client's call middleware against the simulator (throttled
 * attempts included, through the SDK's own retries), and the reconcile loop with the AWS provider
 * through the functions' code path; what CloudWatch would receive is read back from the EMF lines.
 */
import { DescribeLoadBalancersCommand } from '@aws-sdk/client-elastic-load-balancing-v2';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { minimalIngress } from '../../dev/local/scenario.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { metrics } from '../../lib/metrics/index.js';
import { createElbv2Client, parseAwsConfig } from '../../lib/providers/aws/index.js';
import { emfLines, metric } from '../support/emf.js';
import { notify, startHarness, type Harness } from '../support/harness.js';
import { baseObjects } from '../support/objects.js';

let sim: Elbv2Simulator;
let h: Harness | undefined;
let written: string[];

beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  metrics.enable(new Metrics({ namespace: 'Test', serviceName: 'mcp' }));
});
beforeEach(async () => {
  sim = await startElbv2Simulator();
  metrics.flush();
  written = [];
});
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
  await sim.close();
});

/** Flushes the container's metrics and returns the EMF lines written. */
function flushed() {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  metrics.flush();
  vi.restoreAllMocks();
  return emfLines(written);
}

describe('ELBv2 call metrics', () => {
  it('counts every attempt by action, and the throttled ones, across the SDK`s retries', async () => {
    const client = createElbv2Client(await parseAwsConfig(awsConfigFor(sim, { maxAttempts: 5 })));
    sim.faults.failNext('DescribeLoadBalancers', 2);
    const out = await client.send(new DescribeLoadBalancersCommand({}));
    expect(out.$metadata.attempts).toBe(3);
    const lines = flushed();
    expect(metric(lines, 'Elbv2Calls', { Action: 'DescribeLoadBalancers' }).value).toBe(3);
    expect(metric(lines, 'Elbv2Throttles', { Action: 'DescribeLoadBalancers' }).value).toBe(2);
    expect(metric(lines, 'Elbv2Throttles', {}).value).toBe(2);
    client.destroy();
  });
});

describe('reconcile metrics', () => {
  it('one created and one invalid MultiClusterIngress, with the ELBv2 calls the create made', async () => {
    h = await startHarness({ provider: 'aws', providerConfig: awsConfigFor(sim) });
    const bad = minimalIngress('bad-ingress');
    bad.metadata.annotations = { 'alb.ingress.kubernetes.io/scheme': 'sideways' };
    await h.seed([...baseObjects(), minimalIngress(), bad as KubeObject]);
    metrics.flush();
    await h.deliver(notify(minimalIngress(), 'added'), notify(bad, 'added'));
    const lines = flushed();
    const reconciles = (dims: Record<string, string>) => metric(lines, 'Reconciles', dims).value;
    expect(reconciles({ Kind: 'MultiClusterIngress', Outcome: 'created' })).toBe(1);
    expect(reconciles({ Kind: 'MultiClusterIngress', Outcome: 'invalid' })).toBe(1);
    expect(
      metric(lines, 'InvalidObjects', { Kind: 'MultiClusterIngress', Reason: 'InvalidAnnotation' }).value,
    ).toBe(1);
    const durations = metric(lines, 'ReconcileDuration', { Kind: 'MultiClusterIngress' }).value as number[];
    expect(durations.length).toBeGreaterThanOrEqual(2);
    expect(metric(lines, 'Elbv2Calls', { Action: 'CreateLoadBalancer' }).value).toBe(1);
    expect(metric(lines, 'Elbv2Calls', {}).value).toBe(sim.calls.total());
  });
});
