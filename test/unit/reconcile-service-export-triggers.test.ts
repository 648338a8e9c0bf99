import { describe, expect, it } from 'vitest';
import { mciUpdateServices, symmetricDifference } from '../../lib/reconcile/service-export-triggers.js';
import { mci } from './reconcile-fixtures.js';

describe('serviceexport-propagation: which Services an MCI update touches', () => {
  it.each([
    ['none changed', ['a', 'b'], ['b', 'a'], []],
    ['one replaced', ['a', 'b'], ['a', 'c'], ['b', 'c']],
    ['all removed', ['a'], [], ['a']],
  ])('symmetricDifference: %s', (_, a, b, expected) => expect(symmetricDifference(a, b)).toEqual(expected));

  it.each([
    ['same refs', mci(['a']), mci(['a']), []],
    ['ref added', mci(['a']), mci(['a', 'b']), ['b']],
    ['class changed → all refs', mci(['a']), mci(['a', 'b'], { ingressClassName: 'nginx' }), ['a', 'b']],
    ['deletion started → all refs', mci(['a']), mci(['a'], {}, { deletionTimestamp: 't' }), ['a']],
  ])('mciUpdateServices: %s', (_, old, now, expected) =>
    expect(mciUpdateServices(old, now)).toEqual(expected),
  );
});
