/**
 * User tags (the tags annotation and `defaultTags`) are reconciled both ways, as LBC does: a key
 * the spec no longer asks for is removed from the load balancer, target groups, listeners and
 * rules (chaos seeds 14, 16, 17 found them kept forever). Spared: `aws:` keys, our bookkeeping
 * keys (fingerprint, created-at) and `externalManagedTags`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidObjectError, ProviderConfigError } from '../../lib/errors.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import {
  FINGERPRINT_TAG,
  parseAwsConfig,
  plannedActions,
  type AwsProviderConfig,
} from '../../lib/providers/aws/index.js';
import { CREATED_AT_TAG, TAG_PREFIX } from '../../lib/providers/aws/tagging.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

const ALB_TAGS = 'alb.ingress.kubernetes.io/tags';
const NLB_TAGS = 'service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags';

let env: AwsEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const start = async (config: Partial<AwsProviderConfig> = {}) =>
  (env = await startAwsEnv(
    [
      service('serve', [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }]),
      collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
      collectedSlice('member2', 'serve', { addresses: ['172.20.0.20'] }),
    ],
    { config },
  ));

const ingress = (annotations?: Record<string, string>): MultiClusterIngress =>
  minimalIngress({
    metadata: {
      name: 'minimal-ingress',
      namespace: 'default',
      uid: 'mci-uid-1',
      ...(annotations ? { annotations } : {}),
    },
    spec: {
      rules: [
        {
          http: { paths: [path('/testpath', 'Prefix', 'serve', 80), path('/other', 'Prefix', 'serve', 80)] },
        },
      ],
    },
  });

type Kind = 'LoadBalancer' | 'TargetGroup' | 'Listener' | 'ListenerRule';

/** Every resource of the simulator by kind, with its ARN and tags. */
function resources(e: AwsEnv): Array<{ kind: Kind; arn: string; tags: Record<string, string> }> {
  const s = e.sim.snapshot();
  const tags = new Map(s.tags.map((t) => [t.ResourceArn, t.Tags]));
  const of = (kind: Kind, arns: Array<string | undefined>) =>
    arns.flatMap((arn) => (arn ? [{ kind, arn, tags: tags.get(arn) ?? {} }] : []));
  return [
    ...of(
      'LoadBalancer',
      s.loadBalancers.map((l) => l.LoadBalancerArn),
    ),
    ...of(
      'TargetGroup',
      s.targetGroups.map((t) => t.TargetGroupArn),
    ),
    ...of(
      'Listener',
      s.listeners.map((l) => l.ListenerArn),
    ),
    ...of(
      'ListenerRule',
      s.rules.filter((r) => !r.IsDefault).map((r) => r.RuleArn),
    ),
  ];
}

/** The tags of every resource without our own keys, by kind. */
function userTags(e: AwsEnv): Array<{ kind: Kind; tags: Record<string, string> }> {
  return resources(e).map((r) => ({
    kind: r.kind,
    tags: Object.fromEntries(Object.entries(r.tags).filter(([k]) => !k.startsWith(`${TAG_PREFIX}/`))),
  }));
}

function expectUserTags(e: AwsEnv, kinds: readonly Kind[], tags: Record<string, string>): void {
  const all = userTags(e);
  expect(new Set(all.map((r) => r.kind))).toStrictEqual(new Set(kinds));
  for (const r of all) expect(r, r.kind).toStrictEqual({ kind: r.kind, tags });
}

const ALB_KINDS: Kind[] = ['LoadBalancer', 'TargetGroup', 'Listener', 'ListenerRule'];
const NLB_KINDS: Kind[] = ['LoadBalancer', 'TargetGroup', 'Listener'];

