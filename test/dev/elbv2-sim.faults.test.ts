import {
  CreateRuleCommand,
  CreateTargetGroupCommand,
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import { elbv2ClientFor, startElbv2Simulator } from '../../dev/elbv2-sim/index.js';
import type { Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import {
  createAlb,
  createHttpListener,
  createTg,
  notFound404,
  sdkError,
  useSim,
  VPC,
} from './elbv2-sim-fixtures.js';

const describeLbs = new DescribeLoadBalancersCommand({});

describe('ELBv2 simulator: fault injection through the real SDK', () => {
  const ctx = useSim();

  it('surfaces Throttling with maxAttempts 1: name Throttling, HTTP 400, client fault, no $retryable', async () => {
    ctx.sim.faults.failNext('DescribeLoadBalancers', 1);
    const err = await sdkError(ctx.client.send(describeLbs));
    expect(err).toMatchObject({
      name: 'Throttling',
      message: 'Rate exceeded',
      $fault: 'client',
      $retryable: undefined,
    });
    expect(err.$metadata).toMatchObject({ httpStatusCode: 400, attempts: 1 });
    expect(err.constructor.name).toBe('ElasticLoadBalancingV2ServiceException');
  });

  it('lets the SDK retry throttling until it succeeds when maxAttempts allows', async () => {
    const client = elbv2ClientFor(ctx.sim, { maxAttempts: 10, retryDelayMs: 1 });
    ctx.sim.faults.failNext('DescribeLoadBalancers', 4);
    const out = await client.send(describeLbs);
    expect(out.$metadata.attempts).toBe(5);
    expect(ctx.sim.calls.get('DescribeLoadBalancers')).toMatchObject({
      calls: 5,
      ok: 1,
      faulted: 4,
      faults: { scripted: 4 },
    });
    client.destroy();
  });

  it('is retried by the SDK default strategy too (classified as throttling)', async () => {
    const client = elbv2ClientFor(ctx.sim, { maxAttempts: 3 });
    ctx.sim.faults.failNext('DescribeLoadBalancers', 1, { code: 'Throttling' });
    const out = await client.send(describeLbs);
    expect(out.$metadata.attempts).toBe(2);
    client.destroy();
  });

  it('gives up after maxAttempts when every call is throttled', async () => {
    const client = elbv2ClientFor(ctx.sim, { maxAttempts: 3, retryDelayMs: 1 });
    ctx.sim.faults.set({ throttle: 1 });
    const err = await sdkError(client.send(describeLbs));
    expect(err.name).toBe('Throttling');
    expect(err.$metadata.attempts).toBe(3);
    expect(ctx.sim.calls.get('DescribeLoadBalancers').faults.throttle).toBe(3);
    client.destroy();
  });

  it.each([
    ['InternalFailure', 500],
    ['ServiceUnavailable', 503],
  ])('injects %s as HTTP %i server faults, retried as transient', async (code, status) => {
    ctx.sim.faults.failNext('DescribeLoadBalancers', 1, { code });
    const err = await sdkError(ctx.client.send(describeLbs));
    expect(err).toMatchObject({ name: code, $fault: 'server' });
    expect(err.$metadata.httpStatusCode).toBe(status);

    const retrying = elbv2ClientFor(ctx.sim, { maxAttempts: 3, retryDelayMs: 1 });
    ctx.sim.faults.failNext('DescribeLoadBalancers', 2, { code });
    expect((await retrying.send(describeLbs)).$metadata.attempts).toBe(3);
    retrying.destroy();
  });

  it('drops connections: socket hang up (ECONNRESET) surfaces, and retries recover', async () => {
    ctx.sim.faults.failNext('DescribeLoadBalancers', 1, { drop: true });
    const err = await sdkError(ctx.client.send(describeLbs));
    expect(err).toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' });

    const retrying = elbv2ClientFor(ctx.sim, { maxAttempts: 3, retryDelayMs: 1 });
    ctx.sim.faults.setForAction('DescribeLoadBalancers', { drop: 1 });
    ctx.sim.faults.failNext('DescribeLoadBalancers', 1, { code: 'Throttling' });
    expect((await sdkError(retrying.send(describeLbs))).code).toBe('ECONNRESET');
    ctx.sim.faults.setForAction('DescribeLoadBalancers', undefined);
    ctx.sim.faults.failNext('DescribeLoadBalancers', 2, { drop: true });
    expect((await retrying.send(describeLbs)).$metadata.attempts).toBe(3);
    expect(ctx.sim.calls.get('DescribeLoadBalancers').faults).toMatchObject({ drop: 2, scripted: 4 });
    retrying.destroy();
  });

  it('dropAfterCommit applies the change; an identical retried create returns the same target group', async () => {
    const retrying = elbv2ClientFor(ctx.sim, { maxAttempts: 3, retryDelayMs: 1 });
    ctx.sim.faults.failNext('CreateTargetGroup', 1, { dropAfterCommit: true });
    const out = await retrying.send(
      new CreateTargetGroupCommand({
        Name: 'idem',
        Protocol: 'HTTP',
        Port: 80,
        VpcId: VPC,
        TargetType: 'ip',
      }),
    );
    expect(out.$metadata.attempts).toBe(2);
    expect(ctx.sim.state.targetGroups().map((t) => t.TargetGroupArn)).toEqual([
      out.TargetGroups![0]!.TargetGroupArn,
    ]);
    retrying.destroy();
  });

  it('fails the next N calls of one action with any ELBv2 code, leaving other actions alone', async () => {
    const listener = await createHttpListener(ctx.client, await createAlb(ctx.client));
    ctx.sim.faults.failNext('CreateRule', 1, { code: 'PriorityInUse', message: 'scripted' });
    const send = () =>
      ctx.client.send(
        new CreateRuleCommand({
          ListenerArn: listener.ListenerArn,
          Priority: 1,
          Conditions: [{ Field: 'path-pattern', Values: ['/'] }],
          Actions: [notFound404],
        }),
      );
    expect((await sdkError(send())).name).toBe('PriorityInUseException');
    await expect(ctx.client.send(new DescribeTargetGroupsCommand({}))).resolves.toBeDefined();
    await expect(send()).resolves.toBeDefined();
    expect(ctx.sim.faults.pending('CreateRule')).toBe(0);
  });

  it('adds fixed and ranged latency', async () => {
    ctx.sim.faults.setForAction('DescribeLoadBalancers', { latencyMs: 120 });
    let started = Date.now();
    await ctx.client.send(describeLbs);
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);

    ctx.sim.faults.set({ latencyMs: [30, 60] });
    started = Date.now();
    await ctx.client.send(new DescribeTargetGroupsCommand({}));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(25);
    expect(elapsed).toBeLessThan(1000);
  });

  it('latency beyond the client requestTimeout becomes a TimeoutError', async () => {
    const impatient = elbv2ClientFor(ctx.sim, {
      maxAttempts: 1,
      config: { requestHandler: { requestTimeout: 50, throwOnRequestTimeout: true } },
    });
    ctx.sim.faults.set({ latencyMs: 300 });
    expect((await sdkError(impatient.send(describeLbs))).name).toBe('TimeoutError');
    impatient.destroy();
  });

  it('counts every call, errors by code and faults by kind; reset clears them', async () => {
    await createAlb(ctx.client);
    await sdkError(createTg(ctx.client, '-bad-'));
    ctx.sim.faults.failNext('*', 1, { code: 'InternalFailure' });
    await sdkError(ctx.client.send(describeLbs));
    expect(ctx.sim.calls.get('CreateTargetGroup')).toMatchObject({
      calls: 1,
      errors: 1,
      errorCodes: { ValidationError: 1 },
    });
    expect(ctx.sim.calls.get('DescribeLoadBalancers')).toMatchObject({
      calls: 1,
      faulted: 1,
      faults: { scripted: 1 },
    });
    expect(ctx.sim.calls.total()).toBe(3);
    expect(ctx.sim.calls.total('CreateLoadBalancer')).toBe(1);
    expect(ctx.sim.calls.history().map((h) => h.outcome)).toEqual(['ok', 'error', 'fault']);
    ctx.sim.calls.reset();
    expect(ctx.sim.calls.all()).toEqual({});
  });

  it('speaks AWS Query XML on the wire and rejects unknown actions', async () => {
    const ok = await fetch(ctx.sim.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=DescribeLoadBalancers&Version=2015-12-01',
    });
    expect(ok.status).toBe(200);
    const body = await ok.text();
    expect(body).toContain(
      '<DescribeLoadBalancersResponse xmlns="http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/">',
    );
    expect(body).toContain(
      '<DescribeLoadBalancersResult><LoadBalancers></LoadBalancers></DescribeLoadBalancersResult>',
    );

    const bad = await fetch(ctx.sim.url, { method: 'POST', body: 'Action=Nope&Version=2015-12-01' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/<Error><Type>Sender<\/Type><Code>InvalidAction<\/Code>/);
  });
});

describe('ELBv2 simulator: seeded reproducibility', () => {
  async function run(seed: number): Promise<{ outcomes: string[]; arns: string[] }> {
    const sim: Elbv2Simulator = await startElbv2Simulator({ seed, faults: { throttle: 0.3, internal: 0.1 } });
    const client = elbv2ClientFor(sim, { maxAttempts: 20, retryDelayMs: 0 });
    try {
      for (let i = 0; i < 8; i++) await createTg(client, `tg-${i}`);
      return {
        outcomes: sim.calls.history().map((h) => `${h.outcome}:${h.fault ?? ''}`),
        arns: sim.state.targetGroups().map((t) => t.TargetGroupArn!),
      };
    } finally {
      client.destroy();
      await sim.close();
    }
  }

  it('gives identical faults and ARNs for the same seed, different ones for another seed', async () => {
    const a = await run(42);
    const b = await run(42);
    const c = await run(7);
    expect(a).toEqual(b);
    expect(a.outcomes.some((o) => o.startsWith('fault'))).toBe(true);
    expect(c.outcomes).not.toEqual(a.outcomes);
    expect(c.arns).not.toEqual(a.arns);
  });

  it('keeps ARNs independent of the fault settings', async () => {
    const quiet = await startElbv2Simulator({ seed: 42 });
    const client = elbv2ClientFor(quiet);
    for (let i = 0; i < 8; i++) await createTg(client, `tg-${i}`);
    const arns = quiet.state.targetGroups().map((t) => t.TargetGroupArn);
    client.destroy();
    await quiet.close();
    expect(arns).toEqual((await run(42)).arns);
  });
});
