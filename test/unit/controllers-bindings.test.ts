import { describe, expect, it } from 'vitest';
import {
  bindingClusters,
  bindingName,
  findServiceBinding,
  isServiceBinding,
  serviceOfBinding,
} from '../../lib/karmada/bindings.js';
import type { ResourceBinding } from '../../lib/karmada/types.js';
import { serviceFromBindingName, serviceLocation } from '../../lib/reconcile/service-locations.js';

const rb = (
  name: string,
  resource: { apiVersion?: string; kind?: string; name?: string; namespace?: string },
  clusters: string[] = [],
  requiredBy: string[][] = [],
): ResourceBinding => ({
  metadata: { name, namespace: 'default' },
  spec: {
    resource,
    clusters: clusters.map((c) => ({ name: c })),
    requiredBy: requiredBy.map((cs) => ({ clusters: cs.map((c) => ({ name: c })) })),
  },
});
const svc = (name: string, apiVersion = 'v1') => ({
  apiVersion,
  kind: 'Service',
  name,
  namespace: 'default',
});

describe('bindingName (names.GenerateBindingName)', () => {
  it.each([
    ['Service', 'serve', 'serve-service'],
    ['ClusterRole', 'system:controller', 'system.controller-clusterrole'],
    ['Deployment', 'Web', 'web-deployment'],
  ])('%s %s → %s', (kind, name, expected) => expect(bindingName(kind, name)).toBe(expected));
});

describe('bindingClusters', () => {
  it.each([
    ['none', rb('a', svc('a')), []],
    ['clusters, sorted', rb('a', svc('a'), ['m2', 'm1']), ['m1', 'm2']],
    ['∪ requiredBy, unique', rb('a', svc('a'), ['m2'], [['m3', 'm2'], ['m1']]), ['m1', 'm2', 'm3']],
    ['only requiredBy', rb('a', svc('a'), [], [['m1']]), ['m1']],
  ])('%s', (_, binding, expected) => expect(bindingClusters(binding)).toEqual(expected));
  it('undefined → []', () => expect(bindingClusters(undefined)).toEqual([]));
});

describe('isServiceBinding / serviceOfBinding', () => {
  it.each([
    ['v1 Service', svc('serve'), true, 'serve'],
    ['another name', svc('other'), false, 'other'],
    ['Knative Service (upstream bug 7)', svc('serve', 'serving.knative.dev/v1'), false, undefined],
    ['Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'serve' }, false, undefined],
    ['no resource namespace', { apiVersion: 'v1', kind: 'Service', name: 'serve' }, true, 'serve'],
    ['other namespace', { ...svc('serve'), namespace: 'x' }, false, undefined],
  ])('%s', (_, resource, isServe, service) => {
    expect(isServiceBinding(rb('b', resource), 'serve')).toBe(isServe);
    expect(serviceOfBinding(rb('b', resource))?.name).toBe(service);
  });
});

describe('findServiceBinding', () => {
  it('skips other APIs and prefers the generated name', () => {
    const bindings = [
      rb('aaa', svc('serve', 'serving.knative.dev/v1'), ['k']),
      rb('zzz', svc('serve'), ['z']),
      rb('serve-service', svc('serve'), ['s']),
    ];
    expect(findServiceBinding(bindings, 'serve')?.metadata.name).toBe('serve-service');
    expect(findServiceBinding(bindings.slice(0, 2), 'serve')?.metadata.name).toBe('zzz');
    expect(findServiceBinding(bindings.slice(0, 1), 'serve')).toBeUndefined();
  });
});

describe('serviceFromBindingName', () => {
  it.each([
    ['serve-service', 'serve'],
    ['my-api-service', 'my-api'],
    ['-service', undefined],
    ['serve-deployment', undefined],
  ])('%s → %s', (name, expected) => expect(serviceFromBindingName(name)).toBe(expected));
});

describe('serviceLocation', () => {
  it.each([
    ['with clusters', rb('x', svc('x'), ['b', 'a']), { name: 'x', clusters: ['a', 'b'] }],
    ['no clusters: field omitted, as Go omitempty writes it', rb('x', svc('x')), { name: 'x' }],
  ])('%s', (_, binding, expected) => expect(serviceLocation('x', binding)).toEqual(expected));
});
