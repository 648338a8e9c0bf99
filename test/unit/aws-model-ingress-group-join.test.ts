/**
 * Join time in the IngressGroup model (model/ingress-group.ts): the join record's members are
 * admitted first and keep their places, a newcomer's group.order orders it among newcomers and
 * its namespace's places only, a member that changed is admitted after those that did not, a
 * route overlapping another namespace's is refused (model/route-overlap.ts), and the admission
 * check (the tenant policy's seam) leaves out the member that breaks it, not an earlier one.
 */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import { stackId, type StackRef } from '../../lib/provider/stack-id.js';
import type { IngressMember } from '../../lib/providers/aws/model/ingress.js';
import {
  admitIngressGroupStack,
  buildIngressGroupStack,
  memberFingerprint,
  type AdmissionRequest,
  type JoinedMember,
} from '../../lib/providers/aws/model/ingress-group.js';
import { patternsOverlap, routeMatch, routesOverlap } from '../../lib/providers/aws/model/route-overlap.js';
import { DEFAULT_QUOTAS } from '../../lib/providers/aws/model/limits.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const ALB = 'alb.ingress.kubernetes.io/';
const ref: StackRef = {
  kind: 'mci-group',
  namespace: '_shared',
  name: 'shop',
  stackId: stackId('mci-group', '_shared', 'shop'),
};

