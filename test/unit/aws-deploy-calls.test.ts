/**
 * The deploy layer's pure helpers, as tables: how ELBv2 errors are classified and mapped, the
 * canonical forms that compare desired and described actions and conditions, plan bookkeeping
 * (tags, placeholders, the printed plan), the look-up memo and the call-rate bucket.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { CancelledError, RetryLaterError } from '../../lib/errors.js';
import {
  actionsKey,
  conditionsKey,
  toSdkActions,
  toSdkConditions,
} from '../../lib/providers/aws/deploy/actions.js';
import {
  call,
  checkAborted,
  chunks,
  isAwsError,
  isConflict,
  isThrottling,
  isTransient,
  LookupMemo,
  retryAfterFor,
  sleep,
} from '../../lib/providers/aws/deploy/context.js';
import {
  formatPlan,
  operationSubject,
  plannedActions,
  planTags,
  type Operation,
} from '../../lib/providers/aws/deploy/operations.js';
import {
  arnRef,
  dnsRef,
  resolvePlanned,
  secretRef,
  type SecretValues,
} from '../../lib/providers/aws/deploy/refs.js';
import {
  describeListeners,
  describeLoadBalancerAttributes,
  describeRules,
  describeTags,
  describeTargets,
  findLoadBalancerByName,
  findTargetGroupByArn,
  findTargetGroupsByLoadBalancer,
  findTargetGroupsByNames,
  sweepOwnedLoadBalancers,
  sweepOwnedTargetGroups,
} from '../../lib/providers/aws/deploy/describe.js';
import type { DeployContext } from '../../lib/providers/aws/deploy/context.js';
import { TokenBucket } from '../../lib/providers/aws/deploy/rate-limit.js';
import { FINGERPRINT_TAG, OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import type { ResourceGroupsTaggingAPIClient } from '@aws-sdk/client-resource-groups-tagging-api';
import { MemoryLogger } from '../../lib/log/logger.js';
import { findByTags, findStackByTags, parseElbArn } from '../../lib/providers/aws/deploy/stack-tags.js';
import {
  DNS_NAME_TAG,
  LEGACY_TARGETS_TAG_PREFIX,
  legacyTargetTags,
  recordedState,
} from '../../lib/providers/aws/deploy/targets-only.js';
import { groupFingerprints, recordHolds, recordOf } from '../../lib/providers/aws/deploy/target-records.js';
import { viewFromTags } from '../../lib/providers/aws/deploy/targets-only.js';
import { targetsFingerprint } from '../../lib/providers/aws/model/fingerprint.js';
import { ResourceTypes, type Stack, type StackResource } from '../../lib/providers/aws/model/types.js';

const live = { signal: new AbortController().signal };
const aborted = () => {
  const c = new AbortController();
  c.abort(new Error('gone'));
  return { signal: c.signal };
};
/** The error `p` rejects with. */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('ELBv2 error classification', () => {
  it.each([
    { err: { name: 'LoadBalancerNotFound' }, code: 'LoadBalancerNotFound', expected: true },
    { err: { name: 'LoadBalancerNotFoundException' }, code: 'LoadBalancerNotFound', expected: true },
    { err: { Code: 'LoadBalancerNotFound' }, code: 'LoadBalancerNotFound', expected: true },
    { err: { name: 'TargetGroupNotFound' }, code: 'LoadBalancerNotFound', expected: false },
    { err: { name: 'LoadBalancerNotFoundError' }, code: 'LoadBalancerNotFound', expected: false },
    { err: null, code: 'X', expected: false },
    { err: undefined, code: 'X', expected: false },
    { err: 'X', code: 'X', expected: false },
  ])('isAwsError($err, $code) is $expected', ({ err, code, expected }) => {
    expect(isAwsError(err, code)).toBe(expected);
  });

  it.each([
    'Throttling',
    'ThrottlingException',
    'ThrottledException',
    'RequestLimitExceeded',
    'RequestThrottled',
    'RequestThrottledException',
    'TooManyRequestsException',
    'SlowDown',
  ])('%s is throttling, and transient', (name) => {
    expect(isThrottling({ name })).toBe(true);
    expect(isTransient({ name })).toBe(true);
  });

  it('HTTP 429 is throttling; other errors are not', () => {
    expect(isThrottling({ $metadata: { httpStatusCode: 429 } })).toBe(true);
    expect(isThrottling({ name: 'ValidationError', $metadata: { httpStatusCode: 400 } })).toBe(false);
    expect(isThrottling({})).toBe(false);
    expect(isThrottling(null)).toBe(false);
    expect(isThrottling(undefined)).toBe(false);
    expect(isThrottling('Throttling')).toBe(false);
  });

  it.each([
    { err: { $fault: 'server' }, expected: true },
    { err: { $metadata: { httpStatusCode: 500 } }, expected: true },
    { err: { $metadata: { httpStatusCode: 503 } }, expected: true },
    { err: { $metadata: { httpStatusCode: 429 } }, expected: true },
    { err: { $metadata: { httpStatusCode: 499 } }, expected: false },
    { err: { name: 'TimeoutError' }, expected: true },
    { err: { code: 'ECONNRESET' }, expected: true },
    { err: { code: 'ECONNREFUSED' }, expected: true },
    { err: { code: 'EPIPE' }, expected: true },
    { err: { code: 'ETIMEDOUT' }, expected: true },
    { err: { code: 'EAI_AGAIN' }, expected: true },
    { err: { code: 'ENOENT' }, expected: false },
    { err: { $fault: 'client', name: 'ValidationError' }, expected: false },
    { err: {}, expected: false },
    { err: null, expected: false },
    { err: undefined, expected: false },
    { err: 42, expected: false },
  ])('isTransient($err) is $expected', ({ err, expected }) => {
    expect(isTransient(err)).toBe(expected);
  });

  it.each([
    'PriorityInUse',
    'DuplicateListener',
    'DuplicateTargetGroupName',
    'DuplicateLoadBalancerName',
    'TargetGroupAssociationLimit',
  ])('%s is a conflict', (name) => {
    expect(isConflict({ name })).toBe(true);
    expect(isConflict({ name: `${name}Exception` })).toBe(true);
  });

  it('other errors are no conflict', () => {
    expect(isConflict({ name: 'ResourceInUse' })).toBe(false);
  });

  it.each([
    { err: { name: 'Throttling' }, random: 0, expected: 20 },
    { err: { name: 'Throttling' }, random: 0.999, expected: 39 },
    { err: { $metadata: { httpStatusCode: 429 } }, random: 0.5, expected: 30 },
    { err: { $fault: 'server' }, random: 0, expected: 10 },
    { err: { $metadata: { httpStatusCode: 500 } }, random: 0.5, expected: 15 },
    { err: { $metadata: { httpStatusCode: 499 } }, random: 0, expected: 5 },
    { err: { code: 'ECONNRESET' }, random: 0.999, expected: 9 },
  ])('retryAfterFor($err) with jitter $random is $expected s', ({ err, random, expected }) => {
    expect(retryAfterFor(err, () => random)).toBe(expected);
  });

  it('retryAfterFor jitters with Math.random by default, within [base, 2 × base)', () => {
    for (let i = 0; i < 20; i++) {
      const s = retryAfterFor({ name: 'Throttling' });
      expect(s).toBeGreaterThanOrEqual(20);
      expect(s).toBeLessThan(40);
    }
  });
});

