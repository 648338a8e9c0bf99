/** MultiClusterService → NLB stack (pure), the fingerprint, and names read back from a status hostname. */
import { describe, expect, it } from 'vitest';
import type { MultiClusterService } from '../../lib/karmada/types.js';
import { stackFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { buildServiceStack, providerClusters } from '../../lib/providers/aws/model/service.js';
import { loadBalancerNameFromHostname } from '../../lib/providers/aws/naming.js';
import { targetsFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { resourcesOf, ResourceTypes } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, service } from '../fixtures/aws/objects.js';

const mcs = (spec: Partial<MultiClusterService['spec']> = {}): MultiClusterService => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name: 'serve', namespace: 'default' },
  spec: { types: ['LoadBalancer'], ...spec },
});

const input = (m: MultiClusterService) => ({
  mcs: m,
  service: service('serve', [
    { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
    { name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' },
  ]),
  endpointSlices: [
    collectedSlice('member1', 'serve', {
      addresses: ['10.0.1.10'],
      ports: [
        { name: 'http', port: 8080 },
        { name: 'dns', port: 5353 },
      ],
    }),
    collectedSlice('member2', 'serve', {
      addresses: ['10.0.2.20'],
      ports: [
        { name: 'http', port: 8080 },
        { name: 'dns', port: 5353 },
      ],
    }),
  ],
  config,
});

describe('Function: buildServiceStack', () => {
  it('one NLB, and per port one listener and one ip target group (named target ports → port 1)', () => {
    const stack = buildServiceStack(input(mcs()));
    expect(stack.id).toBe('mcs/default/serve');
    expect(stack.resources.map((r) => `${r.type.split('::').at(-1) ?? ''} ${r.id}`)).toStrictEqual([
      'LoadBalancer LoadBalancer',
      'TargetGroup default/serve:80',
      'TargetGroup default/serve:53',
      'Listener 80',
      'Listener 53',
    ]);
    const [, http, dns] = stack.resources;
    expect(http?.spec).toMatchObject({
      protocol: 'TCP',
      port: 8080,
      targets: [
        { id: '10.0.1.10', port: 8080 },
        { id: '10.0.2.20', port: 8080 },
      ],
    });
    expect(dns?.spec).toMatchObject({
      protocol: 'UDP',
      port: 1,
      targets: [
        { id: '10.0.1.10', port: 5353 },
        { id: '10.0.2.20', port: 5353 },
      ],
    });
  });

  it('provider clusters: providerClusters, then serviceProvisionClusters, then range.clusterNames', () => {
    expect(providerClusters(mcs())).toBeUndefined();
    expect(providerClusters(mcs({ range: { clusterNames: ['c'] } }))).toStrictEqual(['c']);
    expect(
      providerClusters(mcs({ range: { clusterNames: ['c'] }, serviceProvisionClusters: ['b'] })),
    ).toStrictEqual(['b']);
    expect(
      providerClusters(
        mcs({
          range: { clusterNames: ['c'] },
          serviceProvisionClusters: ['b'],
          providerClusters: [{ name: 'a' }],
        }),
      ),
    ).toStrictEqual(['a']);
    const stack = buildServiceStack(
      input(mcs({ ports: [{ port: 80 }], providerClusters: [{ name: 'member2' }] })),
    );
    expect(stack.resources[1]?.spec).toMatchObject({ targets: [{ id: '10.0.2.20' }] });
  });

  it('the same input always gives the same stack and fingerprint; endpoints change only the targets fingerprint', () => {
    const a = buildServiceStack(input(mcs()));
    expect(buildServiceStack(input(mcs()))).toStrictEqual(a);
    expect(stackFingerprint(buildServiceStack(input(mcs())))).toBe(stackFingerprint(a));
    const moved = input(mcs());
    moved.endpointSlices[1] = collectedSlice('member2', 'serve', {
      addresses: ['10.0.2.21'],
      ports: [{ name: 'http', port: 8080 }],
    });
    // The structure is unchanged (no rediscovery of the stack); the moved group's targets are not.
    expect(stackFingerprint(buildServiceStack(moved))).toBe(stackFingerprint(a));
    const targetsOf = (s: ReturnType<typeof buildServiceStack>) =>
      resourcesOf(s, ResourceTypes.TargetGroup).map((tg) => targetsFingerprint(tg.spec.targets));
    expect(targetsOf(buildServiceStack(moved))).not.toEqual(targetsOf(a));
    expect(stackFingerprint(a)).toMatch(/^v2-[0-9a-f]{40}$/);
  });
});

describe('Function: loadBalancerNameFromHostname', () => {
  it.each([
    [
      'internal-k8s-default-minimali-2d0e9c6f1a-1234567890.us-east-1.elb.amazonaws.com',
      'k8s-default-minimali-2d0e9c6f1a',
    ],
    ['my-edge-1234567890.eu-west-1.elb.amazonaws.com', 'my-edge'],
    ['serve-nlb-0123456789abcdef.elb.us-east-1.amazonaws.com', 'serve-nlb'],
    ['example.com', undefined],
    [undefined, undefined],
  ])('%s → %s', (hostname, name) => {
    expect(loadBalancerNameFromHostname(hostname)).toBe(name);
  });
});
