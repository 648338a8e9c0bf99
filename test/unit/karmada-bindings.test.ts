import { describe, expect, it } from 'vitest';
import {
  bindingClusters,
  bindingName,
  findServiceBinding,
  isServiceBinding,
  serviceOfBinding,
} from '../../lib/karmada/bindings.js';
import { binding, serviceRef } from './reconcile-fixtures.js';

describe('bindingName (names.GenerateBindingName)', () => {
  it.each([
    ['Service', 'serve', 'serve-service'],
    ['ClusterRole', 'system:controller', 'system.controller-clusterrole'],
    ['Deployment', 'Web', 'web-deployment'],
  ])('%s %s → %s', (kind, name, expected) => expect(bindingName(kind, name)).toBe(expected));
});

describe('bindingClusters', () => {
  it.each([
    ['none', binding('a', serviceRef('a')), []],
    ['clusters, sorted', binding('a', serviceRef('a'), ['m2', 'm1']), ['m1', 'm2']],
    [
      '∪ requiredBy, unique',
      binding('a', serviceRef('a'), ['m2'], [['m3', 'm2'], ['m1']]),
      ['m1', 'm2', 'm3'],
    ],
    ['only requiredBy', binding('a', serviceRef('a'), [], [['m1']]), ['m1']],
  ])('%s', (_, binding, expected) => expect(bindingClusters(binding)).toEqual(expected));
  it('undefined → []', () => expect(bindingClusters(undefined)).toEqual([]));
});

describe('isServiceBinding / serviceOfBinding', () => {
  it.each([
    ['v1 Service', serviceRef('serve'), true, 'serve'],
    ['another name', serviceRef('other'), false, 'other'],
    ['Knative Service (upstream bug 7)', serviceRef('serve', 'serving.knative.dev/v1'), false, undefined],
    ['Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'serve' }, false, undefined],
    ['no resource namespace', { apiVersion: 'v1', kind: 'Service', name: 'serve' }, true, 'serve'],
    ['other namespace', { ...serviceRef('serve'), namespace: 'x' }, false, undefined],
  ])('%s', (_, resource, isServe, service) => {
    expect(isServiceBinding(binding('b', resource), 'serve')).toBe(isServe);
    expect(serviceOfBinding(binding('b', resource))?.name).toBe(service);
  });
});

describe('findServiceBinding', () => {
  it('skips other APIs and prefers the generated name', () => {
    const bindings = [
      binding('aaa', serviceRef('serve', 'serving.knative.dev/v1'), ['k']),
      binding('zzz', serviceRef('serve'), ['z']),
      binding('serve-service', serviceRef('serve'), ['s']),
    ];
    expect(findServiceBinding(bindings, 'serve')?.metadata.name).toBe('serve-service');
    expect(findServiceBinding(bindings.slice(0, 2), 'serve')?.metadata.name).toBe('zzz');
    expect(findServiceBinding(bindings.slice(0, 1), 'serve')).toBeUndefined();
  });
});