describe('AWS provider: user tags are removed when the spec drops them', () => {
  it('ALB: removing the tags annotation removes its keys from the LB, target groups, listener and rules', async () => {
    const e = await start();
    const lb = e.provider.loadBalancer();
    await lb.ensure(e.ctx, ingress({ [ALB_TAGS]: 'team=b,env=chaos' }));
    expectUserTags(e, ALB_KINDS, { team: 'b', env: 'chaos' });

    await lb.update({ ...e.ctx, resync: true }, ingress());

    // `team` stays (defaultTags: platform), `env` goes, on every resource.
    expectUserTags(e, ALB_KINDS, { team: 'platform' });
    expect(e.mutatingCalls().filter((a) => a === 'RemoveTags')).toHaveLength(
      resources(e).length, // one per resource: LB, target group, listener, two rules
    );
    // Nothing left to do: the next ordinary notification takes the fingerprint fast path.
    expect(await e.measured(() => lb.update(e.ctx, ingress()))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
  });

  it('NLB: removing the additional-resource-tags annotation removes its keys everywhere', async () => {
    const e = await start();
    const lb = e.provider.mcsLoadBalancer();
    await lb.ensure(e.ctx, mcs('serve', {}, { [NLB_TAGS]: 'team=b,env=chaos' }));
    expectUserTags(e, NLB_KINDS, { team: 'b', env: 'chaos' });

    await lb.update({ ...e.ctx, resync: true }, mcs('serve'));

    expectUserTags(e, NLB_KINDS, { team: 'platform' });
    expect(await e.measured(() => lb.update(e.ctx, mcs('serve')))).toStrictEqual({
      DescribeLoadBalancers: 1,
      DescribeTags: 1,
    });
  });

  it('a changed annotation: team=b,env=chaos → team=a overwrites team and removes env', async () => {
    const e = await start({ defaultTags: {} });
    const lb = e.provider.loadBalancer();
    await lb.ensure(e.ctx, ingress({ [ALB_TAGS]: 'team=b,env=chaos' }));
    await lb.update({ ...e.ctx, resync: true }, ingress({ [ALB_TAGS]: 'team=a' }));
    expectUserTags(e, ALB_KINDS, { team: 'a' });
  });

  it('a dropped defaultTags key is removed too', async () => {
    const e = await start({ defaultTags: { team: 'platform', costly: 'yes' } });
    await e.provider.loadBalancer().ensure(e.ctx, ingress());
    expectUserTags(e, ALB_KINDS, { team: 'platform', costly: 'yes' });
    // The provider reads its configuration object on every build: a redeploy with a new file.
    e.config.defaultTags = { team: 'platform' };
    await e.provider.loadBalancer().update({ ...e.ctx, resync: true }, ingress());
    expectUserTags(e, ALB_KINDS, { team: 'platform' });
  });

  it('without a resync, the LB and target groups are cleaned at once (the fingerprint changed), listeners and rules by the next resync', async () => {
    const e = await start();
    const lb = e.provider.loadBalancer();
    await lb.ensure(e.ctx, ingress({ [ALB_TAGS]: 'env=chaos' }));
    await lb.update(e.ctx, ingress());
    const byKind = (kind: Kind) => userTags(e).filter((r) => r.kind === kind);
    for (const r of [...byKind('LoadBalancer'), ...byKind('TargetGroup')])
      expect(r.tags).toStrictEqual({ team: 'platform' });
    await lb.update({ ...e.ctx, resync: true }, ingress());
    expectUserTags(e, ALB_KINDS, { team: 'platform' });
  });

  it('a re-created object adopting an orphaned LB that still carries old user tags cleans them', async () => {
    const e = await start();
    const lb = e.provider.loadBalancer();
    await lb.ensure(e.ctx, ingress({ [ALB_TAGS]: 'team=b,env=chaos' }));
    // The object was deleted and re-created without the annotation; its stack (same name) adopts.
    const recreated = { ...ingress(), metadata: { ...ingress().metadata, uid: 'mci-uid-2' } };
    await lb.ensure(e.ctx, recreated);
    await lb.update({ ...e.ctx, resync: true }, recreated);
    expectUserTags(e, ALB_KINDS, { team: 'platform' });
  });
});

describe('AWS provider: tags that are never removed', () => {
  it('keys in externalManagedTags, aws: keys, the fingerprint and created-at survive a resync; stray keys do not', async () => {
    const e = await start({ externalManagedTags: ['cost-center'] });
    const lb = e.provider.loadBalancer();
    await lb.ensure(e.ctx, ingress());
    for (const r of resources(e)) {
      e.sim.state.addTags({
        ResourceArns: [r.arn],
        Tags: [
          { Key: 'cost-center', Value: 'cc-42' },
          { Key: 'stray', Value: 'console' },
        ],
      });
      // AddTags refuses `aws:` keys (AWS sets them itself, e.g. CloudFormation): write the state.
      e.sim.state.store.tags.get(r.arn)?.set('aws:cloudformation:stack-name', 'infra');
    }

    await lb.update({ ...e.ctx, resync: true }, ingress());

    expectUserTags(e, ALB_KINDS, {
      team: 'platform',
      'cost-center': 'cc-42',
      'aws:cloudformation:stack-name': 'infra',
    });
    const all = resources(e);
    const lbTags = all.find((r) => r.kind === 'LoadBalancer')?.tags ?? {};
    expect(lbTags[FINGERPRINT_TAG]).toMatch(/^v2-[0-9a-f]+$/);
    for (const tg of all.filter((r) => r.kind === 'TargetGroup'))
      expect(tg.tags[CREATED_AT_TAG]).toBeDefined();
  });

  it('an annotation may not set an external managed key; neither may defaultTags', async () => {
    const e = await start({ externalManagedTags: ['cost-center'] });
    await expect(
      e.provider.loadBalancer().ensure(e.ctx, ingress({ [ALB_TAGS]: 'cost-center=mine' })),
    ).rejects.toBeInstanceOf(InvalidObjectError);
    expect(e.sim.calls.history()).toStrictEqual([]);
    const base = [
      'region: us-east-1',
      'vpc: { id: vpc-1, cidrs: [10.0.0.0/16] }',
      'subnets: [subnet-1]',
      'ownerId: test',
    ];
    expect(await parseAwsConfig([...base, 'externalManagedTags: [cost-center]'].join('\n'))).toMatchObject({
      externalManagedTags: ['cost-center'],
    });
    await expect(
      parseAwsConfig(
        [...base, 'defaultTags: { cost-center: x }', 'externalManagedTags: [cost-center]'].join('\n'),
      ),
    ).rejects.toThrow(ProviderConfigError);
    await expect(
      parseAwsConfig([...base, `externalManagedTags: ['${FINGERPRINT_TAG}']`].join('\n')),
    ).rejects.toThrow(ProviderConfigError);
  });
});

describe('AWS provider: tag removal in the change plan', () => {
  it('the dry-run plan lists the RemoveTags calls and apply does exactly that', async () => {
    const e = await start();
    const impl = e.provider.ingress;
    const resync = { ...e.ctx, resync: true };
    await impl.update(e.ctx, ingress({ [ALB_TAGS]: 'env=chaos' }));

    e.sim.calls.reset();
    const { plan } = await impl.plan(resync, ingress());
    expect(e.mutatingCalls()).toStrictEqual([]);
    const removals = plan.filter((o) => o.calls.some((c) => c.action === 'RemoveTags'));
    expect(removals.map((o) => o.resource).sort()).toStrictEqual([
      'Listener',
      'ListenerRule',
      'ListenerRule',
      'LoadBalancer',
      'TargetGroup',
    ]);
    for (const o of removals) {
      expect(o.op).toBe('modify');
      expect(o.detail).toContain('untag env');
      expect(o.calls.find((c) => c.action === 'RemoveTags')?.input).toMatchObject({ TagKeys: ['env'] });
    }

    e.sim.calls.reset();
    await impl.update(resync, ingress());
    expect(e.mutatingCalls()).toStrictEqual(plannedActions(plan));
    expectUserTags(e, ALB_KINDS, { team: 'platform' });
  });
});
