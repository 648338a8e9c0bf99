import { describe, expect, it } from 'vitest';
import { makeNotification, refOf, sanitize } from '../../lib/forwarder/notify.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';

const SECRET_VALUE = 'c3VwZXItc2VjcmV0LXZhbHVl';

function secret(): KubeObject {
  return {
    metadata: {
      name: 'tls',
      namespace: 'default',
      uid: 'u1',
      resourceVersion: '7',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"tls.key":"${SECRET_VALUE}"}}`,
        keep: 'me',
      },
      managedFields: [{ manager: 'kubectl' }],
    } as KubeObject['metadata'],
    data: { 'tls.key': SECRET_VALUE },
    stringData: { password: 'hunter2' },
    type: 'kubernetes.io/tls',
    immutable: true,
  } as KubeObject;
}

describe('Function: sanitize', () => {
  it('keeps only metadata and type of a Secret (no data, stringData or last-applied annotation)', () => {
    // Act
    const out = sanitize(Resources.Secret, secret());
    // Assess
    const text = JSON.stringify(out);
    expect(text).not.toContain(SECRET_VALUE);
    expect(text).not.toContain('hunter2');
    expect(out).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'tls',
        namespace: 'default',
        uid: 'u1',
        resourceVersion: '7',
        annotations: { keep: 'me' },
      },
      type: 'kubernetes.io/tls',
    });
  });

  it('turns a PartialObjectMetadata back into the watched kind', () => {
    const partial = {
      apiVersion: 'meta.k8s.io/v1',
      kind: 'PartialObjectMetadata',
      metadata: { name: 's', namespace: 'n' },
    };
    expect(sanitize(Resources.Secret, partial)).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
  });

  it('keeps spec/status of other kinds but drops managedFields, and sets apiVersion/kind of list items', () => {
    const item = {
      metadata: { name: 'a', managedFields: [{}] },
      spec: { ports: [] },
      status: {},
    } as unknown as KubeObject;
    expect(sanitize(Resources.Service, item)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'a' },
      spec: { ports: [] },
      status: {},
    });
  });
});

describe('Function: makeNotification', () => {
  it('builds the wire format with a ref naming the object version', () => {
    const obj = sanitize(Resources.MultiClusterIngress, {
      metadata: { name: 'web', namespace: 'shop', uid: 'u', resourceVersion: '3' },
    });
    const n = makeNotification(
      'added',
      Resources.MultiClusterIngress,
      obj,
      undefined,
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(n).toEqual({
      apiVersion: 'notifications.multicluster.karmada.io/v1',
      kind: 'ChangeNotification',
      change: 'added',
      ref: {
        apiVersion: 'networking.karmada.io/v1alpha1',
        kind: 'MultiClusterIngress',
        namespace: 'shop',
        name: 'web',
        uid: 'u',
        resourceVersion: '3',
      },
      object: obj,
      observedAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('has no namespace in the ref of a cluster-scoped object', () => {
    expect(refOf(Resources.Cluster, { metadata: { name: 'member1', namespace: 'ignored' } })).toEqual({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      name: 'member1',
    });
  });
});
