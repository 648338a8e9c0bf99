/**
 * What `npm start` says: driven line by line through the narration (no servers), and the log tap
 * that hands it the functions' JSON log lines.
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tapJsonLogs } from '../../dev/local/log-tap.js';
import { Narration, shortPlan, subject } from '../../dev/local/narration.js';
import type { KubeObject } from '../../lib/kube/types.js';

const mci = (extra: Partial<KubeObject['metadata']> = {}, status?: unknown): KubeObject =>
  ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name: 'shop', namespace: 'default', resourceVersion: '1', ...extra },
    ...(status ? { status } : {}),
  }) as KubeObject;

const event = (reason: string, involved: Record<string, string>, message = 'm') =>
  ({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e' },
    involvedObject: involved,
    type: 'Normal',
    reason,
    message,
  }) as KubeObject;

afterEach(() => {
  vi.useRealTimers();
});

describe('narration', () => {
  it('names cluster-scoped objects without a namespace', () => {
    expect(subject('ClusterPropagationPolicy', undefined, 'serviceexportpropagation-policy')).toBe(
      'ClusterPropagationPolicy serviceexportpropagation-policy',
    );
    expect(subject('MultiClusterService', 'default', 'serve')).toBe('mcs default/serve');
    const lines: string[] = [];
    new Narration((l) => lines.push(l)).event(
      event('PolicyCreated', { kind: 'ClusterPropagationPolicy', name: 'serviceexportpropagation-policy' }),
    );
    expect(lines).toStrictEqual([
      'event on ClusterPropagationPolicy serviceexportpropagation-policy: Normal PolicyCreated: m',
    ]);
  });

  it('tells DeletedLoadBalancer before "deleted from the API server", whichever arrives first', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const n = new Narration((l) => lines.push(l), { holdDeletedMs: 1000 });
    n.object('ADDED', mci());
    n.object('DELETED', mci());
    expect(lines).toStrictEqual(['mci default/shop: seen']);
    n.event(
      event(
        'DeletedLoadBalancer',
        { kind: 'MultiClusterIngress', namespace: 'default', name: 'shop' },
        'Deleted load balancer',
      ),
    );
    expect(lines).toStrictEqual([
      'mci default/shop: seen',
      'event on mci default/shop: Normal DeletedLoadBalancer: Deleted load balancer',
      'mci default/shop: deleted from the API server',
    ]);
    // Without the Event (a load balancer that never existed), the line comes after the wait.
    lines.length = 0;
    n.object('DELETED', mci({ name: 'other' }));
    expect(lines).toStrictEqual([]);
    vi.advanceTimersByTime(1000);
    expect(lines).toStrictEqual(['mci default/other: deleted from the API server']);
  });

  it('tells what a restart found as state, not as news', () => {
    const lines: string[] = [];
    const n = new Narration((l) => lines.push(l));
    n.object(
      'LISTED',
      mci(
        { finalizers: ['karmada.io/multi-cluster-ingress-controller'] },
        { loadBalancer: { ingress: [{ hostname: 'lb.example' }] } },
      ),
    );
    expect(lines).toStrictEqual(['mci default/shop: in the API server (status.loadBalancer = lb.example)']);
    n.object(
      'MODIFIED',
      mci(
        { finalizers: ['karmada.io/multi-cluster-ingress-controller'] },
        { loadBalancer: { ingress: [{ hostname: 'lb2.example' }] } },
      ),
    );
    expect(lines.at(-1)).toBe('mci default/shop: status.loadBalancer = lb2.example');
    expect(lines.join('\n')).not.toContain('finalizer');
  });

  it('tells the short change plan of a reconcile from the function log line', () => {
    const lines: string[] = [];
    const n = new Narration((l) => lines.push(l));
    expect(
      n.log({
        level: 'INFO',
        message: 'change plan',
        stack: 'mci/default/shop',
        operations: [
          '~ modify ListenerRule 80:*:Prefix:/cart: conditions [ModifyRule]',
          '~ modify Targets default/shop-serve:80: targets +1 -1 [RegisterTargets, DeregisterTargets]',
          '~ modify LoadBalancer: fingerprint v1-abc [AddTags]',
        ],
      }),
    ).toBe(true);
    expect(n.log({ level: 'INFO', message: 'stack unchanged', stack: 'mcs/default/serve' })).toBe(true);
    expect(n.log({ level: 'INFO', message: 'listed', kind: 'Event' })).toBe(false);
    expect(lines).toStrictEqual([
      'mci default/shop: plan (2 changes):',
      '    ~ modify ListenerRule 80:*:Prefix:/cart: conditions',
      '    ~ modify Targets default/shop-serve:80: targets +1 -1',
      'mcs default/serve: plan: no changes (fingerprint matches)',
    ]);
    expect(shortPlan(['~ modify LoadBalancer: fingerprint v1-x [AddTags]'])).toStrictEqual([]);
  });

  it('over Regions: each Region’s plan under its name, the accelerator’s, the targets-only path, and a deferred reconcile', () => {
    const lines: string[] = [];
    const n = new Narration((l) => lines.push(l));
    const entries: Record<string, unknown>[] = [
      {
        message: 'change plan',
        stack: 'mci/default/shop',
        region: 'eu-west-1',
        operations: ['+ create LoadBalancer: application internal k8s-x [CreateLoadBalancer]'],
      },
      { message: 'stack unchanged', stack: 'mci/default/shop', region: 'us-east-1' },
      { message: 'targets plan', stack: 'mcs/default/serve', region: 'us-east-1', groups: 1 },
      {
        message: 'accelerator change plan',
        stack: 'mci/default/shop',
        phase: 'after',
        operations: [
          '+ create Accelerator: mcp-local-mci-default-shop-1, IPV4, standard [CreateAccelerator]',
        ],
      },
      { message: 'accelerator change plan', stack: 'mci/default/shop', phase: 'before', operations: [] },
      {
        level: 'INFO',
        message: 'reconcile waiting, will retry',
        key: 'default/shop',
        controller: 'multiclusteringress',
        error: { name: 'InProgressError', message: 'Global Accelerator: deleting …: still deploying' },
      },
      {
        level: 'WARN',
        message: 'reconcile deferred, will retry',
        key: 'default/shop',
        controller: 'multiclusteringress',
        error: { name: 'RetryLaterError', message: 'default/shop was locked by another invocation' },
      },
      {
        level: 'WARN',
        message: 'sink delivery failed; will retry',
        retryInMs: 139,
        error: { name: 'Error', message: 'POST http://127.0.0.1:1/: HTTP 500' },
      },
    ];
    expect(entries.map((e) => n.log(e))).toEqual([true, true, true, true, true, true, true, true]);
    // Another delivery failure (the function unreachable) is no deferral: printed as it is.
    expect(
      n.log({
        message: 'sink delivery failed; will retry',
        retryInMs: 5,
        error: { message: 'fetch failed' },
      }),
    ).toBe(false);
    expect(lines).toStrictEqual([
      'mci default/shop: plan in eu-west-1 (1 change):',
      '    + create LoadBalancer: application internal k8s-x',
      'mci default/shop: plan in us-east-1: no changes (fingerprint matches)',
      'mcs default/serve: plan in us-east-1: the targets of 1 target group change (the load balancer is as it was)',
      'mci default/shop: Global Accelerator plan (1 change):',
      '    + create Accelerator: mcp-local-mci-default-shop-1, IPV4, standard',
      'mci default/shop: waiting on AWS (the Normal Event tells each step): retried at the next delivery',
      'mci default/shop: deferred (RetryLaterError: default/shop was locked by another invocation): retried at the next delivery',
      'forwarder: the function answered 500 (deferred or failed): delivering again in 139 ms',
    ]);
  });
});

describe('warnings and errors the narration has no words of its own for', () => {
  it('are told in one line, who, what and why, never as JSON; those an Event tells are left to it', () => {
    const lines: string[] = [];
    const n = new Narration((l) => lines.push(l));
    n.logLine({
      level: 'WARN',
      message: 'region failed',
      timestamp: '2026-12-02T15:39:00.617Z',
      service: 'multicluster-cloud-provider',
      requestId: 'r-1',
      key: 'default/shop',
      controller: 'multiclusteringress',
      region: 'eu-west-1',
      error: { name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:4567', stack: '…' },
    });
    n.logLine({
      level: 'ERROR',
      message: 'watch failed',
      service: 'multicluster-forwarder',
      kind: 'EndpointSlice',
      attempt: 3,
    });
    // a model warning (it carries its Event's reason) and an invalid object: their Events tell them
    n.logLine({
      level: 'WARN',
      message: 'annotation x is not supported',
      reason: 'UnsupportedAnnotation',
      key: 'default/shop',
    });
    n.logLine({
      level: 'WARN',
      message: 'object is invalid, not reconciled',
      key: 'default/shop',
      field: 'spec',
    });
    expect(lines).toStrictEqual([
      'mci default/shop: warning: region failed (region eu-west-1): connect ECONNREFUSED 127.0.0.1:4567',
      'forwarder: error: watch failed (kind EndpointSlice, attempt 3)',
    ]);
  });
});

describe('log tap', () => {
  it('routes JSON log lines through the decision and passes other output through', () => {
    let written = '';
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.toString();
        done();
      },
    }) as unknown as NodeJS.WriteStream;
    const seen: string[] = [];
    const untap = tapJsonLogs(
      (e) => {
        seen.push(String(e.message));
        return e.level === 'WARN' ? 'print' : 'drop';
      },
      [stream],
    );
    stream.write('12:00  plain narration\n{"level":"INFO","message":"quiet"}\n{"level":"WARN","mes');
    stream.write('sage":"loud"}\n');
    untap();
    stream.write('{"level":"INFO","message":"after"}\n');
    expect(seen).toStrictEqual(['quiet', 'loud']);
    expect(written).toBe(
      '12:00  plain narration\n{"level":"WARN","message":"loud"}\n{"level":"INFO","message":"after"}\n',
    );
  });
});
