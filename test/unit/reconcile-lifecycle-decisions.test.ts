import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../lib/kube/types.js';
import {
  clearsStatusAfterDelete,
  lifecycleAction,
  providerCall,
  recordsServedEvent,
  statusNeedsWrite,
  withOurMetadata,
  type LifecycleAction,
  type Observed,
} from '../../lib/reconcile/lifecycle-decisions.js';

const OURS = 'karmada.io/multi-cluster-ingress-controller';

describe('lifecycleAction (upstream needsCleanup)', () => {
  it.each<[string, Observed, LifecycleAction]>([
    ['wanted, no finalizer yet', { deleting: false, wanted: true, finalized: false }, 'ensure'],
    ['wanted, finalizer on', { deleting: false, wanted: true, finalized: true }, 'ensure'],
    ['not ours, never was', { deleting: false, wanted: false, finalized: false }, 'ignore'],
    ['no longer ours, finalizer on', { deleting: false, wanted: false, finalized: true }, 'delete'],
    ['being deleted, finalizer on', { deleting: true, wanted: false, finalized: true }, 'delete'],
    [
      'being deleted, no finalizer: not ours to hold up',
      { deleting: true, wanted: false, finalized: false },
      'ignore',
    ],
    // deletion wins even if the object still matches our class
    ['being deleted while still matching', { deleting: true, wanted: true, finalized: true }, 'delete'],
    [
      'being deleted while matching, no finalizer',
      { deleting: true, wanted: true, finalized: false },
      'ignore',
    ],
  ])('%s → %s', (_, observed, action) => expect(lifecycleAction(observed)).toBe(action));
});

describe('withOurMetadata (when to add the finalizer and the index labels)', () => {
  const obj = (finalizers?: string[], labels?: Record<string, string>): KubeObject => ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: 'm',
      namespace: 'default',
      ...(finalizers ? { finalizers } : {}),
      ...(labels ? { labels } : {}),
    },
  });
  const labelled = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, labels: { 'index/serve': 'true' } },
  });

  it.each<[string, KubeObject, ((o: KubeObject) => KubeObject) | undefined, string[] | undefined]>([
    ['no finalizers at all → ours added', obj(), undefined, [OURS]],
    [
      "another controller's finalizer → ours appended, theirs kept",
      obj(['other/f']),
      undefined,
      ['other/f', OURS],
    ],
    ['ours already there → nothing to write', obj([OURS]), undefined, undefined],
    ['ours there, index labels missing → written', obj([OURS]), labelled, [OURS]],
    [
      'ours there, index labels current → nothing to write',
      obj([OURS], { 'index/serve': 'true' }),
      labelled,
      undefined,
    ],
    ['neither → both in one write', obj(), labelled, [OURS]],
  ])('%s', (_, current, decorate, finalizers) => {
    const next = withOurMetadata(current, OURS, decorate);
    expect(next?.metadata.finalizers).toEqual(finalizers);
    if (next && decorate) expect(next.metadata.labels).toEqual({ 'index/serve': 'true' });
  });

  it('an empty finalizer list counts as absent, not as a change of its own', () => {
    expect(withOurMetadata(obj([]), OURS)?.metadata.finalizers).toEqual([OURS]);
  });

  it('leaves the object it was given unchanged', () => {
    const current = obj(['other/f']);
    withOurMetadata(current, OURS, labelled);
    expect(current).toEqual(obj(['other/f']));
  });
});

describe('providerCall (get → ensure or update)', () => {
  it.each([
    [{ exists: false }, 'ensure'],
    [{ exists: true }, 'update'],
    [{ exists: true, status: { ingress: [{ ip: '1.2.3.4' }] } }, 'update'],
    // what get() found decides, not whether it could describe it
    [{ exists: false, status: { ingress: [] } }, 'ensure'],
  ])('%j → %s', (existing, call) => expect(providerCall(existing)).toBe(call));
});

describe('statusNeedsWrite (upstream needsUpdate for the status)', () => {
  const a = { ingress: [{ hostname: 'a.elb.amazonaws.com' }] };
  const b = { ingress: [{ hostname: 'b.elb.amazonaws.com' }] };
  it.each<[string, typeof a | undefined, typeof a | undefined, boolean, boolean]>([
    ['first status', undefined, a, false, true],
    ['unchanged', a, structuredClone(a), false, false],
    ['changed', a, b, false, true],
    ['provider has nothing to report yet: keep what is there', a, undefined, false, false],
    ['provider has nothing to report, none there', undefined, undefined, false, false],
    ['clearing a status', a, undefined, true, true],
    ['clearing when there is none', undefined, undefined, true, false],
  ])('%s → %s', (_, current, reported, clear, write) =>
    expect(statusNeedsWrite(current, reported, clear)).toBe(write),
  );

  it('compares semantically: an empty list and an absent one are the same status', () => {
    expect(statusNeedsWrite({ ingress: [] }, {}, false)).toBe(false);
  });
});

describe('clearsStatusAfterDelete', () => {
  it.each([
    ['no longer ours, status shown', false, { ingress: [{ ip: '1.2.3.4' }] }, true],
    ['no longer ours, no status', false, undefined, false],
    ['being deleted: goes with its status', true, { ingress: [{ ip: '1.2.3.4' }] }, false],
    ['being deleted, no status', true, undefined, false],
  ])('%s → %s', (_, deleting, status, clears) =>
    expect(clearsStatusAfterDelete(deleting, status)).toBe(clears),
  );
});

describe('recordsServedEvent: one change, one Event', () => {
  it.each([
    ['a creation', { created: true, unchanged: true, statusChanged: false }, true],
    ['an update that changed something', { created: false, unchanged: false, statusChanged: false }, true],
    ['an update that changed nothing', { created: false, unchanged: true, statusChanged: false }, false],
    ['nothing changed but the status', { created: false, unchanged: true, statusChanged: true }, true],
  ])('%s → %s', (_, pass, records) => expect(recordsServedEvent(pass)).toBe(records));
});
