/**
 * One IAM role per function, each holding only what that function's code calls:
 *
 * | function     | ELBv2 (and the Tagging API)                                    | queue                                  |
 * | sqs          | reconcile: every action, and tag:GetResources                  | consume (event source) + delay (retry) |
 * | invoke, http | reconcile: every action, and tag:GetResources                  | -                                      |
 * | resync       | tag:GetResources, or DescribeLoadBalancers + DescribeTags      | send                                   |
 * | sweep        | sweep: list + delete                                           | -                                      |
 *
 * Every role also reads the kubeconfig (exactly the configured secret, or the SSM parameter and
 * the KMS decryption SSM does for it) and writes its own log group. test/security/function-roles
 * runs each handler against the simulators and checks its role equals what it called.
 *
 * The roles follow the provider configuration (roleOptionsOf): its Regions, its VPCs and whether
 * it configures Global Accelerator. `osls package` generates them from the configuration it
 * packages (infra/serverless/plugin.js); scripts/gen-iam.ts writes infra/iam/function-roles.json,
 * the roles of a deployment without a provider configuration (the deployment's Region, no Global
 * Accelerator), which serverless.yml includes for the fake provider.
 */
import { configuredRegions, type AwsProviderConfig } from '../../lib/providers/aws/config.js';
import {
  deploymentArn,
  elbv2PolicyStatements,
  type Elbv2Access,
  type PolicyResource,
  type VpcOfRegion,
} from '../../lib/providers/aws/iam.js';

export const FUNCTION_NAMES = ['http', 'invoke', 'resync', 'sqs', 'sweep'] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

/** What each function does with the notification queue. */
type QueueUse = 'consume' | 'delay' | 'send';

interface FunctionAccess {
  elbv2?: Elbv2Access;
  queue?: readonly QueueUse[];
}

export const FUNCTION_ACCESS: Record<FunctionName, FunctionAccess> = {
  sqs: { elbv2: 'reconcile', queue: ['consume', 'delay'] },
  invoke: { elbv2: 'reconcile' },
  http: { elbv2: 'reconcile' },
  resync: { elbv2: 'resync', queue: ['send'] },
  sweep: { elbv2: 'sweep' },
};

/** The SQS actions behind each use (SendMessageBatch is authorised as sqs:SendMessage). */
export const QUEUE_ACTIONS: Record<QueueUse, readonly string[]> = {
  // The Lambda event source mapping polls with the function's role.
  consume: ['sqs:DeleteMessage', 'sqs:GetQueueAttributes', 'sqs:ReceiveMessage'],
  // lib/runtime/sqs-retry.ts: a failed message comes back later, not at once.
  delay: ['sqs:ChangeMessageVisibility'],
  // lib/maintenance/resync.ts through the SQS sink.
  send: ['sqs:SendMessage'],
};

/**
 * Serverless parameters the roles are rendered with: in infra/iam/function-roles.json as the
 * `${param:…}` variables Serverless resolves; at package time, their resolved values
 * (serverless.yml's `custom.iamParameters`, the same names).
 */
export const PARAMETERS = {
  ownerId: '${param:awsOwnerId}',
  instanceId: '${param:karmadaInstanceId}',
  allowedSchemes: '${param:awsAllowedSchemes}',
  allowedSubnets: '${param:awsAllowedSubnets}',
  allowedSecurityGroups: '${param:awsAllowedSecurityGroups}',
  kubeconfigSecretId: '${param:kubeconfigSecretId}',
  kubeconfigParameter: '${param:kubeconfigParameter}',
  functionPrefix: '${self:service}-${sls:stage}',
} as const;

export type RoleParameters = { readonly [K in keyof typeof PARAMETERS]: string };

/** What the provider configuration changes in the roles. */
export interface RoleOptions {
  /** Every regional ARN once per Region; absent: the deployment's Region. */
  regions?: readonly string[];
  /** Global Accelerator's statements; absent: none. */
  globalAccelerator?: boolean;
  /** CreateSecurityGroup only in these VPCs; absent: any VPC of the Region. */
  vpcs?: readonly VpcOfRegion[];
}

/** The roles a provider configuration needs: its Regions, its VPCs, Global Accelerator if configured. */
export function roleOptionsOf(config: AwsProviderConfig): RoleOptions {
  const regions = configuredRegions(config);
  return {
    regions: regions.map((r) => r.region),
    globalAccelerator: config.globalAccelerator !== undefined,
    vpcs: regions.map((r) => ({ region: r.region, id: r.vpc.id })),
  };
}

/** CloudFormation conditions the roles use (serverless.yml's resources.Conditions). */
export function roleConditions(p: RoleParameters = PARAMETERS) {
  return {
    KubeconfigFromSecretsManager: { 'Fn::Not': [{ 'Fn::Equals': [p.kubeconfigSecretId, ''] }] },
    KubeconfigSecretIsArn: {
      'Fn::Equals': [{ 'Fn::Select': [0, { 'Fn::Split': [':', `${p.kubeconfigSecretId}:`] }] }, 'arn'],
    },
    KubeconfigFromSsm: { 'Fn::Not': [{ 'Fn::Equals': [p.kubeconfigParameter, ''] }] },
    PinSchemes: { 'Fn::Not': [{ 'Fn::Equals': [p.allowedSchemes, ''] }] },
    PinSubnets: { 'Fn::Not': [{ 'Fn::Equals': [p.allowedSubnets, ''] }] },
    PinSecurityGroups: { 'Fn::Not': [{ 'Fn::Equals': [p.allowedSecurityGroups, ''] }] },
  } as const;
}
export const CONDITIONS = roleConditions();

