/**
 * The edge annotations in the model: wafv2-acl-arn / wafv2-acl-name / shield-advanced-protection
 * (annotations/edge.ts) and certificate discovery (model/certificates.ts), with the ALB stack they
 * build and the record tags that let removing an annotation undo what we did.
 */
import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import { buildIngressStack } from '../../lib/providers/aws/index.js';
import { edgeSettings } from '../../lib/providers/aws/model/annotations/edge.js';
import { ALB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import {
  certificateNameCovers,
  discoverCertificates,
  discoveryHosts,
} from '../../lib/providers/aws/model/certificates.js';
import { LOAD_BALANCER_ID, resourcesOf, ResourceTypes } from '../../lib/providers/aws/model/types.js';
import { SHIELD_TAG, WAF_TAG } from '../../lib/providers/aws/tagging.js';
import { minimalIngress, service } from '../fixtures/aws/objects.js';
import { simConfig } from '../integration/aws-env.js';

const ACL = 'arn:aws:wafv2:us-east-1:123456789012:regional/webacl/edge/0123abcd-0000-4000-8000-000000000000';

function refusal(fn: () => unknown): InvalidObjectError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidObjectError);
    return e as InvalidObjectError;
  }
  throw new Error('expected an InvalidObjectError');
}

describe('edge annotations', () => {
  const parse = (a: Record<string, string>) => edgeSettings(a, ALB_KEYS, 'us-east-1');

  it('reads an ACL by ARN or name, none, and the protection flag', () => {
    expect(parse({})).toStrictEqual({});
    expect(parse({ [ALB_KEYS.wafv2AclArn]: ACL })).toStrictEqual({ webAcl: { kind: 'arn', arn: ACL } });
    expect(parse({ [ALB_KEYS.wafv2AclName]: 'edge_1-a' })).toStrictEqual({
      webAcl: { kind: 'name', name: 'edge_1-a' },
    });
    expect(parse({ [ALB_KEYS.wafv2AclArn]: 'none' })).toStrictEqual({ webAcl: { kind: 'none' } });
    expect(parse({ [ALB_KEYS.wafv2AclName]: 'none' })).toStrictEqual({ webAcl: { kind: 'none' } });
    expect(parse({ [ALB_KEYS.shieldAdvancedProtection]: 'True' })).toStrictEqual({ shieldAdvanced: true });
    expect(parse({ [ALB_KEYS.shieldAdvancedProtection]: 'false' })).toStrictEqual({ shieldAdvanced: false });
  });

  it.each([
    [
      { [ALB_KEYS.wafv2AclArn]: ACL.replace('us-east-1', 'eu-west-1') },
      ALB_KEYS.wafv2AclArn,
      'is in Region eu-west-1',
    ],
    [
      { [ALB_KEYS.wafv2AclArn]: ACL.replace('regional', 'global') },
      ALB_KEYS.wafv2AclArn,
      'CloudFront (global) web ACL',
    ],
    [{ [ALB_KEYS.wafv2AclArn]: 'edge' }, ALB_KEYS.wafv2AclArn, 'is not a WAFv2 web ACL ARN'],
    [{ [ALB_KEYS.wafv2AclName]: 'a b' }, ALB_KEYS.wafv2AclName, 'is not a WAFv2 web ACL name'],
    [
      { [ALB_KEYS.wafv2AclArn]: ACL, [ALB_KEYS.wafv2AclName]: 'edge' },
      ALB_KEYS.wafv2AclName,
      'cannot be given with',
    ],
    [
      { [ALB_KEYS.shieldAdvancedProtection]: 'on' },
      ALB_KEYS.shieldAdvancedProtection,
      'must be one of true, false',
    ],
  ])('refuses %j naming the key', (annotations, key, text) => {
    const e = refusal(() => parse(annotations));
    expect(e.field).toBe(key);
    expect(e.reason).toBe('InvalidAnnotation');
    expect(e.message).toContain(text);
  });

  it('puts them on the load balancer with the record tags, and none without them', () => {
    const lbOf = (annotations: Record<string, string>) => {
      const mci = minimalIngress();
      const stack = buildIngressStack({
        mci: { ...mci, metadata: { ...mci.metadata, annotations } },
        services: [service('serve')],
        endpointSlices: [],
        config: simConfig,
      });
      return resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID)!.spec;
    };
    const plain = lbOf({});
    expect(plain.webAcl).toBeUndefined();
    expect(plain.shieldAdvanced).toBeUndefined();
    expect(Object.keys(plain.tags)).not.toContain(WAF_TAG);
    const edge = lbOf({ [ALB_KEYS.wafv2AclArn]: ACL, [ALB_KEYS.shieldAdvancedProtection]: 'true' });
    expect(edge).toMatchObject({ webAcl: { kind: 'arn', arn: ACL }, shieldAdvanced: true });
    expect(edge.tags).toMatchObject({ [WAF_TAG]: 'managed', [SHIELD_TAG]: 'managed' });
    // `none` and `false` are asked for, but record nothing of ours.
    const off = lbOf({ [ALB_KEYS.wafv2AclArn]: 'none', [ALB_KEYS.shieldAdvancedProtection]: 'false' });
    expect(off).toMatchObject({ webAcl: { kind: 'none' }, shieldAdvanced: false });
    expect(Object.keys(off.tags)).not.toContain(WAF_TAG);
    expect(Object.keys(off.tags)).not.toContain(SHIELD_TAG);
  });
});