describe('Function: call', () => {
  it('passes the signal and returns the result', async () => {
    let seen: AbortSignal | undefined;
    await expect(
      call(live, 'DescribeTags', (o) => {
        seen = o.abortSignal;
        return Promise.resolve(7);
      }),
    ).resolves.toBe(7);
    expect(seen).toBe(live.signal);
  });

  it('does not start once the signal fired', async () => {
    let started = false;
    const err = await rejection(
      call(aborted(), 'DescribeTags', () => {
        started = true;
        return Promise.resolve(1);
      }),
    );
    expect(started).toBe(false);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.message).toBe('reconcile cancelled');
  });

  it('a failure after the signal fired is a cancellation naming the call', async () => {
    const c = new AbortController();
    const cause = { name: 'Throttling' };
    const err = await rejection(
      call({ signal: c.signal }, 'CreateRule', () => {
        c.abort();
        return Promise.reject(cause);
      }),
    );
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.message).toBe('reconcile cancelled during CreateRule');
    expect(err.cause).toBe(cause);
  });

  it('throttling left after the SDK retries: RetryLaterError with reason Throttled', async () => {
    const cause = { name: 'Throttling' };
    const err = (await rejection(
      call(live, 'DescribeRules', () => Promise.reject(cause)),
    )) as RetryLaterError;
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err.reason).toBe('Throttled');
    expect(err.cause).toBe(cause);
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(20);
    expect(err.retryAfterSeconds).toBeLessThan(40);
    expect(err.message).toBe(
      `ELBv2 throttled DescribeRules through the SDK's retries (the account's API rate is shared); retrying in about ${err.retryAfterSeconds ?? ''} s`,
    );
  });

  it('a server error: RetryLaterError with its message', async () => {
    const cause = Object.assign(new Error('internal failure'), { $fault: 'server' });
    const err = (await rejection(call(live, 'CreateRule', () => Promise.reject(cause)))) as RetryLaterError;
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err.message).toBe('ELBv2 CreateRule failed after retries: internal failure');
    expect(err.reason).toBeUndefined();
    expect(err.cause).toBe(cause);
    expect(err.retryAfterSeconds).toBeGreaterThanOrEqual(10);
    expect(err.retryAfterSeconds).toBeLessThan(20);
  });

  it('a conflict: RetryLaterError in one second', async () => {
    const cause = Object.assign(new Error('priority 3 is in use'), { name: 'PriorityInUseException' });
    const err = (await rejection(call(live, 'CreateRule', () => Promise.reject(cause)))) as RetryLaterError;
    expect(err).toBeInstanceOf(RetryLaterError);
    expect(err.message).toBe(
      'ELBv2 CreateRule conflicted with the current state, reconcile again: priority 3 is in use',
    );
    expect(err.retryAfterSeconds).toBe(1);
    expect(err.cause).toBe(cause);
  });

  it('any other error passes through', async () => {
    const cause = Object.assign(new Error('bad'), { name: 'ValidationError' });
    expect(await rejection(call(live, 'CreateRule', () => Promise.reject(cause)))).toBe(cause);
  });

  it('checkAborted throws only once the signal fired, with its reason as cause', () => {
    expect(() => checkAborted(live)).not.toThrow();
    const a = aborted();
    try {
      checkAborted(a);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(CancelledError);
      expect((e as Error).cause).toBe(a.signal.reason);
    }
  });
});

describe('sleep and chunks', () => {
  it('sleep resolves after the time, and rejects at once on an aborted signal', async () => {
    const start = Date.now();
    await sleep(20, live.signal);
    expect(Date.now() - start).toBeGreaterThanOrEqual(15);
    const a = aborted();
    const err = await rejection(sleep(10_000, a.signal));
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.message).toBe('reconcile cancelled');
    expect(err.cause).toBe(a.signal.reason);
  });

  it('sleep rejects when the signal fires while waiting, and stops listening when done', async () => {
    const c = new AbortController();
    const p = sleep(10_000, c.signal);
    c.abort(new Error('stop'));
    const err = await rejection(p);
    expect(err).toBeInstanceOf(CancelledError);
    expect(err.message).toBe('reconcile cancelled');
    expect((err.cause as Error).message).toBe('stop');
    expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
    // A finished sleep no longer listens to the signal (a long-lived signal would collect them).
    const d = new AbortController();
    await sleep(1, d.signal);
    expect(getEventListeners(d.signal, 'abort')).toHaveLength(0);
  });

  it.each([
    { items: [], size: 2, expected: [] },
    { items: [1, 2, 3], size: 2, expected: [[1, 2], [3]] },
    { items: [1, 2], size: 2, expected: [[1, 2]] },
    { items: [1, 2, 3], size: 1, expected: [[1], [2], [3]] },
  ])('chunks($items, $size)', ({ items, size, expected }) => {
    expect(chunks(items, size)).toStrictEqual(expected);
  });
});

