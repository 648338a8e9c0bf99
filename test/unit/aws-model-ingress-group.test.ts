/**
 * The IngressGroup model (model/ingress-group.ts): LBC's member order and listener merge, one
 * value per exclusive setting, and the conflicting member left out (naming the setting and the
 * earlier member) while the rest are served.
 */
import { describe, expect, it } from 'vitest';
import {
  groupNameOf,
  groupOrderOf,
  finalizerGroups,
  touchedGroups,
} from '../../lib/karmada/ingress-group.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { stackId, type StackRef } from '../../lib/provider/stack-id.js';
import type { IngressMember } from '../../lib/providers/aws/model/ingress.js';
import { buildIngressGroupStack } from '../../lib/providers/aws/model/ingress-group.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const ALB = 'alb.ingress.kubernetes.io/';
const CERT_A = 'arn:aws:acm:eu-west-1:123456789012:certificate/aaaa';
const CERT_B = 'arn:aws:acm:eu-west-1:123456789012:certificate/bbbb';
const ref: StackRef = {
  kind: 'mci-group',
  namespace: 'default',
  name: 'shop',
  stackId: stackId('mci-group', 'default', 'shop'),
};

function member(
  name: string,
  annotations: Record<string, string>,
  paths: Array<[string, 'Prefix' | 'Exact' | 'ImplementationSpecific']>,
  extra: Partial<MultiClusterIngress['spec']> = {},
): IngressMember {
  return {
    mci: minimalIngress({
      metadata: { name, namespace: 'default', annotations: { [`${ALB}group.name`]: 'shop', ...annotations } },
      spec: { rules: [{ http: { paths: paths.map(([p, t]) => path(p, t, 'serve', 80)) } }], ...extra },
    }),
    services: [service('serve')],
    endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })],
  };
}

function build(...members: IngressMember[]) {
  return buildIngressGroupStack({ ref, group: 'shop', members, config });
}

/** `<port> <priority> <paths>` of every rule, in stack order. */
function rules(stack: Stack | undefined): string[] {
  if (!stack) return [];
  const listeners = new Map(resourcesOf(stack, ResourceTypes.Listener).map((l) => [l.id, l.spec.port]));
  return resourcesOf(stack, ResourceTypes.ListenerRule).map((r) => {
    const paths = r.spec.conditions.find((c) => c.field === 'path-pattern')?.values ?? [];
    return `${listeners.get(r.spec.listener.$ref)} ${r.spec.priority} ${paths.join(' ')}`;
  });
}

function loadBalancer(stack: Stack | undefined) {
  return stack && resourcesOf(stack, ResourceTypes.LoadBalancer)[0]?.spec;
}

