/**
 * Untagging cannot strip ownership. Removing the owner or instance tag from a resource of ours
 * would disown it (the next deployment with the same owner ID, or none, could then take it), so
 * every untag statement requires `aws:TagKeys` and excludes both keys. EC2's DeleteTags without a
 * `Tags` parameter removes *every* tag: its request has no `aws:TagKeys`, which a bare
 * `ForAllValues:StringNotEquals` lets through (ForAllValues of no value holds), so each untag
 * statement also requires the key to be there (`Null: false`).
 */
import { describe, expect, it } from 'vitest';
import { elbv2PolicyStatements } from '../../lib/providers/aws/iam.js';
import { INSTANCE_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { ACCOUNT, isAllowed, resolveCfn, type Statement } from './iam-eval.js';

const reconcile = resolveCfn(
  elbv2PolicyStatements({ ownerId: 'team-a', instanceId: 'instance-a', globalAccelerator: true }),
  ACCOUNT,
) as Statement[];

const ours = {
  [`aws:ResourceTag/${OWNER_TAG}`]: 'team-a',
  [`aws:ResourceTag/${INSTANCE_TAG}`]: 'instance-a',
};
const GROUP = 'arn:aws:ec2:eu-west-1:123456789012:security-group/sg-0123456789abcdef0';
const ACCELERATOR =
  'arn:aws:globalaccelerator::123456789012:accelerator/1234abcd-abcd-1234-abcd-1234abcd5678';
const TARGET_GROUP = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/k8s-x/0123456789abcdef';

/** An untag request; `keys` undefined: the request names no keys at all. */
const untag = (action: string, resource: string, keys?: string[]) => ({
  action,
  resource,
  context: { ...ours, ...(keys ? { 'aws:TagKeys': keys } : {}) },
});

describe('untagging never strips the owner or instance tag', () => {
  it('EC2 DeleteTags without Tags (remove every tag) is denied on our security groups', () => {
    expect(isAllowed(reconcile, untag('ec2:DeleteTags', GROUP))).toBe(false);
    expect(isAllowed(reconcile, untag('ec2:DeleteTags', GROUP, []))).toBe(false);
  });

  it('EC2 DeleteTags of the owner or instance key is denied; of any other key, allowed', () => {
    expect(isAllowed(reconcile, untag('ec2:DeleteTags', GROUP, [OWNER_TAG]))).toBe(false);
    expect(isAllowed(reconcile, untag('ec2:DeleteTags', GROUP, ['team', INSTANCE_TAG]))).toBe(false);
    expect(isAllowed(reconcile, untag('ec2:DeleteTags', GROUP, ['team', 'cost-center']))).toBe(true);
  });

  it('Global Accelerator UntagResource of the owner or instance key is denied; of any other key, allowed', () => {
    const ga = (keys?: string[]) => untag('globalaccelerator:UntagResource', ACCELERATOR, keys);
    expect(isAllowed(reconcile, ga([OWNER_TAG]))).toBe(false);
    expect(isAllowed(reconcile, ga([INSTANCE_TAG]))).toBe(false);
    expect(isAllowed(reconcile, ga(['team', OWNER_TAG]))).toBe(false);
    expect(isAllowed(reconcile, ga())).toBe(false);
    expect(isAllowed(reconcile, ga(['team']))).toBe(true);
    // Only our accelerators, whatever the keys.
    expect(
      isAllowed(reconcile, {
        action: 'globalaccelerator:UntagResource',
        resource: ACCELERATOR,
        context: { [`aws:ResourceTag/${OWNER_TAG}`]: 'team-b', 'aws:TagKeys': ['team'] },
      }),
    ).toBe(false);
  });

  it('ELBv2 RemoveTags names its keys, never the owner or instance key', () => {
    const remove = (keys?: string[]) => untag('elasticloadbalancing:RemoveTags', TARGET_GROUP, keys);
    expect(isAllowed(reconcile, remove())).toBe(false);
    expect(isAllowed(reconcile, remove([OWNER_TAG]))).toBe(false);
    expect(isAllowed(reconcile, remove(['team']))).toBe(true);
  });
});
