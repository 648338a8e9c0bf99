import { describe, expect, it } from 'vitest';
import { notificationsFromHttp } from '../../lib/notification/http.js';
import {
  MAX_NOTIFICATION_BYTES,
  NotificationError,
  normalizeMany,
  parseNotificationText,
  parseSqsBody,
} from '../../lib/notification/parse.js';

const mci = {
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterIngress',
  metadata: { name: 'minimal-ingress', namespace: 'default', uid: 'u-1', resourceVersion: '42' },
  spec: {},
};

const native = {
  apiVersion: 'notifications.multicluster.karmada.io/v1',
  kind: 'ChangeNotification',
  change: 'modified',
  ref: {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    namespace: 'default',
    name: 'minimal-ingress',
    uid: 'u-1',
    resourceVersion: '42',
  },
  object: mci,
};

const ref = {
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterIngress',
  namespace: 'default',
  name: 'minimal-ingress',
};

describe('Function: normalizeMany', () => {
  it('accepts our own format', () => {
    const [n] = normalizeMany(native);
    expect(n).toMatchObject({ change: 'modified', source: 'native', ref: native.ref });
    expect(n?.object).toEqual(mci);
  });

  it('accepts a forwarder batch', () => {
    const out = normalizeMany({ notifications: [native, { ...native, change: 'resync' }] });
    expect(out.map((n) => n.change)).toEqual(['modified', 'resync']);
  });

  it.each([
    ['dev.knative.apiserver.resource.add', 'added'],
    ['dev.knative.apiserver.resource.update', 'modified'],
    ['dev.knative.apiserver.resource.delete', 'deleted'],
  ])('accepts an ApiServerSource Resource-mode CloudEvent %s', (type, change) => {
    const [n] = normalizeMany({ specversion: '1.0', id: 'x', source: 'https://10.0.0.1', type, data: mci });
    expect(n).toMatchObject({
      change,
      source: 'cloudevent',
      ref: { ...ref, uid: 'u-1', resourceVersion: '42' },
    });
    expect(n?.object).toEqual(mci);
  });

  it.each([
    ['dev.knative.apiserver.ref.add', 'added'],
    ['dev.knative.apiserver.ref.update', 'modified'],
    ['dev.knative.apiserver.ref.delete', 'deleted'],
  ])('accepts an ApiServerSource Reference-mode CloudEvent %s', (type, change) => {
    const [n] = normalizeMany({ specversion: '1.0', id: 'x', source: 's', type, data: ref });
    expect(n).toEqual({ change, ref, source: 'cloudevent' });
  });

  it('accepts CloudEvent data given as a JSON string', () => {
    const [n] = normalizeMany({
      specversion: '1.0',
      type: 'dev.knative.apiserver.ref.update',
      data: JSON.stringify(ref),
    });
    expect(n?.ref).toEqual(ref);
  });

  it.each<[string, unknown, RegExp]>([
    ['an array', [], /must be a JSON object/],
    ['a bare object', { hello: 1 }, /unknown notification format/],
    ['a foreign apiVersion', { apiVersion: 'v1', kind: 'Pod' }, /unknown notification format/],
    [
      'a bad change',
      { ...native, change: 'updated' },
      /change must be one of added, modified, deleted, resync/,
    ],
    ['a missing ref', { ...native, ref: undefined }, /ref must be an object/],
    ['a ref without name', { ...native, ref: { ...native.ref, name: '' } }, /ref\.name is required/],
    [
      'a ref with a numeric kind',
      { ...native, ref: { ...native.ref, kind: 3 } },
      /ref\.kind must be a string/,
    ],
    ['an invalid name', { ...native, ref: { ...native.ref, name: 'Not_Valid' } }, /not a valid object name/],
    [
      'an invalid namespace',
      { ...native, ref: { ...native.ref, namespace: 'A B' } },
      /not a valid namespace/,
    ],
    [
      'an object without metadata',
      { ...native, object: { kind: 'X' } },
      /object must be a Kubernetes object/,
    ],
    [
      'an unknown CloudEvent type',
      { specversion: '1.0', type: 'com.example.x', data: {} },
      /unsupported CloudEvent type/,
    ],
    [
      'a CloudEvent without data',
      { specversion: '1.0', type: 'dev.knative.apiserver.ref.add' },
      /must be an object/,
    ],
  ])('rejects %s', (_name, raw, message) => {
    expect(() => normalizeMany(raw)).toThrow(NotificationError);
    expect(() => normalizeMany(raw)).toThrow(message);
  });
});

describe('Function: parseNotificationText / parseSqsBody', () => {
  it('rejects text that is not JSON', () => {
    expect(() => parseNotificationText('{not json')).toThrow('notification is not valid JSON');
  });

  it('rejects a payload larger than an SQS message', () => {
    const huge = JSON.stringify({ ...native, pad: 'x'.repeat(MAX_NOTIFICATION_BYTES) });
    expect(() => parseNotificationText(huge)).toThrow(/larger than/);
  });

  it('marks notifications from SQS bodies, whichever format they carry', () => {
    const ce = { specversion: '1.0', type: 'dev.knative.apiserver.ref.update', data: ref };
    expect(parseSqsBody(JSON.stringify(native))[0]?.source).toBe('sqs');
    expect(parseSqsBody(JSON.stringify(ce))[0]).toEqual({ change: 'modified', ref, source: 'sqs' });
  });
});

describe('Function: notificationsFromHttp', () => {
  it('reads a binary-mode CloudEvent from ce-* headers', () => {
    const out = notificationsFromHttp(
      { 'Ce-Specversion': '1.0', 'Ce-Type': 'dev.knative.apiserver.resource.delete', 'Ce-Id': '1' },
      JSON.stringify(mci),
    );
    expect(out[0]).toMatchObject({ change: 'deleted', ref: { name: 'minimal-ingress' } });
  });

  it('reads a JSON body', () => {
    expect(notificationsFromHttp({}, JSON.stringify(native))[0]?.change).toBe('modified');
  });

  it('rejects an empty body', () => {
    expect(() => notificationsFromHttp({}, '')).toThrow('request body is empty');
  });
});