describe('IngressGroup members', () => {
  it('orders rules by group.order, then namespace/name, then each member’s own path order', () => {
    const model = build(
      member('zeta', { [`${ALB}group.order`]: '-1' }, [['/z', 'Prefix']]),
      member('beta', {}, [
        ['/b', 'Prefix'],
        ['/b/exact', 'Exact'],
      ]),
      member('alpha', {}, [['/a', 'Prefix']]),
      member('last', { [`${ALB}group.order`]: '1000' }, [['/l', 'Prefix']]),
    );
    expect(model.served).toEqual(['default/zeta', 'default/alpha', 'default/beta', 'default/last']);
    expect(rules(model.stack)).toEqual([
      '80 1 /z /z/*',
      '80 2 /a /a/*',
      '80 3 /b/exact',
      '80 4 /b /b/*',
      '80 5 /l /l/*',
    ]);
    expect(model.stack?.id).toBe('mci-group/default/shop');
    expect(model.excluded.size).toBe(0);
  });

  it('merges listen-ports: each member’s rules go on its own listeners only, certificates are merged', () => {
    const model = build(
      member('http', {}, [['/h', 'Prefix']]),
      member('tls', { [`${ALB}listen-ports`]: '[{"HTTPS": 443}]', [`${ALB}certificate-arn`]: CERT_B }, [
        ['/t', 'Prefix'],
      ]),
      member(
        'both',
        {
          [`${ALB}listen-ports`]: '[{"HTTP": 80}, {"HTTPS": 443}]',
          [`${ALB}certificate-arn`]: `${CERT_A},${CERT_B}`,
          [`${ALB}group.order`]: '5',
        },
        [['/x', 'Prefix']],
      ),
    );
    const stack = model.stack!;
    const listeners = resourcesOf(stack, ResourceTypes.Listener).map((l) => ({
      port: l.spec.port,
      protocol: l.spec.protocol,
      certificates: l.spec.certificates,
    }));
    expect(listeners).toEqual([
      { port: 80, protocol: 'HTTP', certificates: undefined },
      // The first member (in group order) with certificates gives the default one.
      { port: 443, protocol: 'HTTPS', certificates: [CERT_B, CERT_A] },
    ]);
    expect(rules(stack)).toEqual(['80 1 /h /h/*', '80 2 /x /x/*', '443 1 /t /t/*', '443 2 /x /x/*']);
  });

  it('ssl-redirect set by one member redirects every HTTP listener of the group, which then carries no rules', () => {
    const model = build(
      member('plain', {}, [['/p', 'Prefix']]),
      member(
        'secure',
        {
          [`${ALB}listen-ports`]: '[{"HTTP": 80}, {"HTTPS": 443}]',
          [`${ALB}certificate-arn`]: CERT_A,
          [`${ALB}ssl-redirect`]: '443',
        },
        [['/s', 'Prefix']],
      ),
    );
    const http = resourcesOf(model.stack!, ResourceTypes.Listener).find((l) => l.spec.port === 80);
    expect(http?.spec.defaultActions).toEqual([
      { type: 'redirect', redirect: { protocol: 'HTTPS', port: '443', statusCode: 'HTTP_301' } },
    ]);
    expect(rules(model.stack)).toEqual(['443 1 /s /s/*']);
    expect(model.served).toEqual(['default/plain', 'default/secure']);
  });

  it('leaves out the later member whose exclusive setting disagrees, naming the setting and the earlier member', () => {
    const model = build(
      member('first', { [`${ALB}scheme`]: 'internet-facing' }, [['/f', 'Prefix']]),
      member('unset', {}, [['/u', 'Prefix']]),
      member('other', { [`${ALB}scheme`]: 'internal' }, [['/o', 'Prefix']]),
      member('same', { [`${ALB}scheme`]: 'internet-facing' }, [['/s', 'Prefix']]),
    );
    expect(model.served).toEqual(['default/first', 'default/same', 'default/unset']);
    expect(loadBalancer(model.stack)?.scheme).toBe('internet-facing');
    const err = model.excluded.get('default/other');
    expect(err?.reason).toBe('IngressGroupConflict');
    expect(err?.field).toBe(`${ALB}scheme`);
    expect(err?.message).toContain('"internal"');
    expect(err?.message).toContain('default/first');
    expect(err?.message).toContain('"internet-facing"');
    expect(rules(model.stack)).toEqual(['80 1 /f /f/*', '80 2 /s /s/*', '80 3 /u /u/*']);
  });

  it('the earliest member wins whatever order the members are given in; lists agree however they are spaced', () => {
    const a = member('a', { [`${ALB}subnets`]: 'subnet-11111111, subnet-22222222' }, [['/a', 'Prefix']]);
    const b = member('b', { [`${ALB}subnets`]: 'subnet-11111111,subnet-22222222' }, [['/b', 'Prefix']]);
    const c = member('c', { [`${ALB}subnets`]: 'subnet-33333333', [`${ALB}group.order`]: '-3' }, [
      ['/c', 'Prefix'],
    ]);
    for (const order of [
      [a, b, c],
      [c, b, a],
    ]) {
      const model = build(...order);
      expect(model.served).toEqual(['default/c']);
      expect([...model.excluded.keys()].sort()).toEqual(['default/a', 'default/b']);
      expect(loadBalancer(model.stack)?.subnets).toEqual(['subnet-33333333']);
    }
    expect(build(a, b).served).toEqual(['default/a', 'default/b']);
  });

  it('refuses a port with two protocols, a tag with two values and a second default backend', () => {
    const backend = { defaultBackend: { service: { name: 'serve', port: { number: 80 } } } };
    const model = build(
      member('base', { [`${ALB}tags`]: 'team=shop' }, [['/a', 'Prefix']], backend),
      member('https80', { [`${ALB}listen-ports`]: '[{"HTTPS": 80}]', [`${ALB}certificate-arn`]: CERT_A }, [
        ['/b', 'Prefix'],
      ]),
      member('tag', { [`${ALB}tags`]: 'team=other' }, [['/c', 'Prefix']]),
      member('default2', {}, [['/d', 'Prefix']], backend),
    );
    expect(model.served).toEqual(['default/base']);
    expect(model.excluded.get('default/https80')?.field).toBe(`${ALB}listen-ports`);
    expect(model.excluded.get('default/tag')?.field).toBe(`${ALB}tags`);
    expect(model.excluded.get('default/default2')?.field).toBe('spec.defaultBackend');
  });

  it('a member whose own spec builds no model is left out with its own error; none served builds no stack', () => {
    const broken = member('broken', {}, [['/x', 'Prefix']]);
    broken.services = [];
    const model = build(broken, member('ok', {}, [['/ok', 'Prefix']]));
    expect(model.served).toEqual(['default/ok']);
    expect(model.excluded.get('default/broken')?.reason).toBe('ServiceNotFound');
    expect(build(broken).stack).toBeUndefined();
    const badOrder = build(member('o', { [`${ALB}group.order`]: '1001' }, [['/o', 'Prefix']]));
    expect(badOrder.excluded.get('default/o')?.field).toBe(`${ALB}group.order`);
  });

  it('target groups and rule IDs name the member: two members may route the same path to the same Service', () => {
    const model = build(member('one', {}, [['/same', 'Prefix']]), member('two', {}, [['/same', 'Prefix']]));
    const stack = model.stack!;
    expect(resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.id)).toEqual([
      'default/one-serve:80',
      'default/two-serve:80',
    ]);
    const [one, two] = resourcesOf(stack, ResourceTypes.TargetGroup).map((t) => t.spec.name);
    expect(one).not.toBe(two);
    expect(resourcesOf(stack, ResourceTypes.ListenerRule).map((r) => r.id)).toEqual([
      '80:default/one/*:Prefix:/same',
      '80:default/two/*:Prefix:/same',
    ]);
  });
});

