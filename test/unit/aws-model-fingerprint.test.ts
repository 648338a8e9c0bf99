/**
 * The fingerprints recorded on load balancers must stay what they are for a given input: a record
 * written by this version is compared by the next one. A stack fingerprint changes only with a
 * version bump (its `v<n>-` prefix); a targets fingerprint has no version, so its value is pinned.
 */
import { describe, expect, it } from 'vitest';
import { stackFingerprint, targetsFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';

describe('Function: targetsFingerprint', () => {
  it('is stable: the value recorded for a given list never changes', () => {
    expect(
      targetsFingerprint([
        { id: '172.16.0.1', port: 8080, availabilityZone: 'all' },
        { id: '10.0.0.1', port: 80 },
      ]),
    ).toBe('d9758e2181a43e0c4385f088a1ece9c4');
  });
});

describe('Function: stackFingerprint', () => {
  const stack = (targets: Array<{ id: string; port: number }>): Stack =>
    ({
      id: 'mcs/default/serve',
      ownerId: 'o',
      resources: [
        { id: 'LoadBalancer', type: ResourceTypes.LoadBalancer, spec: { name: 'lb', tags: {} } },
        { id: 'tg', type: ResourceTypes.TargetGroup, spec: { name: 'tg', port: 80, targets } },
        { id: '80', type: ResourceTypes.Listener, spec: { port: 80 } },
      ],
    }) as unknown as Stack;

  it('leaves the targets out', () => {
    expect(stackFingerprint(stack([{ id: '10.0.0.1', port: 80 }]))).toBe(stackFingerprint(stack([])));
  });

  it('changes with the structure', () => {
    const other = stack([]);
    (other.resources[1]?.spec as { port: number }).port = 81;
    expect(stackFingerprint(other)).not.toBe(stackFingerprint(stack([])));
  });
});
