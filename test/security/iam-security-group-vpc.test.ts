/**
 * CreateSecurityGroup is pinned to the configured VPCs. EC2 authorises it on the new security
 * group AND on the VPC it is created in; both carry `ec2:Vpc`, the VPC's ARN (`ArnEquals`, as the
 * IAM User Guide's VPC examples use it). Without the pin the role could create groups (tagged
 * ours) in any VPC of the account and open them to the internet.
 */
import { describe, expect, it } from 'vitest';
import { elbv2PolicyStatements } from '../../lib/providers/aws/iam.js';
import { INSTANCE_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { ACCOUNT, isAllowed, resolveCfn, type Statement } from './iam-eval.js';

const CONFIGURED = [
  { region: 'us-east-1', id: 'vpc-0abc12345678def00' },
  { region: 'eu-west-1', id: 'vpc-0fed98765432cba00' },
];
const reconcile = resolveCfn(
  elbv2PolicyStatements({
    ownerId: 'team-a',
    instanceId: 'instance-a',
    regions: CONFIGURED.map((v) => v.region),
    vpcs: CONFIGURED,
  }),
  ACCOUNT,
) as Statement[];

const vpcArn = (region: string, id: string) => `arn:aws:ec2:${region}:123456789012:vpc/${id}`;
const ours = {
  [`aws:RequestTag/${OWNER_TAG}`]: 'team-a',
  [`aws:RequestTag/${INSTANCE_TAG}`]: 'instance-a',
  'aws:TagKeys': [OWNER_TAG, INSTANCE_TAG],
};

/** CreateSecurityGroup in `vpc` of `region`: IAM checks the group's half and the VPC's half. */
function createAllowed(region: string, vpc: string): boolean {
  const context = { ...ours, 'ec2:Vpc': vpcArn(region, vpc) };
  const group = isAllowed(reconcile, {
    action: 'ec2:CreateSecurityGroup',
    resource: `arn:aws:ec2:${region}:123456789012:security-group/*`,
    context,
  });
  const inVpc = isAllowed(reconcile, {
    action: 'ec2:CreateSecurityGroup',
    resource: vpcArn(region, vpc),
    context,
  });
  return group && inVpc;
}

describe('CreateSecurityGroup only in the configured VPCs (ec2:Vpc)', () => {
  it('each Region’s configured VPC is allowed', () => {
    for (const v of CONFIGURED) expect(createAllowed(v.region, v.id), v.region).toBe(true);
  });

  it('another VPC of the account is denied, on both halves', () => {
    expect(createAllowed('eu-west-1', 'vpc-0123456789abcdef0')).toBe(false);
    const other = vpcArn('eu-west-1', 'vpc-0123456789abcdef0');
    expect(
      isAllowed(reconcile, {
        action: 'ec2:CreateSecurityGroup',
        resource: other,
        context: { 'ec2:Vpc': other },
      }),
    ).toBe(false);
    expect(
      isAllowed(reconcile, {
        action: 'ec2:CreateSecurityGroup',
        resource: 'arn:aws:ec2:eu-west-1:123456789012:security-group/*',
        context: { ...ours, 'ec2:Vpc': other },
      }),
    ).toBe(false);
  });

  it('one Region’s VPC is not allowed in the other Region', () => {
    expect(createAllowed('eu-west-1', 'vpc-0abc12345678def00')).toBe(false);
  });

  it('the group must still be tagged ours in its configured VPC', () => {
    const v = CONFIGURED[0]!;
    expect(
      isAllowed(reconcile, {
        action: 'ec2:CreateSecurityGroup',
        resource: `arn:aws:ec2:${v.region}:123456789012:security-group/*`,
        context: { 'ec2:Vpc': vpcArn(v.region, v.id) },
      }),
    ).toBe(false);
  });
});