describe('LookupMemo', () => {
  it('gives a recorded look-up once, while it is recent', () => {
    let t = 1000;
    const memo = new LookupMemo(5000, () => t);
    const found = { lb: { LoadBalancerName: 'a' }, tags: {} };
    memo.record('a', found);
    memo.record('b', null);
    memo.record('c', found);
    expect(memo.take('a')).toBe(found);
    expect(memo.take('a')).toBeUndefined();
    expect(memo.take('nothing')).toBeUndefined();
    t = 6000;
    expect(memo.take('b')).toBeNull();
    t = 6001;
    expect(memo.take('c')).toBeUndefined();
    memo.record('d', found);
    memo.clear();
    expect(memo.take('d')).toBeUndefined();
  });

  it('defaults to 5 s and the wall clock', () => {
    const memo = new LookupMemo();
    memo.record('a', null);
    expect(memo.take('a')).toBeNull();
  });
});

describe('actions and conditions', () => {
  const resolve = (id: string) => `arn:${id}`;

  it('model actions become SDK actions, ordered from 1', () => {
    expect(
      toSdkActions(
        [
          { type: 'forward', targetGroup: { $ref: 'tg' } },
          { type: 'redirect', redirect: { protocol: 'HTTPS', port: '443', statusCode: 'HTTP_301' } },
          { type: 'fixed-response', fixedResponse: { statusCode: '404', contentType: 'text/plain' } },
          {
            type: 'fixed-response',
            fixedResponse: { statusCode: '503', contentType: 'text/html', messageBody: 'down' },
          },
        ],
        resolve,
      ),
    ).toStrictEqual([
      { Type: 'forward', Order: 1, TargetGroupArn: 'arn:tg' },
      {
        Type: 'redirect',
        Order: 2,
        RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' },
      },
      {
        Type: 'fixed-response',
        Order: 3,
        FixedResponseConfig: { StatusCode: '404', ContentType: 'text/plain' },
      },
      {
        Type: 'fixed-response',
        Order: 4,
        FixedResponseConfig: { StatusCode: '503', ContentType: 'text/html', MessageBody: 'down' },
      },
    ]);
  });

  it('model conditions become SDK conditions', () => {
    expect(
      toSdkConditions([
        { field: 'host-header', values: ['a.example.com'] },
        { field: 'path-pattern', values: ['/a', '/a/*'] },
      ]),
    ).toStrictEqual([
      { Field: 'host-header', HostHeaderConfig: { Values: ['a.example.com'] } },
      { Field: 'path-pattern', PathPatternConfig: { Values: ['/a', '/a/*'] } },
    ]);
  });

  it.each([
    {
      name: 'a forward by ARN equals the single-group ForwardConfig ELBv2 describes',
      a: [{ Type: 'forward', TargetGroupArn: 'x' }],
      b: [{ Type: 'forward', ForwardConfig: { TargetGroups: [{ TargetGroupArn: 'x', Weight: 1 }] } }],
      equal: true,
    },
    {
      name: 'forwards to other groups differ',
      a: [{ Type: 'forward', TargetGroupArn: 'x' }],
      b: [{ Type: 'forward', TargetGroupArn: 'y' }],
      equal: false,
    },
    {
      name: 'weighted groups compare as a set, a missing weight as 1',
      a: [
        {
          Type: 'forward',
          ForwardConfig: {
            TargetGroups: [
              { TargetGroupArn: 'x', Weight: 1 },
              { TargetGroupArn: 'y', Weight: 2 },
            ],
          },
        },
      ],
      b: [
        {
          Type: 'forward',
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: 'y', Weight: 2 }, { TargetGroupArn: 'x' }] },
        },
      ],
      equal: true,
    },
    {
      name: 'weights matter',
      a: [
        {
          Type: 'forward',
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: 'x' }, { TargetGroupArn: 'y', Weight: 2 }] },
        },
      ],
      b: [
        {
          Type: 'forward',
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: 'x' }, { TargetGroupArn: 'y', Weight: 3 }] },
        },
      ],
      equal: false,
    },
    {
      name: 'two weighted groups are not a forward to the first',
      a: [{ Type: 'forward', TargetGroupArn: 'x' }],
      b: [
        {
          Type: 'forward',
          ForwardConfig: { TargetGroups: [{ TargetGroupArn: 'x' }, { TargetGroupArn: 'y' }] },
        },
      ],
      equal: false,
    },
    {
      name: 'actions compare in their Order, not their position',
      a: [
        { Type: 'forward', Order: 2, TargetGroupArn: 'x' },
        { Type: 'fixed-response', Order: 1, FixedResponseConfig: { StatusCode: '404' } },
      ],
      b: [
        { Type: 'fixed-response', Order: 1, FixedResponseConfig: { StatusCode: '404' } },
        { Type: 'forward', Order: 2, TargetGroupArn: 'x' },
      ],
      equal: true,
    },
    {
      name: 'the order of actions matters',
      a: [
        { Type: 'forward', Order: 1, TargetGroupArn: 'x' },
        { Type: 'forward', Order: 2, TargetGroupArn: 'y' },
      ],
      b: [
        { Type: 'forward', Order: 2, TargetGroupArn: 'x' },
        { Type: 'forward', Order: 1, TargetGroupArn: 'y' },
      ],
      equal: false,
    },
    {
      name: 'fixed responses differ by status, content type or body',
      a: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404', ContentType: 'text/plain' } }],
      b: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404', ContentType: 'text/html' } }],
      equal: false,
    },
    {
      name: 'fixed responses: body',
      a: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404', MessageBody: 'a' } }],
      b: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404', MessageBody: 'b' } }],
      equal: false,
    },
    {
      name: 'fixed responses: status',
      a: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '404' } }],
      b: [{ Type: 'fixed-response', FixedResponseConfig: { StatusCode: '503' } }],
      equal: false,
    },
    {
      name: 'redirects compare only what we set (ELBv2 fills in host, path, query)',
      a: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } }],
      b: [
        {
          Type: 'redirect',
          RedirectConfig: {
            Protocol: 'HTTPS',
            Port: '443',
            StatusCode: 'HTTP_301',
            Host: '#{host}',
            Path: '/#{path}',
          },
        },
      ],
      equal: true,
    },
    {
      name: 'redirects: port',
      a: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } }],
      b: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '8443', StatusCode: 'HTTP_301' } }],
      equal: false,
    },
    {
      name: 'redirects: status',
      a: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_301' } }],
      b: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443', StatusCode: 'HTTP_302' } }],
      equal: false,
    },
    {
      name: 'redirects: protocol',
      a: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTPS', Port: '443' } }],
      b: [{ Type: 'redirect', RedirectConfig: { Protocol: 'HTTP', Port: '443' } }],
      equal: false,
    },
    {
      name: 'other action types compare in full',
      a: [{ Type: 'authenticate-oidc', AuthenticateOidcConfig: { Issuer: 'a' } }],
      b: [{ Type: 'authenticate-oidc', AuthenticateOidcConfig: { Issuer: 'b' } }],
      equal: false,
    },
    {
      name: 'no actions equal none',
      a: undefined,
      b: [],
      equal: true,
    },
  ] as Array<{
    name: string;
    a: Parameters<typeof actionsKey>[0];
    b: Parameters<typeof actionsKey>[0];
    equal: boolean;
  }>)('actionsKey: $name', ({ a, b, equal }) => {
    expect(actionsKey(a) === actionsKey(b)).toBe(equal);
  });

  it('actionsKey of a fixed response without config, or a redirect without config, is stable', () => {
    expect(actionsKey([{ Type: 'fixed-response' }])).toBe(JSON.stringify([['fixed-response', '', '', '']]));
    // A redirect without config is compared with the defaults ELBv2 fills in.
    expect(actionsKey([{ Type: 'redirect' }])).toBe(
      JSON.stringify([['redirect', '#{protocol}', '#{port}', '#{host}', '/#{path}', '#{query}', '']]),
    );
    expect(actionsKey([{ Type: 'forward' }])).toBe(JSON.stringify([['forward', [], 0]]));
    expect(actionsKey([{ Type: 'forward', ForwardConfig: { TargetGroups: [{ Weight: 3 }, {}] } }])).toBe(
      JSON.stringify([['forward', ['=1', '=3'], 0]]),
    );
    expect(actionsKey([{} as NonNullable<Parameters<typeof actionsKey>[0]>[number]])).toBe(
      JSON.stringify([['', '{}']]),
    );
  });

  it.each([
    {
      name: 'the legacy Values spelling equals the config spelling',
      a: [{ Field: 'path-pattern', Values: ['/a'] }],
      b: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/a'] } }],
      equal: true,
    },
    {
      name: 'host headers: legacy Values too',
      a: [{ Field: 'host-header', Values: ['h'] }],
      b: [{ Field: 'host-header', HostHeaderConfig: { Values: ['h'] } }],
      equal: true,
    },
    {
      name: 'values compare as a set, conditions in any order',
      a: [
        { Field: 'path-pattern', PathPatternConfig: { Values: ['/b', '/a'] } },
        { Field: 'host-header', HostHeaderConfig: { Values: ['h'] } },
      ],
      b: [
        { Field: 'host-header', HostHeaderConfig: { Values: ['h'] } },
        { Field: 'path-pattern', PathPatternConfig: { Values: ['/a', '/b'] } },
      ],
      equal: true,
    },
    {
      name: 'another value differs',
      a: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/a'] } }],
      b: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/b'] } }],
      equal: false,
    },
    {
      name: 'the same values under another field differ',
      a: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['h'] } }],
      b: [{ Field: 'host-header', HostHeaderConfig: { Values: ['h'] } }],
      equal: false,
    },
    {
      name: 'other fields compare in full',
      a: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'a', Values: ['1'] } }],
      b: [{ Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'b', Values: ['1'] } }],
      equal: false,
    },
    { name: 'none equal none', a: undefined, b: [], equal: true },
  ] as Array<{
    name: string;
    a: Parameters<typeof conditionsKey>[0];
    b: Parameters<typeof conditionsKey>[0];
    equal: boolean;
  }>)('conditionsKey: $name', ({ a, b, equal }) => {
    expect(conditionsKey(a) === conditionsKey(b)).toBe(equal);
  });

  it('conditionsKey: a sorted set of one canonical text per condition', () => {
    expect(
      conditionsKey([
        { Field: 'path-pattern', Values: ['/b', '/a'] },
        { Field: 'host-header', Values: ['h'] },
        { Values: ['x'] },
      ]),
    ).toBe(
      JSON.stringify([
        JSON.stringify(['', { Values: ['x'] }]),
        JSON.stringify(['host-header', ['values', ['h']]]),
        JSON.stringify(['path-pattern', ['values', ['/a', '/b']]]),
      ]),
    );
  });
});

