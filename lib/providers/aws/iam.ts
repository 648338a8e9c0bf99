/**
 * The minimal IAM policy for the provider's ELBv2 calls. ELBv2's Describe* actions are not
 * resource-scoped (they need Resource "*"); every mutating action is limited to resources carrying
 * this deployment's owner tag, and creation to requests that set it, so the function can never
 * change a load balancer it does not own, even with a bug. test/unit/aws-iam.test.ts checks that
 * the code calls exactly these actions; scripts/gen-iam.ts writes infra/iam/elbv2-policy.json.
 */
import type { MutatingAction } from './deploy/operations.js';
import { OWNER_TAG } from './tagging.js';

export const ELBV2_DESCRIBE_ACTIONS = [
  'DescribeListenerCertificates',
  'DescribeListeners',
  'DescribeLoadBalancerAttributes',
  'DescribeLoadBalancers',
  'DescribeRules',
  'DescribeTags',
  'DescribeTargetGroupAttributes',
  'DescribeTargetGroups',
  'DescribeTargetHealth',
] as const;

/** The Resource Groups Tagging API's read (a stack by its tags, outside the ELBv2 budget). */
export const TAGGING_ACTIONS = ['GetResources'] as const;

const CREATE_ACTIONS = ['CreateListener', 'CreateLoadBalancer', 'CreateRule', 'CreateTargetGroup'] as const;

const ON_OWNED_ACTIONS = [
  'AddListenerCertificates',
  'AddTags',
  'DeleteListener',
  'DeleteLoadBalancer',
  'DeleteRule',
  'DeleteTargetGroup',
  'DeregisterTargets',
  'ModifyListener',
  'ModifyLoadBalancerAttributes',
  'ModifyRule',
  'ModifyTargetGroup',
  'ModifyTargetGroupAttributes',
  'RegisterTargets',
  'RemoveListenerCertificates',
  'RemoveTags',
  'SetRulePriorities',
  'SetSecurityGroups',
  'SetSubnets',
] as const;

/** Every mutating action the code may call (typed against the plan's action list). */
export const ELBV2_MUTATING_ACTIONS: readonly MutatingAction[] = [
  ...CREATE_ACTIONS,
  ...ON_OWNED_ACTIONS,
].sort();

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow';
  Action: string[];
  Resource: string;
  Condition?: Record<string, Record<string, string | string[]>>;
}

const elb = (actions: readonly string[]) => actions.map((a) => `elasticloadbalancing:${a}`);

/**
 * The statements, for one owner ID (the configuration's `ownerId`; pass a template such as
 * `${self:custom.awsOwnerId}` to render it for serverless.yml).
 */
export function elbv2PolicyStatements(ownerId: string): PolicyStatement[] {
  return [
    {
      Sid: 'ElbV2Describe',
      Effect: 'Allow',
      Action: elb(ELBV2_DESCRIBE_ACTIONS),
      Resource: '*',
    },
    {
      // GetResources has no resource-level permissions; it only reads tags.
      Sid: 'TaggingReadStacks',
      Effect: 'Allow',
      Action: TAGGING_ACTIONS.map((a) => `tag:${a}`),
      Resource: '*',
    },
    {
      Sid: 'ElbV2CreateTaggedAsOurs',
      Effect: 'Allow',
      Action: elb(CREATE_ACTIONS),
      Resource: '*',
      Condition: { StringEquals: { [`aws:RequestTag/${OWNER_TAG}`]: ownerId } },
    },
    {
      // Tag-on-create is authorised as AddTags on the new resource, which has no tags yet.
      Sid: 'ElbV2TagOnCreate',
      Effect: 'Allow',
      Action: elb(['AddTags']),
      Resource: '*',
      Condition: {
        StringEquals: {
          'elasticloadbalancing:CreateAction': [...CREATE_ACTIONS],
          [`aws:RequestTag/${OWNER_TAG}`]: ownerId,
        },
      },
    },
    {
      Sid: 'ElbV2ChangeOwned',
      Effect: 'Allow',
      Action: elb(ON_OWNED_ACTIONS),
      Resource: '*',
      Condition: { StringEquals: { [`aws:ResourceTag/${OWNER_TAG}`]: ownerId } },
    },
  ];
}

/** The policy document as written to infra/iam/elbv2-policy.json. */
export function elbv2PolicyDocument(ownerId: string): {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
} {
  return { Version: '2012-10-17', Statement: elbv2PolicyStatements(ownerId) };
}
