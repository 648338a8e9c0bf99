import { describe, expect, it } from 'vitest';
import { TargetCache, type CachedStack } from '../../lib/providers/aws/deploy/target-cache.js';

const entry = (fingerprint: string, arn = 'arn:tg'): CachedStack => ({
  fingerprint,
  loadBalancer: { arn: 'arn:lb', dnsName: 'lb.example' },
  records: {},
  groups: { g: { arn, registered: [{ Id: '10.0.0.1', Port: 80 }] } },
});

describe('Class: TargetCache', () => {
  it('returns an entry only for the structure it was set for, and forgets it otherwise', () => {
    const cache = new TargetCache();
    cache.set('s', entry('f1'));
    expect(cache.get('s', 'f1')?.groups.g?.arn).toBe('arn:tg');
    expect(cache.get('s', 'f2')).toBeUndefined();
    // A mismatch drops it: the old structure's memory is no use any more.
    expect(cache.get('s', 'f1')).toBeUndefined();
  });

  it('lets an entry live ttlMs and no longer (LBC keeps its target cache 5 minutes)', () => {
    let now = 0;
    const cache = new TargetCache({ ttlMs: 1000, now: () => now });
    cache.set('s', entry('f'));
    now = 1000;
    expect(cache.get('s', 'f')).toBeDefined();
    now = 1001;
    expect(cache.get('s', 'f')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most maxEntries stacks, the least recently used going first', () => {
    const cache = new TargetCache({ maxEntries: 2 });
    cache.set('a', entry('f'));
    cache.set('b', entry('f'));
    expect(cache.get('a', 'f')).toBeDefined(); // a is now the most recently used
    cache.set('c', entry('f'));
    expect(cache.size).toBe(2);
    expect(cache.get('b', 'f')).toBeUndefined();
    expect(cache.get('a', 'f')).toBeDefined();
    expect(cache.get('c', 'f')).toBeDefined();
    cache.forget('a');
    expect(cache.get('a', 'f')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
