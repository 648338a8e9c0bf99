import { describe, expect, it } from 'vitest';
import {
  elbv2Name,
  loadBalancerName,
  MAX_NAME_LENGTH,
  targetGroupName,
} from '../../lib/providers/aws/naming.js';
import {
  CREATED_AT_TAG,
  FINGERPRINT_TAG,
  isOwnedBy,
  resourceTags,
  tagsToRemove,
  tagsToUpsert,
} from '../../lib/providers/aws/tagging.js';
import { parseStackId, stackId } from '../../lib/provider/stack-id.js';

const lb = {
  ownerId: 'karmada-prod',
  stackId: 'mci/default/minimal-ingress',
  namespace: 'default',
  name: 'minimal-ingress',
  type: 'application' as const,
  scheme: 'internal' as const,
};

describe('Function: elbv2Name', () => {
  it.each([
    { name: 'short names', ns: 'a', n: 'b', expected: /^k8s-a-b-[0-9a-f]{10}$/ },
    {
      name: 'long names are cut to 8',
      ns: 'production-europe',
      n: 'very-long-ingress-name',
      expected: /^k8s-producti-verylong-[0-9a-f]{10}$/,
    },
    {
      name: 'non-alphanumerics are stripped',
      ns: 'team.a_b',
      n: 'my.ing-ress',
      expected: /^k8s-teamab-mying[a-z]*-[0-9a-f]{10}$/,
    },
  ])('$name', ({ ns, n, expected }) => {
    const name = elbv2Name(ns, n, ['x']);
    expect(name).toMatch(expected);
    expect(name.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
  });

  it('is exactly 32 characters when both parts are long enough', () => {
    expect(elbv2Name('namespace', 'ingressname', ['x'])).toHaveLength(32);
  });

  it('is stable for the same inputs and differs when any hashed input changes', () => {
    const base = loadBalancerName(lb);
    expect(loadBalancerName({ ...lb })).toBe(base);
    expect(base).toBe('k8s-default-minimali-' + base.slice(-10));
    expect(loadBalancerName({ ...lb, scheme: 'internet-facing' })).not.toBe(base);
    expect(loadBalancerName({ ...lb, ownerId: 'karmada-dev' })).not.toBe(base);
    expect(loadBalancerName({ ...lb, stackId: 'mci/default/other' })).not.toBe(base);
  });

  it('separates hash inputs so that shifting characters between them changes the name', () => {
    expect(elbv2Name('a', 'b', ['ab', 'c'])).not.toBe(elbv2Name('a', 'b', ['a', 'bc']));
  });

  it('gives target groups of different ports or protocols different names', () => {
    const tg = {
      ownerId: 'o',
      stackId: 's',
      serviceNamespace: 'default',
      serviceName: 'serve',
      servicePort: '80',
      port: 8080,
      protocol: 'HTTP',
      targetType: 'ip',
      vpcId: 'vpc-1',
    };
    const names = new Set([
      targetGroupName(tg),
      targetGroupName({ ...tg, servicePort: '81' }),
      targetGroupName({ ...tg, port: 9090 }),
      targetGroupName({ ...tg, protocol: 'HTTPS' }),
      targetGroupName({ ...tg, vpcId: 'vpc-2' }),
    ]);
    expect(names.size).toBe(5);
    for (const n of names) expect(n).toMatch(/^k8s-default-serve-[0-9a-f]{10}$/);
  });
});

describe('Module: tagging', () => {
  const owner = { ownerId: 'karmada-prod', stackId: stackId('mci', 'default', 'demo') };

  it('formats stack IDs per kind', () => {
    expect(stackId('mci', 'default', 'demo')).toBe('mci/default/demo');
    expect(stackId('mcs', 'default', 'demo')).toBe('mcs/default/demo');
  });

  it('parses back exactly the stack IDs it formats', () => {
    expect(parseStackId(stackId('mcs', 'prod', 'api'))).toStrictEqual({
      kind: 'mcs',
      namespace: 'prod',
      name: 'api',
      stackId: 'mcs/prod/api',
    });
    for (const bad of ['', 'mci', 'mci/default', 'mci//demo', 'svc/default/demo', 'mci/a/b/c']) {
      expect(parseStackId(bad)).toBeUndefined();
    }
  });

  it('lets ownership tags win over default tags', () => {
    expect(
      resourceTags(owner, 'LoadBalancer', { 'multicluster.karmada.io/owner': 'evil', team: 'x' }),
    ).toStrictEqual({
      'multicluster.karmada.io/owner': 'karmada-prod',
      team: 'x',
      'multicluster.karmada.io/stack': 'mci/default/demo',
      'multicluster.karmada.io/resource': 'LoadBalancer',
    });
  });

  it.each([
    { name: 'ours', tags: resourceTags(owner, 'x'), owned: true },
    { name: 'another deployment', tags: resourceTags({ ...owner, ownerId: 'other' }, 'x'), owned: false },
    { name: 'another stack', tags: resourceTags({ ...owner, stackId: 'mci/default/x' }, 'x'), owned: false },
    { name: 'untagged', tags: {}, owned: false },
  ])('decides ownership: $name', ({ tags, owned }) => {
    expect(isOwnedBy(tags, owner)).toBe(owned);
  });

  it('upserts only missing or different tags', () => {
    expect(tagsToUpsert({ a: '1', b: '2' }, { a: '1', b: 'x', c: 'foreign' })).toStrictEqual({ b: '2' });
  });

  it('removes undesired keys except aws:, our bookkeeping keys and external managed ones', () => {
    const actual = {
      a: '1',
      stale: 'x',
      'aws:cloudformation:stack-name': 's',
      [FINGERPRINT_TAG]: 'v1-abc',
      [CREATED_AT_TAG]: '2026-01-01T00:00:00.000Z',
      'cost-center': '42',
      constructor: 'not a prototype key',
    };
    expect(tagsToRemove({ a: '1' }, actual, ['cost-center'])).toStrictEqual(['constructor', 'stale']);
    expect(tagsToRemove({ a: '1' }, actual)).toStrictEqual(['constructor', 'cost-center', 'stale']);
  });
});
