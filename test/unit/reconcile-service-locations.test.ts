import { describe, expect, it } from 'vitest';
import { serviceLocation } from '../../lib/reconcile/service-locations.js';
import { serviceFromBindingName } from '../../lib/reconcile/service-locations-triggers.js';
import { binding, serviceRef } from './reconcile-fixtures.js';

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
    ['with clusters', binding('x', serviceRef('x'), ['b', 'a']), { name: 'x', clusters: ['a', 'b'] }],
    ['no clusters: field omitted, as Go omitempty writes it', binding('x', serviceRef('x')), { name: 'x' }],
  ])('%s', (_, binding, expected) => expect(serviceLocation('x', binding)).toEqual(expected));
});
