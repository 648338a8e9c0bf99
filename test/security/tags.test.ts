/**
 * Tags that decide ownership cannot come from configuration or an annotation: ours, AWS's, and
 * other controllers' (AWS Load Balancer Controller, Kubernetes cloud providers), compared without
 * regard to case, in both the annotation and the provider configuration's defaultTags.
 */
import { describe, expect, it } from 'vitest';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { userTags } from '../../lib/providers/aws/model/annotations/load-balancer.js';

const KEY = 'alb.ingress.kubernetes.io/tags';
const annotationTags = (tags: string) => () => userTags({ [KEY]: tags }, KEY);
const configWithDefaultTag = (key: string) => () =>
  parseAwsConfig(
    JSON.stringify({
      region: 'eu-west-1',
      vpc: { id: 'vpc-1', cidrs: ['10.0.0.0/16'] },
      subnets: ['subnet-1'],
      ownerId: 'team-a',
      defaultTags: { [key]: 'x' },
    }),
  );

describe('Reserved tag keys', () => {
  it('reserved tag prefixes are compared case-insensitively', async () => {
    for (const key of [
      'Multicluster.Karmada.io/owner',
      'MULTICLUSTER.KARMADA.IO/stack',
      'AWS:cloudformation:x',
    ]) {
      expect(annotationTags(`${key}=team-b`), key).toThrow(/reserved tag key/);
      await expect(configWithDefaultTag(key)(), key).rejects.toThrow(/reserved tag key/);
    }
  });

  it('defaultTags are checked against every reserved prefix, not only our exact keys', async () => {
    await expect(configWithDefaultTag('multicluster.karmada.io/team')()).rejects.toThrow(
      /defaultTags.* reserved tag key/,
    );
    await expect(configWithDefaultTag('team')()).resolves.toMatchObject({ defaultTags: { team: 'x' } });
  });

  it('other controllers’ ownership tags are refused', async () => {
    for (const key of [
      'elbv2.k8s.aws/cluster',
      'ingress.k8s.aws/stack',
      'service.k8s.aws/resource',
      'kubernetes.io/cluster/prod',
      'kubernetes.io/service-name',
    ]) {
      expect(annotationTags(`${key}=x`), key).toThrow(/another controller/);
      await expect(configWithDefaultTag(key)(), key).rejects.toThrow(/another controller/);
    }
  });

  it('ordinary keys pass, including ones that merely contain a reserved word', () => {
    expect(annotationTags('team=web,cost-center=42,my-kubernetes.io-note=x')()).toEqual({
      team: 'web',
      'cost-center': '42',
      'my-kubernetes.io-note': 'x',
    });
  });
});
