import { describe, expect, it } from 'vitest';
import { coalesce, moreSignificant } from '../../lib/forwarder/merge.js';
import { note } from './forwarder-fixtures.js';

describe('Function: coalesce', () => {
  it.each([
    ['deleted', 'added', 'deleted'],
    ['added', 'deleted', 'deleted'],
    ['added', 'modified', 'added'],
    ['modified', 'added', 'added'],
    ['modified', 'resync', 'modified'],
    ['resync', 'modified', 'modified'],
    ['resync', 'resync', 'resync'],
  ] as const)('%s then %s is %s', (a, b, want) => {
    expect(moreSignificant(a, b)).toBe(want);
    expect(coalesce(note(a, 'x', 1), note(b, 'x', 2)).change).toBe(want);
  });

  it('keeps the latest object, the earliest oldObject, the earliest and the latest observation time', () => {
    // Prepare
    const first = note('modified', 'x', 2, 1, new Date('2026-01-01T00:00:01Z'));
    const second = note('modified', 'x', 3, 2, new Date('2026-01-01T00:00:02Z'));
    const third = note('modified', 'x', 4, 3, new Date('2026-01-01T00:00:03Z'));
    // Act
    const merged = coalesce(coalesce(first, second), third);
    // Assess
    expect(merged.object?.metadata.resourceVersion).toBe('4');
    expect(merged.oldObject?.metadata.resourceVersion).toBe('1');
    expect(merged.ref.resourceVersion).toBe('4');
    expect(merged.observedAt).toBe('2026-01-01T00:00:01.000Z');
    expect(merged.lastObservedAt).toBe('2026-01-01T00:00:03.000Z');
    // A change of unknown time: nothing is known to have seen all of them.
    const { observedAt: _unknown, ...timeless } = note('modified', 'x', 5, 4);
    expect(coalesce(merged, timeless).lastObservedAt).toBeUndefined();
  });

  it('an addition followed by changes has no oldObject (the object did not exist before the burst)', () => {
    const merged = coalesce(note('added', 'x', 1), note('modified', 'x', 2, 1));
    expect(merged.change).toBe('added');
    expect(merged.oldObject).toBeUndefined();
    expect(merged.object?.metadata.resourceVersion).toBe('2');
  });
});
