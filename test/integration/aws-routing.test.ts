/**
 * LBC's routing annotations through the ELBv2 simulator: a manifest in the style of LBC's docs
 * (actions.ssl-redirect, a path redirect, header-based routing to a canary Service, a weighted
 * canary with stickiness and a URL rewrite) produces the rules LBC would, as DescribeRules reports
 * them; an unchanged object then costs no mutating call, also on a full resync; a change of weights
 * and the removal of the rewrite modify the rule in place.
 */
import type { Rule } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { CERT_A, startAwsEnv, type AwsEnv } from './aws-env.js';

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;

let env: AwsEnv;

beforeEach(async () => {
  env = await startAwsEnv([
    service('stable', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
    service('canary', [{ name: 'http', port: 80, targetPort: 8081, protocol: 'TCP' }]),
    collectedSlice('member1', 'stable', { addresses: ['10.0.1.10', '10.0.1.11'] }),
    collectedSlice('member2', 'canary', { addresses: ['10.0.2.20'] }),
  ]);
});
afterEach(async () => {
  await env.close();
});

function weighted(stable: number, canary: number) {
  return JSON.stringify({
    type: 'forward',
    forwardConfig: {
      targetGroups: [
        { serviceName: 'stable', servicePort: 'http', weight: stable },
        { serviceName: 'canary', servicePort: 'http', weight: canary },
      ],
      targetGroupStickinessConfig: { enabled: true, durationSeconds: 300 },
    },
  });
}

function manifest(extra: Record<string, string> = {}, drop: string[] = []): MultiClusterIngress {
  const annotations: Record<string, string> = {
    [A('listen-ports')]: '[{"HTTP": 80}, {"HTTPS": 443}]',
    [A('certificate-arn')]: CERT_A,
    // LBC's docs: the classic HTTP → HTTPS redirect as an action on a catch-all path.
    [A('actions.ssl-redirect')]:
      '{"Type": "redirect", "RedirectConfig": { "Protocol": "HTTPS", "Port": "443", "StatusCode": "HTTP_301"}}',
    [A('actions.moved')]: '{"type":"redirect","redirectConfig":{"path":"/new","statusCode":"HTTP_302"}}',
    [A('conditions.canary')]:
      '[{"field":"http-header","httpHeaderConfig":{"httpHeaderName":"X-Canary","values":["always"]}}]',
    [A('actions.weighted-routing')]: weighted(90, 10),
    [A('transforms.weighted-routing')]:
      '[{"type":"url-rewrite","urlRewriteConfig":{"rewrites":[{"regex":"^/app/(.*)$","replace":"/$1"}]}}]',
    ...extra,
  };
  for (const k of drop) delete annotations[k];
  return minimalIngress({
    metadata: { name: 'shop', namespace: 'default', uid: 'mci-shop', annotations },
    spec: {
      rules: [
        {
          http: {
            paths: [
              path('/', 'Prefix', 'ssl-redirect', 'use-annotation'),
              path('/old', 'Exact', 'moved', 'use-annotation'),
              path('/', 'Prefix', 'canary', 'http'),
              path('/', 'Prefix', 'weighted-routing', 'use-annotation'),
            ],
          },
        },
      ],
    },
  });
}

/** The rules of one listener as DescribeRules reports them (absent members dropped), without the default rule. */
function rulesOf(port: number): Array<Pick<Rule, 'Priority' | 'Conditions' | 'Actions' | 'Transforms'>> {
  const snap = env.sim.snapshot();
  const listener = snap.listeners.find((l) => l.Port === port);
  const rules = snap.rules
    .filter((r) => r.ListenerArn === listener?.ListenerArn && !r.IsDefault)
    .map((r) => ({
      Priority: r.Priority,
      Conditions: r.Conditions,
      Actions: r.Actions,
      ...(r.Transforms?.length ? { Transforms: r.Transforms } : {}),
    }));
  return JSON.parse(JSON.stringify(rules)) as typeof rules;
}

function tgArn(service: string): string {
  const tg = env.sim.snapshot().targetGroups.find((t) => t.TargetGroupName?.includes(service));
  return tg?.TargetGroupArn ?? `no target group for ${service}`;
}

/** The weighted forward as DescribeRules reports it. */
function weightedAction(stable: number, canary: number) {
  return {
    Type: 'forward',
    Order: 1,
    ForwardConfig: {
      TargetGroups: [
        { TargetGroupArn: tgArn('stable'), Weight: stable },
        { TargetGroupArn: tgArn('canary'), Weight: canary },
      ],
      TargetGroupStickinessConfig: { Enabled: true, DurationSeconds: 300 },
    },
  };
}

const catchAll = { Field: 'path-pattern', Values: ['/*'], PathPatternConfig: { Values: ['/*'] } };
const old = { Field: 'path-pattern', Values: ['/old'], PathPatternConfig: { Values: ['/old'] } };
const movedRedirect = {
  Type: 'redirect',
  Order: 1,
  RedirectConfig: {
    Protocol: '#{protocol}',
    Port: '#{port}',
    Host: '#{host}',
    Path: '/new',
    Query: '#{query}',
    StatusCode: 'HTTP_302',
  },
};

describe('LBC routing annotations through the ELBv2 simulator', () => {
  it('builds the rules LBC would, then a no-op and a resync make no mutating call', async () => {
    // Act
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, manifest());

    // Assess: HTTP keeps the path redirect and the catch-all HTTPS redirect; the two rules after
    // it are shadowed by it (LBC's rule optimiser).
    expect(rulesOf(80)).toStrictEqual([
      { Priority: '1', Conditions: [old], Actions: [movedRedirect] },
      {
        Priority: '2',
        Conditions: [catchAll],
        Actions: [
          {
            Type: 'redirect',
            Order: 1,
            RedirectConfig: {
              Protocol: 'HTTPS',
              Port: '443',
              Host: '#{host}',
              Path: '/#{path}',
              Query: '#{query}',
              StatusCode: 'HTTP_301',
            },
          },
        ],
      },
    ]);
    // HTTPS drops the redirect to itself; the header routes to the canary, the rest is weighted.
    expect(rulesOf(443)).toStrictEqual([
      { Priority: '1', Conditions: [old], Actions: [movedRedirect] },
      {
        Priority: '2',
        Conditions: [
          { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-Canary', Values: ['always'] } },
          catchAll,
        ],
        Actions: [
          {
            Type: 'forward',
            Order: 1,
            TargetGroupArn: tgArn('canary'),
            ForwardConfig: {
              TargetGroups: [{ TargetGroupArn: tgArn('canary'), Weight: 1 }],
              TargetGroupStickinessConfig: { Enabled: false },
            },
          },
        ],
      },
      {
        Priority: '3',
        Conditions: [catchAll],
        Actions: [weightedAction(90, 10)],
        Transforms: [
          { Type: 'url-rewrite', UrlRewriteConfig: { Rewrites: [{ Regex: '^/app/(.*)$', Replace: '/$1' }] } },
        ],
      },
    ]);
    // Both Services' target groups, with their own clusters' targets.
    expect(
      env.sim
        .snapshot()
        .targets.map((t) => [t.TargetGroupName?.includes('stable') ? 'stable' : 'canary', t.Id, t.Port]),
    ).toStrictEqual(
      expect.arrayContaining([
        ['stable', '10.0.1.10', 8080],
        ['stable', '10.0.1.11', 8080],
        ['canary', '10.0.2.20', 8081],
      ]),
    );
    expect(env.state()).toStrictEqual(await env.expectedForMci(manifest()));
    // Every key is acted on: no Warning Event.
    expect(env.announced).toStrictEqual([]);

    // Act: the same object again, and a full resync that describes and compares every rule.
    env.sim.calls.reset();
    await lb.update(env.ctx, manifest());
    await lb.update({ ...env.ctx, resync: true }, manifest());
    // Assess
    expect(env.mutatingCalls()).toStrictEqual([]);
  });

  it('new weights and no rewrite: the weighted rule is modified in place, its transform reset', async () => {
    // Prepare
    const lb = env.provider.loadBalancer();
    await lb.ensure(env.ctx, manifest());
    const before = rulesOf(443);
    // Act
    const next = manifest({ [A('actions.weighted-routing')]: weighted(50, 50) }, [
      A('transforms.weighted-routing'),
    ]);
    env.sim.calls.reset();
    await lb.update(env.ctx, next);
    // Assess
    const modifies = env.sim.calls.history().filter((c) => c.action === 'ModifyRule' && c.outcome === 'ok');
    expect(modifies).toHaveLength(1);
    const after = rulesOf(443);
    expect(after.slice(0, 2)).toStrictEqual(before.slice(0, 2));
    expect(after[2]).toStrictEqual({
      Priority: '3',
      Conditions: [catchAll],
      Actions: [weightedAction(50, 50)],
    });
    expect(env.state()).toStrictEqual(await env.expectedForMci(next));
    env.sim.calls.reset();
    await lb.update({ ...env.ctx, resync: true }, next);
    expect(env.mutatingCalls()).toStrictEqual([]);
  });
});
