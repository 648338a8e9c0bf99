import { describe, expect, it } from 'vitest';
import { Resources } from '../../lib/kube/resources.js';
import { MemoryKube } from '../support/memory-kube.js';
import { collectedSlice, service } from '../fixtures/aws/objects.js';

describe('Test helper: MemoryKube', () => {
  const kube = new MemoryKube([
    service('serve'),
    collectedSlice('member1', 'serve', { addresses: ['10.0.0.1'] }),
    collectedSlice('member2', 'serve', { addresses: ['10.0.0.2'] }),
    collectedSlice('member1', 'other', { addresses: ['10.0.0.3'] }),
    collectedSlice('member1', 'serve', { addresses: ['10.0.0.4'], namespace: 'elsewhere' }),
  ]);

  it.each([
    { selector: 'kubernetes.io/service-name=derived-serve', ns: 'default', expected: 2 },
    { selector: 'kubernetes.io/service-name==derived-serve', ns: undefined, expected: 3 },
    { selector: 'kubernetes.io/service-name!=derived-serve', ns: 'default', expected: 1 },
    { selector: 'kubernetes.io/service-name in (derived-serve, derived-other)', ns: 'default', expected: 3 },
    { selector: 'kubernetes.io/service-name notin (derived-serve)', ns: undefined, expected: 1 },
    { selector: 'kubernetes.io/service-name,!missing', ns: 'default', expected: 3 },
  ])('lists with "$selector" in $ns', async ({ selector, ns, expected }) => {
    const list = await kube.list(Resources.EndpointSlice, {
      labelSelector: selector,
      ...(ns ? { namespace: ns } : {}),
    });
    expect(list.items).toHaveLength(expected);
  });

  it('gets by namespace and name, undefined when missing, and records calls', async () => {
    expect((await kube.get(Resources.Service, 'default', 'serve'))?.metadata.name).toBe('serve');
    expect(await kube.get(Resources.Service, 'default', 'nope')).toBeUndefined();
    expect(kube.calls.filter((c) => c.verb === 'get')).toHaveLength(2);
  });

  it('merge-patches and deletes', async () => {
    const k = new MemoryKube([service('a')]);
    await k.patch(Resources.Service, 'default', 'a', { metadata: { labels: { x: 'y' } } });
    expect((await k.get(Resources.Service, 'default', 'a'))?.metadata.labels).toStrictEqual({ x: 'y' });
    await k.delete(Resources.Service, 'default', 'a');
    expect(await k.get(Resources.Service, 'default', 'a')).toBeUndefined();
  });
});