describe('certificate discovery', () => {
  it.each([
    ['www.example.com', 'www.example.com', true],
    ['*.example.com', 'www.example.com', true],
    ['*.example.com', 'example.com', false],
    ['*.example.com', 'a.b.example.com', false],
    ['*.example.com', '*.example.com', true],
    ['www.example.com', 'WWW.example.org', false],
    ['example.com', 'www.example.com', false],
  ])('%s covers %s: %s', (name, host, covers) => {
    expect(certificateNameCovers(name, host)).toBe(covers);
  });

  it('takes the rule hosts and spec.tls hosts of every member, sorted, once each', () => {
    const a = minimalIngress({
      spec: { tls: [{ hosts: ['b.example.com', 'a.example.com'] }], rules: [{ host: 'a.example.com' }] },
    });
    const b = minimalIngress({ spec: { rules: [{ host: 'c.example.com' }, {}] } });
    expect(discoveryHosts([a, b])).toEqual(['a.example.com', 'b.example.com', 'c.example.com']);
  });

  it('gives every certificate covering a host, sorted, and names the key for a host none covers', () => {
    const catalog = [
      { arn: 'arn:c', names: ['*.example.com'] },
      { arn: 'arn:a', names: ['shop.example.net', 'www.shop.example.net'] },
      { arn: 'arn:b', names: ['www.example.com'] },
    ];
    expect(
      discoverCertificates(['www.example.com', 'shop.example.net'], catalog, ALB_KEYS.certificates),
    ).toEqual(['arn:a', 'arn:b', 'arn:c']);
    const e = refusal(() => discoverCertificates(['x.y.example.com'], catalog, ALB_KEYS.certificates));
    expect(e.field).toBe(ALB_KEYS.certificates);
    expect(e.message).toContain('no issued ACM certificate in this Region covers "x.y.example.com"');
    expect(refusal(() => discoverCertificates([], catalog, ALB_KEYS.certificates)).message).toContain(
      'an HTTPS listener needs a certificate',
    );
  });

  it('keeps to the certificates every tenant policy rule allows: the allowed one of two, a refusal naming host and rule when none', () => {
    const catalog = [
      { arn: 'arn:team-a/wild', names: ['*.example.com'] },
      { arn: 'arn:team-b/www', names: ['www.example.com'] },
      { arn: 'arn:team-b/shop', names: ['shop.example.com'] },
    ];
    const onlyA = { rules: [{ name: 'team-a-certs', arns: ['arn:team-a/*'] }] };
    // Without the policy both cover www; with it only team A's is a candidate.
    expect(discoverCertificates(['www.example.com'], catalog, ALB_KEYS.certificates)).toEqual([
      'arn:team-a/wild',
      'arn:team-b/www',
    ]);
    expect(discoverCertificates(['www.example.com'], catalog, ALB_KEYS.certificates, onlyA)).toEqual([
      'arn:team-a/wild',
    ]);
    // Every rule must allow a candidate: two rules that allow nothing in common leave none.
    const both = { rules: [...onlyA.rules, { name: 'shop-only', arns: ['arn:*/shop'] }] };
    const e = refusal(() => discoverCertificates(['www.example.com'], catalog, ALB_KEYS.certificates, both));
    expect(e.field).toBe(ALB_KEYS.certificates);
    expect(e.reason).toBe('TenantPolicyViolation');
    expect(e.message).toContain(
      'host "www.example.com" is covered only by ACM certificates the tenant policy does not allow (arn:team-a/wild, arn:team-b/www;',
    );
    expect(e.message).toContain('forbidden by tenant policy rules "team-a-certs", "shop-only"');
    expect(
      discoverCertificates(['shop.example.com'], catalog, ALB_KEYS.certificates, {
        rules: [{ name: 'shop-only', arns: ['arn:*/shop'] }],
      }),
    ).toEqual(['arn:team-b/shop']);
    // A host nothing covers is still the plain "no certificate" error, whatever the policy.
    expect(
      refusal(() => discoverCertificates(['a.b.example.com'], catalog, ALB_KEYS.certificates, onlyA)).reason,
    ).toBe('InvalidAnnotation');
  });

  it('an HTTPS listener without certificate-arn is refused when no certificates were read, and built from them when they were', () => {
    const mci = minimalIngress({
      spec: {
        rules: [
          {
            host: 'www.example.com',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'serve', port: { number: 80 } } },
                },
              ],
            },
          },
        ],
      },
    });
    const https = {
      ...mci,
      metadata: { ...mci.metadata, annotations: { [ALB_KEYS.listenPorts]: '[{"HTTPS":443}]' } },
    };
    const input = { mci: https, services: [service('serve')], endpointSlices: [] };
    expect(refusal(() => buildIngressStack({ ...input, config: simConfig })).field).toBe(
      ALB_KEYS.certificates,
    );
    const stack = buildIngressStack({
      ...input,
      config: {
        ...simConfig,
        certificates: [{ arn: 'arn:aws:acm:us-east-1:123456789012:certificate/w', names: ['*.example.com'] }],
      },
    });
    const [listener] = resourcesOf(stack, ResourceTypes.Listener);
    expect(listener?.spec.certificates).toEqual(['arn:aws:acm:us-east-1:123456789012:certificate/w']);
    expect(listener?.spec).not.toHaveProperty('discover');
  });
});
