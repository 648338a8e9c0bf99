/**
 * The tenant policy's cap on load balancers per namespace counts an IngressGroup's ALB once,
 * however many members share it (tenant-policy.ts, loadBalancersPerNamespace).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../lib/kube/types.js';
import {
  checkTenantPolicy,
  type PolicyReads,
  type TenantPolicy,
} from '../../lib/providers/aws/tenant-policy.js';

const policy: TenantPolicy = { rules: [{ name: 'cap', maxLoadBalancersPerNamespace: 2 }] };
const stack = { id: 'mci-group/team/g', ownerId: 'o', resources: [] };

function mci(name: string, created: string, group?: string): KubeObject {
  return {
    kind: 'MultiClusterIngress',
    metadata: {
      name,
      namespace: 'team',
      creationTimestamp: created,
      ...(group ? { annotations: { 'alb.ingress.kubernetes.io/group.name': group } } : {}),
    },
  };
}

function reads(holders: KubeObject[]): PolicyReads {
  return {
    namespaceLabels: () => Promise.resolve({}),
    loadBalancerHolders: () => Promise.resolve(holders),
    defaultIngressClassName: () => Promise.resolve(undefined),
  };
}

const check = (subject: KubeObject, holders: KubeObject[]) =>
  checkTenantPolicy(
    policy,
    { scheme: 'internal' },
    { kind: 'MultiClusterIngress', metadata: subject.metadata },
    stack,
    reads(holders),
  );

describe('maxLoadBalancersPerNamespace with IngressGroups', () => {
  const g1 = mci('a', '2026-01-01T00:00:01Z', 'g');
  const g2 = mci('b', '2026-01-01T00:00:02Z', 'g');
  const own = mci('c', '2026-01-01T00:00:03Z');
  const other = mci('d', '2026-01-01T00:00:04Z');

  it('many members of one group are one load balancer', async () => {
    // Older: the group (2 members, one ALB) and c: two load balancers, the most allowed.
    await expect(check(mci('e', '2026-01-01T00:00:09Z', 'g'), [g1, g2, own, other])).resolves.toBeUndefined();
    await expect(check(other, [g1, g2, own])).rejects.toThrow(/already has 2 load balancer/);
    await expect(check(own, [g1, g2])).resolves.toBeUndefined();
  });

  it('a new group over the cap is refused like a new load balancer', async () => {
    await expect(check(mci('f', '2026-01-01T00:00:09Z', 'h'), [g1, g2, own])).rejects.toThrow(
      /already has 2 load balancer/,
    );
  });
});
