/** The annotation parsers (pure) and the docs table that lists them. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_HEALTH_CHECK } from '../../lib/providers/aws/index.js';
import { targetGroupAttributes } from '../../lib/providers/aws/model/annotations/attributes.js';
import { albHealthCheck, nlbHealthCheck } from '../../lib/providers/aws/model/annotations/health-check.js';
import { ALB_KEYS, NLB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import { albListeners, nlbTls } from '../../lib/providers/aws/model/annotations/listeners.js';
import { parseLoadBalancerAnnotations } from '../../lib/providers/aws/model/annotations/load-balancer.js';
import { keyValues, list } from '../../lib/providers/aws/model/annotations/parse.js';

const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/abc';

describe('annotation parsers', () => {
  it('lists and key=value maps as LBC reads them', () => {
    expect(list({ k: ' a, b,,a ' }, 'k')).toStrictEqual(['a', 'b']);
    expect(list({}, 'k')).toBeUndefined();
    expect(keyValues({ k: 'a=1, b = two=2 ,' }, 'k')).toStrictEqual({ a: '1', b: 'two=2' });
  });

  it('no annotations: the configured / LBC defaults', () => {
    expect(parseLoadBalancerAnnotations(undefined, ALB_KEYS)).toStrictEqual({});
    expect(albListeners(undefined, ALB_KEYS)).toStrictEqual({ listeners: [{ port: 80, protocol: 'HTTP' }] });
    expect(albHealthCheck(undefined, ALB_KEYS, DEFAULT_HEALTH_CHECK)).toStrictEqual({
      enabled: true,
      path: '/',
      port: 'traffic-port',
      protocol: 'HTTP',
      intervalSeconds: 15,
      timeoutSeconds: 5,
      healthyThresholdCount: 2,
      unhealthyThresholdCount: 2,
      matcher: { httpCode: '200' },
    });
    expect(nlbHealthCheck(undefined, NLB_KEYS)).toStrictEqual({
      enabled: true,
      port: 'traffic-port',
      protocol: 'TCP',
      intervalSeconds: 10,
      timeoutSeconds: 10,
      healthyThresholdCount: 3,
      unhealthyThresholdCount: 3,
    });
    expect(nlbTls(undefined, NLB_KEYS)).toBeUndefined();
  });

  it('NLB HTTP health checks get a path and success codes', () => {
    expect(nlbHealthCheck({ [NLB_KEYS.healthCheck.protocol]: 'http' }, NLB_KEYS)).toMatchObject({
      protocol: 'HTTP',
      path: '/',
      matcher: { httpCode: '200-399' },
    });
  });

  it('listen-ports are de-duplicated and sorted; HTTPS takes certificates or discovers them', () => {
    expect(
      albListeners(
        { [ALB_KEYS.listenPorts]: '[{"HTTPS":443},{"HTTP":80},{"HTTP":80}]', [ALB_KEYS.certificates]: CERT },
        ALB_KEYS,
      ),
    ).toStrictEqual({
      listeners: [
        { port: 80, protocol: 'HTTP' },
        { port: 443, protocol: 'HTTPS' },
      ],
      tls: { certificates: [CERT], sslPolicy: 'ELBSecurityPolicy-2016-08' },
    });
    // Without them, they are discovered in ACM by the hosts (model/certificates.ts).
    expect(albListeners({ [ALB_KEYS.listenPorts]: '[{"HTTPS":443}]' }, ALB_KEYS).tls?.discover).toBe(true);
  });

  it('target group attributes are checked per family', () => {
    expect(() =>
      targetGroupAttributes(
        { [NLB_KEYS.targetGroupAttributes]: 'slow_start.duration_seconds=30' },
        NLB_KEYS,
        'TCP',
      ),
    ).toThrow(/not a supported attribute/);
    expect(
      targetGroupAttributes(
        { [ALB_KEYS.targetGroupAttributes]: 'slow_start.duration_seconds=30' },
        ALB_KEYS,
        'HTTP',
      ),
    ).toStrictEqual({
      'slow_start.duration_seconds': '30',
    });
  });
});

describe('the README annotation tables', () => {
  const doc = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const keys = (k: Record<string, unknown>): string[] =>
    Object.values(k).flatMap((v) => (typeof v === 'string' ? [v] : keys(v as Record<string, unknown>)));
  it.each([
    ['ALB', keys(ALB_KEYS), 'alb.ingress.kubernetes.io/'],
    ['NLB', keys(NLB_KEYS), 'service.beta.kubernetes.io/aws-load-balancer-'],
  ])('lists every %s key in its table', (_, all, prefix) => {
    // A key ending in "." is a prefix: its row names the rest (`actions.<name>`).
    for (const key of all) {
      // load-balancer-source-ranges is LBC's one NLB key without the aws-load-balancer- part.
      const row = key.startsWith(prefix) ? key.slice(prefix.length) : key.slice(key.indexOf('/') + 1);
      expect(doc).toContain(`| \`${row.endsWith('.') ? `${row}<name>` : row}\` |`);
    }
  });
});