describe('group.name and group.order (LBC validation)', () => {
  const withAnnotations = (annotations: Record<string, string>, finalizers: string[] = []) =>
    minimalIngress({ metadata: { name: 'x', namespace: 'default', annotations, finalizers } });

  it('accepts LBC’s names and rejects the rest', () => {
    expect(groupNameOf(withAnnotations({ [`${ALB}group.name`]: 'my-group.v2' }))).toBe('my-group.v2');
    expect(groupNameOf(withAnnotations({}))).toBeUndefined();
    for (const bad of ['My-Group', '-lead', 'trail.', 'a_b', 'x'.repeat(64)])
      expect(() => groupNameOf(withAnnotations({ [`${ALB}group.name`]: bad }))).toThrow(/group\.name/);
    expect(groupNameOf(withAnnotations({ [`${ALB}group.name`]: 'x'.repeat(63) }))).toHaveLength(63);
  });

  it('group.order is an integer in -1000..1000, 0 by default', () => {
    expect(groupOrderOf(withAnnotations({}))).toBe(0);
    expect(groupOrderOf(withAnnotations({ [`${ALB}group.order`]: '-1000' }))).toBe(-1000);
    expect(groupOrderOf(withAnnotations({ [`${ALB}group.order`]: '1000' }))).toBe(1000);
    for (const bad of ['1001', '-1001', '1.5', 'ten', ''])
      expect(() => groupOrderOf(withAnnotations({ [`${ALB}group.order`]: bad }))).toThrow(/group\.order/);
  });

  it('an MCI touches the group it names and every group whose finalizer it still carries', () => {
    const mci = withAnnotations({ [`${ALB}group.name`]: 'new' }, [
      'karmada.io/multi-cluster-ingress-controller',
      'group.multicluster.karmada.io/old',
    ]);
    expect(finalizerGroups(mci)).toEqual(['old']);
    expect(touchedGroups(mci)).toEqual(['new', 'old']);
  });
});
