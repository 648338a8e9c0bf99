/**
 * Tenant guardrails end to end: the functions' reconcile (the harness), the AWS provider with a
 * tenant policy in its configuration, the ELBv2 simulator. Whatever a MultiClusterIngress or
 * MultiClusterService asks for beyond the policy is reported on the object (a Warning Event and
 * LoadBalancerReady=False, naming the annotation and the rule) and nothing is created or changed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startElbv2Simulator, SIM_NETWORK, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { minimalIngress, serveMultiClusterService, upstreamScenario } from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import type { TenantPolicy } from '../../lib/providers/aws/tenant-policy.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const N = (k: string) => `service.beta.kubernetes.io/aws-load-balancer-${k}`;
const PRIVATE = SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId);
const PUBLIC = SIM_NETWORK.subnets.filter((s) => s.public).map((s) => s.subnetId);
const SHOP_CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/shop-1111';
const OTHER_CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/other-2222';

const POLICY: TenantPolicy = {
  rules: [
    {
      name: 'everyone',
      schemes: ['internal'],
      subnets: PRIVATE,
      securityGroups: [SIM_NETWORK.defaultSecurityGroupId],
      certificates: { allowed: [{ arn: SHOP_CERT, names: ['*.shop.example.com'] }], matchHosts: true },
      sslPolicies: ['ELBSecurityPolicy-TLS13-1-2-2021-06'],
      attributes: { deny: ['deletion_protection.enabled', 'access_logs.*'] },
      tags: { allow: ['team', 'cost-center'] },
    },
    {
      name: 'restricted-namespaces',
      namespaceSelector: { matchLabels: { tier: 'restricted' } },
      maxLoadBalancersPerNamespace: 1,
    },
  ],
};

let sim: Elbv2Simulator;
let h: Harness;

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'tenant';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'tenant';
  sim = await startElbv2Simulator({ inProcess: true });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, { tenantPolicy: POLICY }),
  });
  await h.seed([
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'restricted', labels: { tier: 'restricted' } },
    } as KubeObject,
    ...upstreamScenario(),
    ...upstreamScenario()
      .filter(
        (o) =>
          o.metadata.namespace === 'default' &&
          o.kind !== 'MultiClusterIngress' &&
          o.kind !== 'MultiClusterService',
      )
      .map(
        (o) =>
          ({
            ...o,
            metadata: { ...o.metadata, namespace: 'restricted', uid: undefined, resourceVersion: undefined },
          }) as KubeObject,
      ),
  ]);
}, 60_000);
afterAll(async () => {
  await h?.close();
  await sim?.close();
});
beforeEach(() => sim.calls.reset());

const MUTATING = /^(Create|Delete|Modify|Set|Add|Remove|Register|Deregister)/;
const mutatingCalls = () =>
  Object.entries(sim.calls.all())
    .filter(([action, c]) => MUTATING.test(action) && c.calls > 0)
    .map(([action]) => action);

function mci(
  name: string,
  annotations: Record<string, string>,
  extra: Partial<{ host: string; namespace: string }> = {},
) {
  const base = minimalIngress(name) as KubeObject & { spec: any };
  const spec = structuredClone(base.spec);
  if (extra.host) spec.rules[0].host = extra.host;
  return {
    ...base,
    metadata: { ...base.metadata, namespace: extra.namespace ?? 'default', annotations },
    spec,
  } as KubeObject;
}

async function reconcile(obj: KubeObject) {
  await h.seed([obj]);
  const [item] = await h.deliver(notify(obj, 'added'));
  const type =
    obj.kind === 'MultiClusterService' ? Resources.MultiClusterService : Resources.MultiClusterIngress;
  const stored = await h.kube.get<KubeObject & { status?: any }>(
    type,
    obj.metadata.namespace,
    obj.metadata.name ?? '',
  );
  const condition =
    obj.kind === 'MultiClusterService'
      ? stored?.status?.conditions?.find((c: { type: string }) => c.type === 'LoadBalancerReady')
      : JSON.parse(stored?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '{}');
  const events = (
    await h.kube.list<KubeObject & { reason?: string; message?: string; type?: string }>(Resources.Event, {
      namespace: obj.metadata.namespace,
    })
  ).items.filter(
    (e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === obj.metadata.name,
  );
  return { item, condition, events };
}

/** A refused object: Warning Event + LoadBalancerReady=False naming `annotation` and `rule`, nothing changed in AWS. */
async function expectRefused(obj: KubeObject, annotation: string, rule: string) {
  const { item, condition, events } = await reconcile(obj);
  const outcome = item?.results.find(
    (r) =>
      r.controller === (obj.kind === 'MultiClusterService' ? 'multiclusterservice' : 'multiclusteringress'),
  );
  expect(outcome?.outcome, JSON.stringify(item)).toBe('invalid');
  expect(condition).toMatchObject({ status: 'False', reason: 'TenantPolicyViolation' });
  expect(condition.message).toContain(annotation);
  expect(condition.message).toContain(`rule "${rule}"`);
  const warning = events.find((e) => e.type === 'Warning' && e.reason === 'TenantPolicyViolation');
  expect(warning?.message).toContain(annotation);
  expect(mutatingCalls()).toEqual([]);
}