describe('plan bookkeeping', () => {
  const pc = { externalManagedTags: ['managed-elsewhere'] };

  it('planTags: removes stale keys first (never another tool’s), then adds what is missing or wrong', () => {
    expect(
      planTags(
        pc,
        'arn:x',
        { a: '1', c: '3', b: '2' },
        { a: '1', b: 'old', stale: 'x', 'managed-elsewhere': 'y', stale2: 'z' },
      ),
    ).toStrictEqual({
      calls: [
        { action: 'RemoveTags', input: { ResourceArns: ['arn:x'], TagKeys: ['stale', 'stale2'] } },
        {
          action: 'AddTags',
          input: {
            ResourceArns: ['arn:x'],
            Tags: [
              { Key: 'b', Value: '2' },
              { Key: 'c', Value: '3' },
            ],
          },
        },
      ],
      changes: ['untag stale, stale2', 'tags b, c'],
    });
    expect(planTags(pc, 'arn:x', { a: '1' }, { a: '1' })).toStrictEqual({ calls: [], changes: [] });
  });

  it('placeholders: typed values resolved at their fields; a string is never one, whatever it holds', () => {
    const arns = new Map([
      ['LoadBalancer', 'arn:lb'],
      ['tg', 'arn:tg'],
    ]);
    const dnsNames = new Map([['LoadBalancer', 'lb.example.com']]);
    const secrets: SecretValues = { get: (ns, name) => (ns === 'a' && name === 'oidc' ? 'S' : undefined) };
    // Printed as before: in JSON, logs and text.
    expect(JSON.stringify([arnRef('tg'), dnsRef('LoadBalancer'), secretRef('a/oidc')])).toBe(
      '["{{arn:tg}}","{{dns:LoadBalancer}}","{{secret:a/oidc}}"]',
    );
    expect(`${arnRef('tg')}`).toBe('{{arn:tg}}');
    expect(
      resolvePlanned<unknown>(
        {
          LoadBalancerArn: arnRef('LoadBalancer'),
          Actions: [
            { TargetGroupArn: arnRef('tg'), Order: 1 },
            { AuthenticateOidcConfig: { ClientSecret: secretRef('a/oidc') } },
            // Text shaped like a placeholder is text.
            { FixedResponseConfig: { MessageBody: '{{secret:a/oidc}}' } },
          ],
          Tags: [{ Key: 'dns', Value: dnsRef('LoadBalancer') }],
          Plain: '{{arn:tg}}',
          Flag: true,
          Nothing: null,
        },
        { arns, dnsNames, secrets },
      ),
    ).toStrictEqual({
      LoadBalancerArn: 'arn:lb',
      Actions: [
        { TargetGroupArn: 'arn:tg', Order: 1 },
        { AuthenticateOidcConfig: { ClientSecret: 'S' } },
        { FixedResponseConfig: { MessageBody: '{{secret:a/oidc}}' } },
      ],
      Tags: [{ Key: 'dns', Value: 'lb.example.com' }],
      Plain: '{{arn:tg}}',
      Flag: true,
      Nothing: null,
    });
    expect(() => resolvePlanned<unknown>({ TargetGroupArn: [arnRef('missing')] }, { arns })).toThrow(
      'plan refers to missing before it exists',
    );
  });

  it('placeholders: one at a field its kind may not stand in is refused, naming it and never a value', () => {
    const arns = new Map([['LoadBalancer', 'arn:lb']]);
    const secrets: SecretValues = { get: () => 'S' };
    const at = (input: unknown) => () => resolvePlanned<unknown>(input, { arns, secrets });
    expect(at({ FixedResponseConfig: { MessageBody: secretRef('a/oidc') } })).toThrow(
      'plan holds {{secret:a/oidc}} at MessageBody, where no placeholder may stand',
    );
    expect(at({ RedirectConfig: { Host: arnRef('LoadBalancer') } })).toThrow('{{arn:LoadBalancer}} at Host');
    expect(at({ TargetGroupArn: secretRef('a/oidc') })).toThrow('{{secret:a/oidc}} at TargetGroupArn');
    expect(at({ ClientSecret: arnRef('LoadBalancer') })).toThrow('{{arn:LoadBalancer}} at ClientSecret');
    // A tag's value takes an ARN or a DNS name, never a secret; an attribute's value nothing.
    expect(at({ Tags: [{ Key: 'k', Value: secretRef('a/oidc') }] })).toThrow('at Value');
    expect(at({ Attributes: [{ Key: 'k', Value: arnRef('LoadBalancer') }] })).toThrow('at Value');
  });

  it('a client secret comes only from the Secrets read in its own namespace', () => {
    // team-a's Secret "oidc" was read; team-b names a Secret of the same name.
    const secrets: SecretValues = {
      get: (ns, name) => (ns === 'team-a' && name === 'oidc' ? 'A' : undefined),
    };
    const resolve = (ref: string) =>
      resolvePlanned<unknown>({ ClientSecret: secretRef(ref) }, { arns: new Map(), secrets });
    expect(resolve('team-a/oidc')).toStrictEqual({ ClientSecret: 'A' });
    expect(() => resolve('team-b/oidc')).toThrow(
      'plan needs the client secret of Secret team-b/oidc, which was not read in namespace team-b',
    );
    expect(() => secretRef('oidc')).toThrow('names no namespace');
  });

  const plan: Operation[] = [
    {
      op: 'create',
      resource: 'TargetGroup',
      id: 'default/serve:80',
      detail: 'k8s-x',
      calls: [
        { action: 'CreateTargetGroup', input: { Name: 'k8s-x' } },
        { action: 'ModifyTargetGroupAttributes', input: { TargetGroupArn: 'a', Attributes: [] } },
      ],
    },
    { op: 'modify', resource: 'LoadBalancer', id: 'LoadBalancer', detail: 'subnets', calls: [] },
    { op: 'delete', resource: 'Listener', id: 'HTTP:81', detail: 'port no longer served', calls: [] },
    { op: 'replace', resource: 'LoadBalancer', id: 'LoadBalancer', detail: 'scheme', calls: [] },
  ];

  it('plannedActions lists every call in order', () => {
    expect(plannedActions(plan)).toStrictEqual(['CreateTargetGroup', 'ModifyTargetGroupAttributes']);
  });

  it('formatPlan: one line per operation with its sign, subject, detail and calls', () => {
    expect(formatPlan(plan)).toStrictEqual([
      '+ create TargetGroup default/serve:80: k8s-x [CreateTargetGroup, ModifyTargetGroupAttributes]',
      '~ modify LoadBalancer: subnets []',
      '- delete Listener HTTP:81: port no longer served []',
      '-/+ replace LoadBalancer: scheme []',
    ]);
    expect(formatPlan([])).toStrictEqual(['no changes']);
    expect(operationSubject({ resource: 'Targets', id: 'default/serve:80' })).toBe(
      'Targets default/serve:80',
    );
  });
});