function member(
  key: string,
  annotations: Record<string, string>,
  paths: string[],
  host?: string,
  uid = `uid-${key}`,
): IngressMember {
  const [namespace, name] = key.split('/') as [string, string];
  const svc = service('serve');
  return {
    mci: minimalIngress({
      metadata: { name, namespace, uid, annotations: { [`${ALB}group.name`]: 'shop', ...annotations } },
      spec: {
        rules: [
          { ...(host ? { host } : {}), http: { paths: paths.map((p) => path(p, 'Prefix', 'serve', 80)) } },
        ],
      },
    }),
    services: [{ ...svc, metadata: { ...svc.metadata, namespace } }],
    endpointSlices: [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'], namespace })],
  };
}

/** The join record a deploy of these members, in this order, leaves. */
function record(...members: IngressMember[]): JoinedMember[] {
  return members.map((m) => ({
    key: `${m.mci.metadata.namespace}/${m.mci.metadata.name}`,
    uid: m.mci.metadata.uid!,
    fingerprint: memberFingerprint(m.mci),
  }));
}

function build(members: IngressMember[], joined?: JoinedMember[]) {
  return buildIngressGroupStack({ ref, group: 'shop', members, config, ...(joined ? { joined } : {}) });
}

/** `<priority> <first path>` of each rule. */
function rules(stack: Stack | undefined): string[] {
  return resourcesOf(stack ?? { id: '', ownerId: '', resources: [] }, ResourceTypes.ListenerRule).map(
    (r) => `${r.spec.priority} ${r.spec.conditions.find((c) => c.field === 'path-pattern')?.values[0]}`,
  );
}

function scheme(stack: Stack | undefined) {
  return stack && resourcesOf(stack, ResourceTypes.LoadBalancer)[0]?.spec.scheme;
}

describe('join time decides, not group.order', () => {
  const strict = member('strict/s', {}, ['/s']);
  const newcomer = member('open/n', { [`${ALB}group.order`]: '-1000' }, ['/n']);

  it('without a record every member is a newcomer: LBC’s order', () => {
    const model = build([strict, newcomer]);
    expect(model.served).toEqual(['open/n', 'strict/s']);
    expect(model.joined.map((j) => j.key)).toEqual(['open/n', 'strict/s']);
    expect(model.joinedChanged).toBe(true);
  });

  it('a newcomer goes after every member already served, whatever its group.order', () => {
    const model = build([newcomer, strict], record(strict));
    expect(model.served).toEqual(['strict/s', 'open/n']);
    expect(rules(model.stack)).toEqual(['1 /s', '2 /n']);
    expect(model.joined).toEqual(record(strict, newcomer));
    // Deployed once, the order stays: nothing to write.
    const again = build([newcomer, strict], model.joined);
    expect(again.served).toEqual(['strict/s', 'open/n']);
    expect(again.joinedChanged).toBe(false);
  });

  it('consecutive members of one namespace go by group.order; none goes ahead of another namespace’s earlier member', () => {
    const a1 = member('team-a/a1', {}, ['/a1']);
    const a2 = member('team-a/a2', { [`${ALB}group.order`]: '-5' }, ['/a2']);
    const b1 = member('team-b/b1', {}, ['/b1']);
    const a3 = member('team-a/a3', { [`${ALB}group.order`]: '-9' }, ['/a3']);
    const b2 = member('team-b/b2', { [`${ALB}group.order`]: '-9' }, ['/b2']);
    // Joined a1, a2, b1, a3: team-a's first two go by group.order; a3 stays after b1; b2 is new.
    const model = build([a1, b1, a2, a3, b2], record(a1, a2, b1, a3));
    expect(model.served).toEqual(['team-a/a2', 'team-a/a1', 'team-b/b1', 'team-a/a3', 'team-b/b2']);
    expect(model.joined.map((j) => j.key)).toEqual([
      'team-a/a1',
      'team-a/a2',
      'team-b/b1',
      'team-a/a3',
      'team-b/b2',
    ]);
    // b1 leaves: team-a's members are one run again, in group.order.
    expect(build([a1, a2, a3, b2], model.joined).served).toEqual([
      'team-a/a3',
      'team-a/a2',
      'team-a/a1',
      'team-b/b2',
    ]);
  });

  it('the same name with another UID is a newcomer', () => {
    const recreated = member('strict/s', {}, ['/s'], undefined, 'uid-other');
    const model = build([newcomer, recreated], record(strict));
    expect(model.served).toEqual(['open/n', 'strict/s']);
  });

  it('a member that changed is admitted after those that did not: it is the one left out', () => {
    const a = member('team-a/a', { [`${ALB}scheme`]: 'internal' }, ['/a']);
    const b = member('team-b/b', {}, ['/b']);
    const bPublic = member('team-b/b', { [`${ALB}scheme`]: 'internet-facing' }, ['/b']);
    // b joined first, then a; b now asks for internet-facing, which a (unchanged) disagrees with.
    const model = build([a, bPublic], record(b, a));
    expect(model.served).toEqual(['team-a/a']);
    expect(scheme(model.stack)).toBe('internal');
    const err = model.excluded.get('team-b/b');
    expect(err?.reason).toBe('IngressGroupConflict');
    expect(err?.message).toContain('a member of another namespace');
    expect(err?.message).not.toContain('team-a');
    expect(model.joined.map((j) => j.key)).toEqual(['team-a/a']);
    // Unchanged, b keeps its first place.
    expect(build([a, b], record(b, a)).served).toEqual(['team-b/b', 'team-a/a']);
  });
});

describe('the accelerator in front is the group’s', () => {
  it('members that set a Global Accelerator key must agree: the later one is left out', () => {
    const GA = 'multicluster.karmada.io/global-accelerator';
    const off = member('team-a/a', { [GA]: 'false' }, ['/a']);
    const on = member('team-b/b', { [GA]: 'true', [`${ALB}group.order`]: '-1000' }, ['/b']);
    const model = build([on, off], record(off));
    expect(model.served).toEqual(['team-a/a']);
    expect(model.excluded.get('team-b/b')).toMatchObject({ reason: 'IngressGroupConflict', field: GA });
  });
});

describe('routes of other namespaces', () => {
  it('refuses the later member whose host and path overlap another namespace’s; one namespace may repeat itself', () => {
    const first = member('team-a/a', {}, ['/api'], 'shop.example.com');
    const clash = member(
      'team-b/b',
      { [`${ALB}group.order`]: '-10' },
      ['/other', '/api/v1'],
      'shop.example.com',
    );
    const otherHost = member('team-c/c', {}, ['/api'], 'blog.example.com');
    const sameNamespace = member('team-a/a2', {}, ['/api'], 'shop.example.com');
    const model = build([first, clash, otherHost, sameNamespace], record(first));
    expect(model.served.sort()).toEqual(['team-a/a', 'team-a/a2', 'team-c/c']);
    const err = model.excluded.get('team-b/b');
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect(err?.reason).toBe('IngressGroupRouteTaken');
    expect(err?.field).toBe('spec.rules[0].http.paths[1]');
    expect(err?.message).toContain('host "shop.example.com" and path "/api/v1" or "/api/v1/*"');
    expect(err?.message).not.toContain('team-a');
  });

  it('a route without a host overlaps every host; members on other listeners do not collide', () => {
    const catchAll = member('team-a/a', {}, ['/']);
    const later = member('team-b/b', {}, ['/b'], 'shop.example.com');
    expect(build([catchAll, later], record(catchAll)).excluded.get('team-b/b')?.reason).toBe(
      'IngressGroupRouteTaken',
    );
    const elsewhere = member(
      'team-b/b',
      { [`${ALB}listen-ports`]: '[{"HTTP": 8080}]' },
      ['/b'],
      'shop.example.com',
    );
    expect(build([catchAll, elsewhere], record(catchAll)).served).toEqual(['team-a/a', 'team-b/b']);
  });

  it('compares ELBv2 patterns: * and ? wildcards, hosts in any case, regular expressions as every value', () => {
    expect(patternsOverlap('/api/*', '/api/v1')).toBe(true);
    expect(patternsOverlap('/api/*', '/apx')).toBe(false);
    expect(patternsOverlap('*.example.com', 'shop.example.*')).toBe(true);
    expect(patternsOverlap('/a?c', '/abc')).toBe(true);
    expect(patternsOverlap('/a?c', '/ac')).toBe(false);
    expect(patternsOverlap('/x*y', '/*z')).toBe(false);
    expect(patternsOverlap('/x*', '*y')).toBe(true);
    const host = (values: string[], regex = false) =>
      routeMatch([
        { field: 'host-header', values, ...(regex ? { regex: true as const } : {}) },
        { field: 'path-pattern', values: ['/p'] },
      ]);
    expect(routesOverlap(host(['Shop.Example.com']), host(['shop.example.COM']))).toBe(true);
    expect(routesOverlap(host(['^shop$'], true), host(['blog.example.com']))).toBe(true);
    expect(routesOverlap(host(['a.example.com']), host(['b.example.com']))).toBe(false);
  });
});

describe('the admission check (the tenant policy’s seam)', () => {
  const strict = member('strict/s', {}, ['/s']);
  const open = member('open/o', { [`${ALB}scheme`]: 'internet-facing', [`${ALB}group.order`]: '-1000' }, [
    '/o',
  ]);
  /** strict's rule: internal only, on the part of the stack that is strict's. */
  const internalForStrict = (asked: AdmissionRequest[]) => async (r: AdmissionRequest) => {
    asked.push(r);
    for (const m of r.members) {
      if (!m.key.startsWith('strict/')) continue;
      const view = m.view(r.stack);
      if (scheme(view) !== 'internal') return new InvalidObjectError('internet-facing is not allowed');
      // Its part holds its own rules only.
      expect(rules(view).every((x) => x.includes('/s'))).toBe(true);
    }
    return undefined;
  };

  it('leaves out the newcomer that would make a served member’s load balancer break its policy', async () => {
    const asked: AdmissionRequest[] = [];
    const model = await admitIngressGroupStack(
      { ref, group: 'shop', members: [open, strict], config, joined: record(strict) },
      internalForStrict(asked),
    );
    expect(model.served).toEqual(['strict/s']);
    expect(scheme(model.stack)).toBe('internal');
    expect(model.excluded.get('open/o')?.message).toBe('internet-facing is not allowed');
    // The whole group first, then one by one in join order.
    expect(asked.map((r) => r.candidate)).toEqual([undefined, 'strict/s', 'open/o']);
    expect(asked[0]?.members.map((m) => m.key)).toEqual(['strict/s', 'open/o']);
  });

  it('a group its members’ policies allow is checked once, as a whole', async () => {
    const asked: AdmissionRequest[] = [];
    const internalOpen = member('open/o', {}, ['/o']);
    const model = await admitIngressGroupStack(
      { ref, group: 'shop', members: [internalOpen, strict], config, joined: record(strict) },
      internalForStrict(asked),
    );
    expect(model.served).toEqual(['strict/s', 'open/o']);
    expect(asked).toHaveLength(1);
    // What the shared load balancer was asked for is each member's annotations.
    expect(asked[0]?.members[1]?.annotations[`${ALB}group.name`]).toBe('shop');
  });

  it('a member that would take the group over an ELBv2 quota is left out, not the group', () => {
    const many = (key: string, n: number) =>
      member(
        key,
        {},
        Array.from({ length: n }, (_, i) => `/${key.replace('/', '-')}-${i}`),
      );
    const first = many('team-a/a', 60);
    const second = many('team-b/b', 50);
    const model = buildIngressGroupStack({
      ref,
      group: 'shop',
      members: [second, first],
      config: { ...config, accountQuotas: DEFAULT_QUOTAS },
      joined: record(first),
    });
    expect(model.served).toEqual(['team-a/a']);
    expect(model.excluded.get('team-b/b')?.reason).toBe('LimitExceeded');
  });
});