describe('Tenant policy: refused before any change in AWS', () => {
  it('scheme: internet-facing where the policy pins internal', async () => {
    await expectRefused(mci('public', { [A('scheme')]: 'internet-facing' }), A('scheme'), 'everyone');
  });

  it('subnets and security groups outside the allowed ones', async () => {
    await expectRefused(mci('subnets', { [A('subnets')]: PUBLIC.join(',') }), A('subnets'), 'everyone');
    await expectRefused(
      mci('sgs', { [A('security-groups')]: 'sg-0fedcba9876543210' }),
      A('security-groups'),
      'everyone',
    );
  });

  it('certificates: not allow-listed, or not covering the hosts', async () => {
    const https = {
      [A('listen-ports')]: '[{"HTTPS":443}]',
      [A('ssl-policy')]: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
    };
    await expectRefused(
      mci('cert', { ...https, [A('certificate-arn')]: OTHER_CERT }),
      A('certificate-arn'),
      'everyone',
    );
    await expectRefused(
      mci('cert-host', { ...https, [A('certificate-arn')]: SHOP_CERT }, { host: 'admin.example.org' }),
      A('certificate-arn'),
      'everyone',
    );
  });

  it('a weak SSL policy, the default one included when none is named', async () => {
    await expectRefused(
      mci(
        'default-tls',
        { [A('listen-ports')]: '[{"HTTPS":443}]', [A('certificate-arn')]: SHOP_CERT },
        { host: 'www.shop.example.com' },
      ),
      A('ssl-policy'),
      'everyone',
    );
    await expectRefused(
      mci(
        'weak-tls',
        {
          [A('listen-ports')]: '[{"HTTPS":443}]',
          [A('certificate-arn')]: SHOP_CERT,
          [A('ssl-policy')]: 'ELBSecurityPolicy-2016-08',
        },
        { host: 'www.shop.example.com' },
      ),
      A('ssl-policy'),
      'everyone',
    );
  });

  it('denied attributes (deletion protection, access logs) and tag keys outside the allowed ones', async () => {
    await expectRefused(
      mci('protected', { [A('load-balancer-attributes')]: 'deletion_protection.enabled=true' }),
      A('load-balancer-attributes'),
      'everyone',
    );
    await expectRefused(
      mci('logs', {
        [A('load-balancer-attributes')]: 'access_logs.s3.enabled=true,access_logs.s3.bucket=exfil',
      }),
      A('load-balancer-attributes'),
      'everyone',
    );
    await expectRefused(mci('tagged', { [A('tags')]: 'owner-team=x' }), A('tags'), 'everyone');
  });

  it('a MultiClusterService is held to the same rules, under its own annotation keys', async () => {
    // The scenario's MultiClusterService `serve`, given an annotation.
    const stored = (await h.kube.get<KubeObject>(Resources.MultiClusterService, 'default', 'serve'))!;
    await h.kube.update(Resources.MultiClusterService, {
      ...stored,
      metadata: { ...stored.metadata, annotations: { [N('scheme')]: 'internet-facing' } },
    });
    await expectRefused(serveMultiClusterService(), N('scheme'), 'everyone');
  });

  it('what the policy allows is served; a namespace over its cap gets no more load balancers', async () => {
    const allowed = await reconcile(
      mci(
        'fine',
        {
          [A('listen-ports')]: '[{"HTTPS":443}]',
          [A('certificate-arn')]: SHOP_CERT,
          [A('ssl-policy')]: 'ELBSecurityPolicy-TLS13-1-2-2021-06',
          [A('tags')]: 'team=shop',
        },
        { host: 'www.shop.example.com' },
      ),
    );
    expect(allowed.item?.ok).toBe(true);
    expect(allowed.condition).toMatchObject({ status: 'True' });
    expect(mutatingCalls()).toContain('CreateLoadBalancer');
    // The cap applies in namespaces labelled tier=restricted only: the first one keeps its load balancer.
    const first = await reconcile(mci('first', {}, { namespace: 'restricted' }));
    expect(first.item?.ok).toBe(true);
    sim.calls.reset();
    await expectRefused(
      mci('second', {}, { namespace: 'restricted' }),
      'namespace restricted already has 1',
      'restricted-namespaces',
    );
    // In default (no tier label) there is no cap.
    expect((await reconcile(mci('another', {}))).item?.ok).toBe(true);
  });
});

describe('Tenant policy: the README example', () => {
  it('the README’s tenantPolicy example is a valid provider configuration', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { parse } = await import('yaml');
    const { parseAwsConfig } = await import('../../lib/providers/aws/config.js');
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('### Tenant policy'));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const example = parse(block) as { tenantPolicy: TenantPolicy };
    expect(example.tenantPolicy.rules.length).toBeGreaterThan(2);
    const config = await parseAwsConfig(
      JSON.stringify({
        region: 'eu-west-1',
        vpc: { id: 'vpc-1', cidrs: ['10.0.0.0/16'] },
        subnets: ['subnet-0aaa1111bbbb2222c'],
        ownerId: 'karmada-prod',
        ...example,
      }),
    );
    expect(config.tenantPolicy).toEqual(example.tenantPolicy);
  });
});