describe('TokenBucket', () => {
  it('serves the burst at once, then one token per 1/rate seconds', async () => {
    let t = 0;
    const bucket = new TokenBucket(100, 2, () => t);
    const order: number[] = [];
    await bucket.take();
    await bucket.take();
    // Empty now: the next take waits for a refill the clock provides.
    const third = bucket.take().then(() => order.push(3));
    const fourth = bucket.take().then(() => order.push(4));
    await new Promise((r) => setTimeout(r, 30));
    expect(order).toStrictEqual([]);
    t = 5; // half a token
    await new Promise((r) => setTimeout(r, 30));
    expect(order).toStrictEqual([]);
    t = 10; // 10 ms at 100/s: one token
    await third;
    expect(order).toStrictEqual([3]);
    t = 20;
    await fourth;
    expect(order).toStrictEqual([3, 4]);
  });

  it('never stores more than the burst', async () => {
    let t = 0;
    const bucket = new TokenBucket(1000, 1, () => t);
    t = 1_000_000;
    await bucket.take();
    let done = false;
    const next = bucket.take().then(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toBe(false);
    t += 1;
    await next;
    expect(done).toBe(true);
  });

  describe('with fake timers', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('an empty bucket sleeps once, exactly until the next token is due', async () => {
      vi.useFakeTimers();
      const start = Date.now();
      const bucket = new TokenBucket(2, 1);
      await bucket.take();
      await vi.advanceTimersByTimeAsync(100); // 0.2 of a token at 2/s
      let done = false;
      const next = bucket.take().then(() => (done = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersToNextTimerAsync();
      await vi.advanceTimersByTimeAsync(0);
      expect(Date.now() - start).toBe(500);
      expect(done).toBe(true);
      await next;
    });
  });

  it('the burst defaults to the rate rounded up (at least 1), the clock to Date.now', async () => {
    const start = Date.now();
    const bucket = new TokenBucket(2.5);
    await Promise.all([bucket.take(), bucket.take(), bucket.take()]);
    expect(Date.now() - start).toBeLessThan(200);
    const slow = new TokenBucket(0.5);
    await slow.take();
  });
});

describe('LookupMemo: the stack found by tags', () => {
  it('is given once, while recent, and forgotten by clear()', () => {
    let t = 0;
    const memo = new LookupMemo(100, () => t);
    const stack = { loadBalancers: [], targetGroups: [] };
    memo.recordTagged('mci/a/b', stack);
    expect(memo.takeTagged('mci/x/y')).toBeUndefined();
    expect(memo.takeTagged('mci/a/b')).toBe(stack);
    expect(memo.takeTagged('mci/a/b')).toBeUndefined();
    memo.recordTagged('mci/a/b', stack);
    t = 100;
    expect(memo.takeTagged('mci/a/b')).toBe(stack);
    memo.recordTagged('mci/a/b', stack);
    t = 201;
    expect(memo.takeTagged('mci/a/b')).toBeUndefined();
    memo.recordTagged('mci/a/b', stack);
    memo.clear();
    expect(memo.takeTagged('mci/a/b')).toBeUndefined();
  });
});

describe('stack tags and target records', () => {
  it.each([
    [
      'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/k8s-a/0123',
      { kind: 'loadbalancer', name: 'k8s-a' },
    ],
    [
      'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/k8s-n/0123',
      { kind: 'loadbalancer', name: 'k8s-n' },
    ],
    [
      'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-t/0123',
      { kind: 'targetgroup', name: 'k8s-t' },
    ],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/gwy/k8s-g/0123', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/app/k8s-a/0123/4567', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-t', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-t/0123/x', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:xtargetgroup/k8s-t/0123', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/k8s-a/0123/x', undefined],
    ['arn:aws:elasticloadbalancing:us-east-1:123456789012:xloadbalancer/app/k8s-a/0123', undefined],
    ['targetgroup/k8s-t/0123', undefined],
  ])('parseElbArn(%s)', (arn, expected) => {
    expect(parseElbArn(arn)).toStrictEqual(expected);
  });

  const tg = (name: string, targets: Array<{ id: string; port: number }>) =>
    ({ id: name, type: ResourceTypes.TargetGroup, spec: { name, targets } }) as unknown as StackResource;
  const stackWith = (n: number): Stack => ({
    id: 's',
    ownerId: 'o',
    resources: Array.from({ length: n }, (_, i) => tg(`k8s-${i}`, [{ id: `10.0.0.${i}`, port: 80 }])),
  });

  it('the record of a stack: every group, its targets fingerprint and its targets as RegisterTargets takes them', () => {
    const zoned = {
      id: 'z',
      type: ResourceTypes.TargetGroup,
      spec: { name: 'k8s-z', targets: [{ id: '172.16.0.1', port: 81, availabilityZone: 'all' }] },
    } as unknown as StackResource;
    const record = recordOf({ ...stackWith(2), resources: [...stackWith(2).resources, zoned] }, 'v2-f');
    expect(record).toStrictEqual({
      fingerprint: 'v2-f',
      groups: {
        'k8s-0': {
          fingerprint: targetsFingerprint([{ id: '10.0.0.0', port: 80 }]),
          targets: [{ Id: '10.0.0.0', Port: 80 }],
        },
        'k8s-1': {
          fingerprint: targetsFingerprint([{ id: '10.0.0.1', port: 80 }]),
          targets: [{ Id: '10.0.0.1', Port: 80 }],
        },
        'k8s-z': {
          fingerprint: targetsFingerprint([{ id: '172.16.0.1', port: 81, availabilityZone: 'all' }]),
          targets: [{ Id: '172.16.0.1', Port: 81, AvailabilityZone: 'all' }],
        },
      },
    });
    expect(groupFingerprints(record)).toStrictEqual({
      'k8s-0': record.groups['k8s-0']?.fingerprint,
      'k8s-1': record.groups['k8s-1']?.fingerprint,
      'k8s-z': record.groups['k8s-z']?.fingerprint,
    });
  });

  it('a record holds when structure, groups and every group’s targets are the same', () => {
    const fresh = recordOf(stackWith(2), 'v2-f');
    expect(recordHolds(fresh, fresh)).toBe(true);
    expect(recordHolds({ ...fresh, fingerprint: 'v2-g' }, fresh)).toBe(false);
    expect(recordHolds(recordOf(stackWith(3), 'v2-f'), fresh)).toBe(false);
    expect(recordHolds(recordOf(stackWith(1), 'v2-f'), fresh)).toBe(false);
    const moved = { ...fresh, groups: { ...fresh.groups, 'k8s-1': { fingerprint: 'x', targets: [] } } };
    expect(recordHolds(moved, fresh)).toBe(false);
    // As many groups, but another one's name (a record edited by hand).
    const renamed = {
      ...fresh,
      groups: Object.fromEntries(Object.entries(fresh.groups).map(([n, g], i) => [i === 0 ? 'other' : n, g])),
    };
    expect(recordHolds(renamed, fresh)).toBe(false);
  });

  it('legacy targets tags: the per-group keys an older version wrote, nothing else', () => {
    expect(
      legacyTargetTags({
        [`${LEGACY_TARGETS_TAG_PREFIX}a`]: '1',
        [`${LEGACY_TARGETS_TAG_PREFIX}b`]: '2',
        other: 'x',
        [DNS_NAME_TAG]: 'd',
      }),
    ).toStrictEqual([`${LEGACY_TARGETS_TAG_PREFIX}a`, `${LEGACY_TARGETS_TAG_PREFIX}b`]);
  });

  it('the recorded state: the fingerprint and every group’s targets fingerprint, in any order', () => {
    const a = recordedState('v2-f', { a: '1', b: '2' });
    expect(a).toBe(recordedState('v2-f', { b: '2', a: '1' }));
    expect(a).toMatch(/^v2-f\+[0-9a-f]{16}$/);
    expect(recordedState('v2-g', { a: '1', b: '2' })).not.toBe(a);
    expect(recordedState('v2-f', { a: '1', b: '3' })).not.toBe(a);
    expect(recordedState('v2-f', { a: '1', c: '2' })).not.toBe(a);
    expect(recordedState('v2-f', { a: '1' })).not.toBe(a);
    // The group name and its value are both part of it: a=1,b=2 is not a=12.
    expect(recordedState('v2-f', { a: '12' })).not.toBe(recordedState('v2-f', { a: '1', 2: '' }));
  });
});

describe('describe calls against scripted ELBv2 answers', () => {
  type Answer = (command: string, input: Record<string, unknown>) => unknown;
  /** A client that answers each command with `answer` and keeps what it was asked. */
  const scripted = (answer: Answer) => {
    const asked: Array<[string, Record<string, unknown>]> = [];
    const client = {
      send: (cmd: { constructor: { name: string }; input: Record<string, unknown> }) => {
        asked.push([cmd.constructor.name, cmd.input]);
        // A request asked again and again would page forever: stop it here.
        if (asked.length > 10) return Promise.reject(new Error('too many calls'));
        return Promise.resolve(answer(cmd.constructor.name, cmd.input));
      },
    } as unknown as ElasticLoadBalancingV2Client;
    const owner = { ownerId: 'o', stackId: 'mcs/a/b' };
    const ctx = { client, signal: live.signal, owner, vpcId: 'vpc-1' } as unknown as DeployContext;
    return { ctx, asked };
  };

  it('an answer without its list (the SDK leaves it undefined) is nothing found, not an error', async () => {
    const { ctx } = scripted(() => ({}));
    expect(await findLoadBalancerByName(ctx, 'k8s-x')).toBeUndefined();
    expect(await findTargetGroupByArn(ctx, 'arn:tg')).toBeUndefined();
    expect(await findTargetGroupsByNames(ctx, ['k8s-a', 'k8s-b'])).toStrictEqual([]);
    expect(await findTargetGroupsByLoadBalancer(ctx, 'arn:lb')).toStrictEqual([]);
    expect(await describeRules(ctx, 'arn:l')).toStrictEqual([]);
    expect(await describeListeners(ctx, 'arn:lb')).toStrictEqual([]);
    expect(await describeTargets(ctx, 'arn:tg')).toStrictEqual([]);
    expect(await describeTags(ctx, ['arn:tg'])).toStrictEqual(new Map());
    expect(await describeLoadBalancerAttributes(ctx, 'arn:lb')).toStrictEqual({});
  });

  /** Two pages: the first points at the second with its marker. */
  const twoPages =
    (list: string, items: [unknown, unknown]) => (command: string, input: Record<string, unknown>) => {
      if (command === 'DescribeTagsCommand') {
        const arns = input.ResourceArns as string[];
        return {
          TagDescriptions: arns.map((ResourceArn) => ({
            ResourceArn,
            Tags: [
              { Key: OWNER_TAG, Value: 'o' },
              { Key: STACK_TAG, Value: 'mcs/a/b' },
            ],
          })),
        };
      }
      return input.Marker === undefined
        ? { [list]: [items[0]], NextMarker: 'page-2' }
        : { [list]: [items[1]] };
    };

  it('a paged listing follows NextMarker to the last page', async () => {
    const { ctx, asked } = scripted(twoPages('Rules', [{ RuleArn: 'r1' }, { RuleArn: 'r2' }]));
    expect(await describeRules(ctx, 'arn:l')).toStrictEqual([{ RuleArn: 'r1' }, { RuleArn: 'r2' }]);
    expect(asked).toStrictEqual([
      ['DescribeRulesCommand', { ListenerArn: 'arn:l', Marker: undefined }],
      ['DescribeRulesCommand', { ListenerArn: 'arn:l', Marker: 'page-2' }],
    ]);
  });

  it('the sweeps list the account 400 at a time, page after page', async () => {
    const lbs = scripted(twoPages('LoadBalancers', [{ LoadBalancerArn: 'lb1' }, { LoadBalancerArn: 'lb2' }]));
    expect(
      (await sweepOwnedLoadBalancers(lbs.ctx, { ownerId: 'o' })).map((e) => e.lb.LoadBalancerArn),
    ).toStrictEqual(['lb1', 'lb2']);
    expect(lbs.asked.filter(([c]) => c === 'DescribeLoadBalancersCommand').map(([, i]) => i)).toStrictEqual([
      { Marker: undefined, PageSize: 400 },
      { Marker: 'page-2', PageSize: 400 },
    ]);
    const tg = (arn: string) => ({ TargetGroupArn: arn, TargetGroupName: `k8s-${arn}`, VpcId: 'vpc-1' });
    const tgs = scripted(twoPages('TargetGroups', [tg('tg1'), tg('tg2')]));
    expect((await sweepOwnedTargetGroups(tgs.ctx, () => true)).map((e) => e.tg.TargetGroupArn)).toStrictEqual(
      ['tg1', 'tg2'],
    );
    expect(tgs.asked.filter(([c]) => c === 'DescribeTargetGroupsCommand').map(([, i]) => i)).toStrictEqual([
      { Marker: undefined, PageSize: 400 },
      { Marker: 'page-2', PageSize: 400 },
    ]);
  });
});

describe('the Tagging API look-up against scripted answers', () => {
  const LB = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/k8s-n/0123';
  const TG = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/k8s-t/0123';
  const LISTENER = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:listener/net/k8s-n/0123/4567';
  const owner = { ownerId: 'o', stackId: 'mcs/a/b' };
  /** A tagging client answering GetResources page by page (by token), keeping what it was asked. */
  const scripted = (pages: Record<string, unknown>, signal = live.signal) => {
    const asked: Array<{ input: Record<string, unknown>; options: unknown }> = [];
    const tagging = {
      send: (cmd: { input: Record<string, unknown> }, options: unknown) => {
        asked.push({ input: cmd.input, options });
        if (asked.length > 5) return Promise.reject(new Error('asked for the same page again'));
        const page = pages[String(cmd.input.PaginationToken ?? '')];
        return page instanceof Error ? Promise.reject(page) : Promise.resolve(page);
      },
    } as unknown as ResourceGroupsTaggingAPIClient;
    const logger = new MemoryLogger();
    return { ctx: { tagging, owner, signal, logger }, asked, logger };
  };
  const mapping = (ResourceARN: string | undefined, stack = 'mcs/a/b') => ({
    ResourceARN,
    Tags: [
      { Key: OWNER_TAG, Value: 'o' },
      { Key: STACK_TAG, Value: stack },
    ],
  });

  it('asks for the owner and stack tags on load balancers and target groups, page after page', async () => {
    const { ctx, asked } = scripted({
      '': {
        ResourceTagMappingList: [mapping(LB), mapping(LISTENER), mapping(undefined)],
        PaginationToken: 't2',
      },
      t2: { ResourceTagMappingList: [mapping(TG)], PaginationToken: '' },
    });
    expect(await findStackByTags(ctx)).toStrictEqual({
      loadBalancers: [
        { arn: LB, name: 'k8s-n', kind: 'loadbalancer', tags: { [OWNER_TAG]: 'o', [STACK_TAG]: 'mcs/a/b' } },
      ],
      targetGroups: [
        { arn: TG, name: 'k8s-t', kind: 'targetgroup', tags: { [OWNER_TAG]: 'o', [STACK_TAG]: 'mcs/a/b' } },
      ],
    });
    const request = {
      TagFilters: [
        { Key: OWNER_TAG, Values: ['o'] },
        { Key: STACK_TAG, Values: ['mcs/a/b'] },
      ],
      ResourceTypeFilters: ['elasticloadbalancing:loadbalancer', 'elasticloadbalancing:targetgroup'],
      ResourcesPerPage: 100,
    };
    expect(asked).toStrictEqual([
      { input: request, options: { abortSignal: live.signal } },
      { input: { ...request, PaginationToken: 't2' }, options: { abortSignal: live.signal } },
    ]);
  });

  it('a page without a list adds nothing', async () => {
    const { ctx } = scripted({ '': {} });
    expect(await findByTags(ctx, [], [])).toStrictEqual([]);
  });

  it('without a Tagging client: undefined, and nothing logged', async () => {
    const { ctx, logger } = scripted({});
    expect(await findStackByTags({ ...ctx, tagging: undefined })).toBeUndefined();
    expect(logger.lines).toStrictEqual([]);
  });

  it('a failed look-up is undefined (the caller asks ELBv2), unless the reconcile was cancelled', async () => {
    const failing = scripted({ '': new Error('AccessDenied') });
    expect(await findStackByTags(failing.ctx)).toBeUndefined();
    expect(failing.logger.lines.map((l) => [l.message, l.fields])).toStrictEqual([
      ['tagging API lookup failed; discovering through ELBv2', { error: 'AccessDenied' }],
    ]);
    const cancelled = scripted({ '': new Error('aborted') }, aborted().signal);
    expect((await rejection(findStackByTags(cancelled.ctx))).message).toBe('aborted');
  });
});

describe('viewFromTags', () => {
  const owner = { ownerId: 'o', stackId: 'mcs/a/b' };
  const ctx = { owner } as unknown as DeployContext;
  const ours = { [OWNER_TAG]: 'o', [STACK_TAG]: 'mcs/a/b' };
  const lb = (name: string, tags: Record<string, string>) => ({ arn: `arn:${name}`, name, tags });
  const record = { fingerprint: 'v2-f', groups: {} };
  const tagged = (lbTags: Record<string, string>, lbName = 'k8s-lb') => ({
    loadBalancers: [lb(lbName, lbTags)],
    targetGroups: [lb('k8s-tg', ours), lb('k8s-theirs', { ...ours, [OWNER_TAG]: 'x' })],
  });
  const tags = { ...ours, [DNS_NAME_TAG]: 'lb.example', [FINGERPRINT_TAG]: 'v2-f' };

  it('our load balancer under the name, with its DNS name: its view, our groups, the record of its fingerprint', () => {
    const view = viewFromTags(ctx, 'k8s-lb', tagged(tags), record);
    expect(view?.loadBalancer).toStrictEqual({
      arn: 'arn:k8s-lb',
      dnsName: 'lb.example',
      fingerprint: 'v2-f',
    });
    expect(view?.record).toBe(record);
    expect([
      view?.groupArn('k8s-tg'),
      view?.groupArn('k8s-theirs'),
      view?.groupArn('k8s-none'),
    ]).toStrictEqual(['arn:k8s-tg', undefined, undefined]);
    expect(
      viewFromTags(ctx, 'k8s-lb', tagged(tags), { ...record, fingerprint: 'v2-old' })?.record,
    ).toBeUndefined();
  });

  it.each([
    ['another name', tagged(tags, 'k8s-other')],
    ['not ours', tagged({ ...tags, [OWNER_TAG]: 'x' })],
    ['no DNS name recorded', tagged({ ...ours, [FINGERPRINT_TAG]: 'v2-f' })],
  ])('no view: %s', (_, t) => {
    expect(viewFromTags(ctx, 'k8s-lb', t, record)).toBeUndefined();
  });
});