/**
 * The IAM backstop of the tenant policy: the schemes, subnets and security groups any load
 * balancer of this deployment may have (comma-separated parameters; empty pins nothing, `*`).
 */
const pinned = (condition: keyof typeof CONDITIONS, parameter: string) => ({
  'Fn::If': [condition, { 'Fn::Split': [',', parameter] }, ['*']],
});
const guardrails = (p: RoleParameters) => ({
  schemes: pinned('PinSchemes', p.allowedSchemes),
  subnets: pinned('PinSubnets', p.allowedSubnets),
  securityGroups: pinned('PinSecurityGroups', p.allowedSecurityGroups),
});

export interface RoleStatement {
  Sid: string;
  Effect: 'Allow';
  Action: string[];
  Resource: Array<PolicyResource | Record<string, unknown>>;
  Condition?: Record<string, Record<string, unknown>>;
}

const NO_VALUE = { Ref: 'AWS::NoValue' };
const when = (condition: keyof typeof CONDITIONS, s: RoleStatement) => ({
  'Fn::If': [condition, s, NO_VALUE],
});

/**
 * The kubeconfig: a Secrets Manager secret named by its name (whose ARN ends in `-` and six random
 * characters, hence `-??????`: a prefix match would also grant `<name>-other`) or by its full ARN;
 * or an SSM SecureString parameter, with the KMS decryption SSM performs for exactly that parameter.
 */
function kubeconfigStatements(p: RoleParameters): unknown[] {
  const secretArn = deploymentArn('secretsmanager', `secret:${p.kubeconfigSecretId}-??????`);
  // The parameter's full name starts with "/" (serverless.yml says so), and its ARN is
  // `parameter` followed by that name.
  const parameterArn = deploymentArn('ssm', `parameter${p.kubeconfigParameter}`);
  return [
    when('KubeconfigFromSecretsManager', {
      Sid: 'ReadKubeconfigSecret',
      Effect: 'Allow',
      Action: ['secretsmanager:GetSecretValue'],
      Resource: [{ 'Fn::If': ['KubeconfigSecretIsArn', p.kubeconfigSecretId, secretArn] }],
    }),
    when('KubeconfigFromSsm', {
      Sid: 'ReadKubeconfigParameter',
      Effect: 'Allow',
      Action: ['ssm:GetParameter'],
      Resource: [parameterArn],
    }),
    when('KubeconfigFromSsm', {
      Sid: 'DecryptKubeconfigParameter',
      Effect: 'Allow',
      Action: ['kms:Decrypt'],
      Resource: [deploymentArn('kms', 'key/*')],
      Condition: {
        StringEquals: {
          'kms:ViaService': { 'Fn::Sub': 'ssm.${AWS::Region}.amazonaws.com' },
          // SSM puts the parameter's ARN in the encryption context: only this parameter decrypts.
          'kms:EncryptionContext:PARAMETER_ARN': parameterArn,
        },
      },
    }),
  ];
}

function logStatement(fn: FunctionName, p: RoleParameters): RoleStatement {
  return {
    Sid: 'WriteOwnLogs',
    Effect: 'Allow',
    Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
    Resource: [deploymentArn('logs', `log-group:/aws/lambda/${p.functionPrefix}-${fn}:*`)],
  };
}

function queueStatements(uses: readonly QueueUse[]): RoleStatement[] {
  if (!uses.length) return [];
  return [
    {
      Sid: 'UseNotificationQueue',
      Effect: 'Allow',
      Action: uses.flatMap((u) => QUEUE_ACTIONS[u]).sort(),
      Resource: [{ 'Fn::GetAtt': ['NotificationQueue', 'Arn'] }],
    },
  ];
}

/** Every statement of one function's role (some wrapped in Fn::If on the kubeconfig source). */
export function functionRoleStatements(
  fn: FunctionName,
  options: RoleOptions = {},
  p: RoleParameters = PARAMETERS,
): unknown[] {
  const access = FUNCTION_ACCESS[fn];
  return [
    logStatement(fn, p),
    ...kubeconfigStatements(p),
    ...queueStatements(access.queue ?? []),
    ...(access.elbv2
      ? elbv2PolicyStatements(
          {
            ownerId: p.ownerId,
            instanceId: p.instanceId,
            guardrails: guardrails(p),
            ...(options.regions ? { regions: options.regions } : {}),
            ...(options.globalAccelerator ? { globalAccelerator: true } : {}),
            ...(options.vpcs ? { vpcs: options.vpcs } : {}),
          },
          access.elbv2,
        )
      : []),
  ];
}

/** `sqs` → `SqsFunctionRole`, the logical ID serverless.yml's `role:` names. */
export function roleLogicalId(fn: FunctionName): string {
  return `${fn[0]!.toUpperCase()}${fn.slice(1)}FunctionRole`;
}

/**
 * The CloudFormation resources, plus the conditions they use: without options and parameters,
 * infra/iam/function-roles.json; at package time, a configuration's (roleOptionsOf) with the
 * resolved parameter values.
 */
export function functionRolesDocument(options: RoleOptions = {}, p: RoleParameters = PARAMETERS) {
  const roles = Object.fromEntries(
    FUNCTION_NAMES.map((fn) => [
      roleLogicalId(fn),
      {
        Type: 'AWS::IAM::Role',
        Properties: {
          Description: `${fn} function of ${p.functionPrefix}: only what its code calls`,
          AssumeRolePolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
            ],
          },
          Policies: [
            {
              PolicyName: `${fn}-function`,
              PolicyDocument: { Version: '2012-10-17', Statement: functionRoleStatements(fn, options, p) },
            },
          ],
        },
      },
    ]),
  );
  return { Conditions: roleConditions(p), Roles: roles };
}
