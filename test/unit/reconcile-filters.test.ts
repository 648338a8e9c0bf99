import { describe, expect, it } from 'vitest';
import { changed, changedBy } from '../../lib/reconcile/filters.js';
import { note, obj } from './reconcile-fixtures.js';

describe('changed (upstream update filter)', () => {
  it.each([
    ['added', note('added', obj()), true],
    ['modified without versions', note('modified'), true],
    ['status only', note('modified', obj({ status: { a: 1 } }), obj({ status: { a: 2 } })), false],
    ['labels only', note('modified', obj({}, { labels: { a: 'b' } }), obj()), false],
    ['annotations', note('modified', obj({}, { annotations: { a: 'b' } }), obj()), true],
    ['spec', note('modified', obj({ spec: { a: 1 } }), obj({ spec: { a: 2 } })), true],
    ['deletion started', note('modified', obj({}, { deletionTimestamp: 't' }), obj()), true],
    ['empty vs absent spec list', note('modified', obj({ spec: { l: [] } }), obj({ spec: {} })), false],
  ])('%s → %s', (_, n, expected) => expect(changed(n, ['spec'])).toBe(expected));

  it('changedBy compares only what it picks', () => {
    const n = note('modified', obj({ spec: { a: 1, b: 1 } }), obj({ spec: { a: 1, b: 2 } }));
    expect(changedBy(n, (o) => (o as unknown as { spec: { a: number } }).spec.a)).toBe(false);
  });
});
