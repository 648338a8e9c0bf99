/**
 * What the next steps say and how one is chosen (lib/reconcile/next-steps.ts), as pure tables:
 * each reason's own step, a failure's step picked from its cause (however deep in the cause
 * chain), and how the step is appended to a message within the 1024 characters Events and
 * conditions keep. Which reasons exist in lib/ is checked by next-steps.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  CancelledError,
  InvalidObjectError,
  OwnershipConflictError,
  ProviderConfigError,
  RetryLaterError,
} from '../../lib/errors.js';
import { KubeApiError } from '../../lib/kube/client.js';
import { FAILURE_REASONS, NEXT_STEPS, nextStep, withNextStep } from '../../lib/reconcile/next-steps.js';

const aws = (name: string) => Object.assign(new Error(`${name}: nope`), { name });
const wrapped = (cause: unknown) => new Error('Failed', { cause });
/** `err` under `depth` wrapping errors. */
const buried = (err: unknown, depth: number): unknown =>
  depth === 0 ? err : buried(wrapped(err), depth - 1);
const DEFAULT = /^it is retried automatically with backoff; .*dead-letter queue$/;

describe('next steps', () => {
  it('says what to do, not only what failed: each step is an instruction of its own', () => {
    for (const step of Object.values(NEXT_STEPS)) {
      expect(step.length).toBeGreaterThan(30);
      expect(step).not.toMatch(/\.$/);
    }
    expect(new Set(Object.values(NEXT_STEPS)).size).toBe(Object.keys(NEXT_STEPS).length);
  });

  it('picks the step for a failure from its cause', () => {
    const cases: Array<[unknown, RegExp]> = [
      [new OwnershipConflictError('exists, not ours'), /without our ownership tags.*load-balancer-name/],
      [new ProviderConfigError('bad'), /fix the provider configuration/],
      [wrapped(aws('AccessDenied')), /IAM role.*awsOwnerId/],
      [aws('CertificateNotFoundException'), /certificate-arn annotation/],
      [aws('SubnetNotFoundException'), /subnets, security groups or Elastic IPs/],
      [aws('TooManyLoadBalancersException'), /account quota/],
      [new CancelledError(), /ran out of time/],
      [new RetryLaterError('throttled'), /transient: it is retried automatically/],
      [new KubeApiError('forbidden', 403, 'Forbidden'), /infra\/functions-rbac/],
      [new Error('something else'), /retried automatically with backoff.*dead-letter queue/],
    ];
    for (const [cause, step] of cases) {
      for (const reason of FAILURE_REASONS) expect(nextStep(reason, cause)).toMatch(step);
    }
    // an invalid-object reason does not depend on the cause
    expect(nextStep('ServiceNotFound', new OwnershipConflictError('x'))).toBe(NEXT_STEPS.ServiceNotFound);
    expect(nextStep('ServiceNotFound', new InvalidObjectError('x'))).toMatch(/create the Service/);
  });

  it('appends the step after the message, and keeps it whole when the message is long', () => {
    expect(withNextStep('NoPorts', 'Service "serve" has no ports to expose')).toBe(
      `Service "serve" has no ports to expose. Next: ${NEXT_STEPS.NoPorts}.`,
    );
    const long = withNextStep('InvalidSpec', `invalid MultiClusterIngress: ${'x'.repeat(2000)}`);
    expect(long.length).toBeLessThanOrEqual(1024);
    expect(long.endsWith(`... Next: ${NEXT_STEPS.InvalidSpec}.`)).toBe(true);
  });

  it.each([
    ['UnauthorizedOperation', /IAM role/],
    ['AuthFailure', /IAM role/],
    ['AccessDeniedException', /IAM role/],
    ['InvalidCertificateException', /certificate-arn annotation/],
    ['UnsupportedCertificateException', /certificate-arn annotation/],
    ['InvalidSubnetException', /subnets, security groups or Elastic IPs/],
    ['InvalidSecurityGroupException', /subnets, security groups or Elastic IPs/],
    ['InvalidSchemeException', /subnets, security groups or Elastic IPs/],
    ['AllocationIdNotFoundException', /subnets, security groups or Elastic IPs/],
    ['TooManyTargetGroupsException', /account quota/],
    ['TrustStoreNotFoundException', /mutual-authentication annotation/],
    ['TrustStoreNotReadyException', /mutual-authentication annotation/],
    // the names are matched from their start
    ['NotAccessDenied', DEFAULT],
    ['XCertificateNotFound', DEFAULT],
    ['NoSubnetNotFound', DEFAULT],
    ['NotTooMany', DEFAULT],
    ['NoTrustStoreNotFound', DEFAULT],
  ])('an AWS error named %s → its step', (name, step) => {
    expect(nextStep('SyncLoadBalancerFailed', aws(name))).toMatch(step);
  });

  it('looks through up to 16 causes for an AWS error name, and no further', () => {
    expect(nextStep('DeleteLoadBalancerFailed', buried(aws('AccessDenied'), 15))).toMatch(/IAM role/);
    expect(nextStep('DeleteLoadBalancerFailed', buried(aws('AccessDenied'), 16))).toMatch(DEFAULT);
    // a name that is not a string is no name
    expect(nextStep('SyncLoadBalancerFailed', Object.assign(new Error('x'), { name: 42 }))).toMatch(DEFAULT);
  });

  it('the Kubernetes status is the first numeric code in the cause chain, within 16 causes', () => {
    const forbidden = new KubeApiError('forbidden', 403, 'Forbidden');
    expect(nextStep('SyncLoadBalancerFailed', buried(forbidden, 15))).toMatch(/functions-rbac/);
    expect(nextStep('SyncLoadBalancerFailed', buried(forbidden, 16))).toMatch(DEFAULT);
    // a string code (Node's ECONNRESET) is skipped; a numeric one above the 403 decides
    const reset = Object.assign(new Error('socket', { cause: forbidden }), { code: 'ECONNRESET' });
    expect(nextStep('SyncLoadBalancerFailed', reset)).toMatch(/functions-rbac/);
    const outer = Object.assign(new Error('server error', { cause: forbidden }), { code: 500 });
    expect(nextStep('SyncLoadBalancerFailed', outer)).toMatch(DEFAULT);
    expect(nextStep('SyncLoadBalancerFailed', new KubeApiError('not found', 404, 'NotFound'))).toMatch(
      DEFAULT,
    );
  });

  it('a failure without a cause, and a reason without a step, get the default step', () => {
    expect(nextStep('SyncLoadBalancerFailed')).toMatch(DEFAULT);
    expect(nextStep('SomethingNew')).toMatch(DEFAULT);
    expect(nextStep('SomethingNew', new ProviderConfigError('bad'))).toMatch(DEFAULT);
  });

  it.each([
    ['ends with a period.', 'ends with a period.'],
    ['ends with a question?', 'ends with a question?'],
    ['ends with a bang!', 'ends with a bang!'],
    ['has a period. inside', 'has a period. inside.'],
    ['', '.'],
  ])('message %j is closed as %j before the step', (message, closed) => {
    expect(withNextStep('NoPorts', message)).toBe(`${closed} Next: ${NEXT_STEPS.NoPorts}.`);
  });

  it('a message that just fits is kept whole; one character more and it is cut to fit with "..."', () => {
    const step = ` Next: ${NEXT_STEPS.InvalidSpec}.`;
    const fits = `${'a'.repeat(1024 - step.length - 1)}.`;
    expect(withNextStep('InvalidSpec', fits)).toBe(fits + step);
    expect(withNextStep('InvalidSpec', fits + 'b')).toHaveLength(1024);
    const over = `${'a'.repeat(1024 - step.length - 1)}bc.`;
    expect(withNextStep('InvalidSpec', over)).toBe(`${'a'.repeat(1024 - step.length - 3)}...${step}`);
  });

  it('the failure reasons are the lifecycle’s two', () => {
    expect(FAILURE_REASONS).toEqual(['SyncLoadBalancerFailed', 'DeleteLoadBalancerFailed']);
  });
});
