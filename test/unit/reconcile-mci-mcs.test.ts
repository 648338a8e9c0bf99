/**
 * The pure parts of the two load-balancer controllers: how a load balancer status is described
 * in Events and conditions (lib/reconcile/mci.ts) and which MultiClusterServices want one
 * (lib/reconcile/mcs.ts).
 */
import { describe, expect, it } from 'vitest';
import type { MultiClusterService } from '../../lib/karmada/types.js';
import { describeIngress } from '../../lib/reconcile/mci.js';
import { wantsLoadBalancer } from '../../lib/reconcile/filters.js';

describe('describeIngress', () => {
  it.each<[string, Parameters<typeof describeIngress>[0], string]>([
    ['no status', undefined, 'no address yet'],
    ['no ingress list', {}, 'no address yet'],
    ['an empty list', { ingress: [] }, 'no address yet'],
    ['entries without an address', { ingress: [{}, {}] }, 'no address yet'],
    ['one IP', { ingress: [{ ip: '1.2.3.4' }] }, '1.2.3.4'],
    [
      'a hostname before the IP of the same entry',
      { ingress: [{ ip: '1.2.3.4', hostname: 'lb.example' }] },
      'lb.example',
    ],
    [
      'several, in order, the empty ones left out',
      { ingress: [{ hostname: 'a.example' }, {}, { ip: '5.6.7.8' }] },
      'a.example, 5.6.7.8',
    ],
  ])('%s → %j', (_name, status, text) => {
    expect(describeIngress(status)).toBe(text);
  });
});

describe('wantsLoadBalancer', () => {
  const mcs = (spec: unknown) => ({ metadata: { name: 'm' }, spec }) as MultiClusterService;
  it.each<[string, unknown, boolean]>([
    ['LoadBalancer', { types: ['LoadBalancer'] }, true],
    ['LoadBalancer among others', { types: ['CrossCluster', 'LoadBalancer'] }, true],
    ['CrossCluster only', { types: ['CrossCluster'] }, false],
    ['no types', {}, false],
    ['types not a list', { types: 'LoadBalancer' }, false],
    ['no spec', undefined, false],
  ])('%s → %s', (_name, spec, wanted) => {
    expect(wantsLoadBalancer(mcs(spec))).toBe(wanted);
  });
});
