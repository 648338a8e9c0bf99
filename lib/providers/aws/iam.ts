/**
 * The minimal IAM statements for the provider's ELBv2 calls, one statement per resource type an
 * action is authorised on, each scoped to the deployment's partition, account and Region.
 *
 * Reading of the Service Authorization Reference for Elastic Load Balancing V2
 * (service-authorization/latest/reference/list_awselasticloadbalancingv2), recorded next to each
 * statement below: which resource type the action is authorised against, and which condition keys
 * that action and resource type support. The rules that follow from it:
 * - Describe* actions support no resource type: Resource must be "*", and they only read.
 * - A create names the resource type it creates (loadbalancer, targetgroup), except the child
 *   creates: CreateListener is authorised on the PARENT load balancer, CreateRule on the PARENT
 *   listener. Both support aws:ResourceTag (the parent's tags) and aws:RequestTag (the tags in the
 *   request), so a child create requires both: our owner tag in the request AND on the parent.
 *   Without the parent's tag the role could add a listener to any load balancer in the account, or
 *   a priority-1 rule to another application's listener, as long as it tagged the new child ours.
 * - Tag-on-create is authorised as AddTags on the new resource, with elasticloadbalancing:CreateAction.
 * - Every other mutation is authorised on the resource it changes and supports aws:ResourceTag.
 * - The Resource Groups Tagging API's GetResources lists no resource type either: Resource "*",
 *   and it only reads tags.
 * - EC2's DescribeVpcs and DescribeSubnets (the VPC's CIDRs and subnets, vpc-network.ts) and
 *   DescribeSecurityGroups list no resource type and support no tag condition key (EC2's
 *   Describe* cannot be scoped by tag at all): Resource "*", unscoped, and they only read.
 * - The managed security groups (ec2/security-groups.ts): CreateSecurityGroup is authorised on the
 *   new group (our tags in the request) and on the VPC it is created in; both support ec2:Vpc,
 *   the VPC's ARN, which pins them to the configured VPCs (ArnEquals). Tag-on-create is CreateTags
 *   with ec2:CreateAction, and every other change requires our tags on the group.
 * - Untagging (ELBv2 RemoveTags, EC2 DeleteTags, GA UntagResource) never removes the owner or
 *   instance tag: aws:TagKeys must be there (Null false: EC2's DeleteTags without Tags removes
 *   every tag, and ForAllValues of no key holds) and name neither.
 * - WAFv2 (service-authorization .../list_awswafv2): ListWebACLs lists no resource type
 *   (Resource "*"); GetWebACLForResource, AssociateWebACL and DisassociateWebACL are authorised on
 *   the web ACL (regional/webacl) and the resource (ELBv2's loadbalancer/app), and support no
 *   condition key that reads the load balancer's tags: UNSCOPED by tag. What scopes them is the
 *   permission WAFv2 checks on the load balancer itself when associating or disassociating,
 *   elasticloadbalancing:SetWebAcl, which supports aws:ResourceTag: only our load balancers.
 *   The code never sends SetWebAcl itself (IMPLIED_ACTIONS).
 * - Shield Advanced (list_awsshield): GetSubscriptionState and DescribeProtection (by resource
 *   ARN: the protection is not known yet) list no resource type that can be narrowed (Resource
 *   "*"), and only read; ListTagsForResource is authorised on the protection. CreateProtection
 *   supports aws:RequestTag (our owner tag in the request), DeleteProtection aws:ResourceTag (ours
 *   only). Tags on create are authorised as shield:TagResource (the reference's table of API
 *   operations lists it for CreateProtection; IMPLIED_ACTIONS), with aws:RequestTag and, since
 *   Shield has no key saying "on create", only on a protection that has no owner or instance tag
 *   yet (Null aws:ResourceTag/…): otherwise the role could tag another deployment's protection as
 *   ours and delete it. Shield's ARNs have no Region: protection/<id> in the account.
 * - ACM (list_awscertificatemanager): ListCertificates lists no resource type (Resource "*");
 *   DescribeCertificate is authorised on the certificate, which is the account's (not ours): not
 *   scoped by our tag. Both only read, for certificate discovery.
 * - Global Accelerator (list_awsglobalaccelerator): its ARNs have no Region (the API is in
 *   us-west-2 whatever the endpoints' Regions) and only the accelerator resource type supports
 *   aws:ResourceTag (listeners and endpoint groups carry no tags). ListAccelerators lists no
 *   resource type (Resource "*"); CreateAccelerator has none either and supports aws:RequestTag
 *   (our owner tag in the request); its tags are authorised as TagResource on the new accelerator
 *   (the reference's table of API operations lists it for CreateAccelerator), allowed as for
 *   Shield only on an accelerator without an owner or instance tag, and only to the reconciling
 *   roles. Everything authorised on the accelerator (DescribeAccelerator, UpdateAccelerator,
 *   DeleteAccelerator, ListListeners, CreateListener, TagResource, UntagResource) is scoped by our
 *   tag on it, so a listener can only be added to our accelerator; TagResource cannot change the
 *   owner or instance tag, UntagResource cannot remove them, and the sweep holds no TagResource
 *   (it disables an orphan's accelerator unmarked: no object can take it back);
 *   ListTagsForResource reads the account's accelerators' tags to find ours (unscoped). What is
 *   authorised on a listener (UpdateListener, DeleteListener, ListEndpointGroups,
 *   CreateEndpointGroup) or an endpoint group (UpdateEndpointGroup, DeleteEndpointGroup) has no
 *   tag condition key: confined to GA's ARNs, not to ours; the code only acts on the listeners of
 *   an accelerator it found by our tags. GA creates its service-linked role at the first
 *   accelerator of an account: iam:CreateServiceLinkedRole, for globalaccelerator.amazonaws.com only.
 *   These statements are generated only for a deployment that configures Global Accelerator
 *   (`globalAccelerator` in the provider configuration): an accelerator is public exposure.
 *   Global Accelerator's actions are named with their prefix here (`globalaccelerator:…`): several
 *   share a name with ELBv2's or Shield's (CreateListener, TagResource, ListTagsForResource).
 * - CreateLoadBalancer supports elasticloadbalancing:Scheme, :Subnet and :SecurityGroup, SetSubnets
 *   :Subnet, SetSecurityGroups :SecurityGroup; the operator's tenant policy pins them here too.
 *
 * test/unit/aws-iam.test.ts checks the code calls exactly these actions; test/security/iam.test.ts
 * evaluates the statements like IAM does; scripts/gen-iam.ts writes infra/iam/.
 */
import { EC2_MUTATING_ACTIONS, type Ec2MutatingAction, type MutatingAction } from './deploy/operations.js';
import { INSTANCE_TAG, OWNER_TAG } from './tagging.js';

export const ELBV2_DESCRIBE_ACTIONS = [
  'DescribeAccountLimits',
  'DescribeCapacityReservation',
  'DescribeListenerAttributes',
  'DescribeListenerCertificates',
  'DescribeListeners',
  'DescribeLoadBalancerAttributes',
  'DescribeLoadBalancers',
  'DescribeRules',
  'DescribeTags',
  'DescribeTargetGroupAttributes',
  'DescribeTargetGroups',
  'DescribeTargetHealth',
  // Trust stores are only read (mutual TLS names them), never changed: no trust-store statement.
  'DescribeTrustStores',
] as const;

export type Elbv2Action = (typeof ELBV2_DESCRIBE_ACTIONS)[number] | MutatingAction;

/** The Resource Groups Tagging API's read (deploy/stack-tags.ts: a stack by its tags, outside the ELBv2 budget). */
export const TAGGING_ACTIONS = ['GetResources'] as const;
export type TaggingAction = (typeof TAGGING_ACTIONS)[number];

/**
 * EC2's reads, unscoped (see the module comment): the target groups' VPC (ec2/vpc-reader.ts) and
 * the managed security groups (ec2/security-groups.ts).
 */
export const EC2_ACTIONS = ['DescribeSecurityGroups', 'DescribeSubnets', 'DescribeVpcs'] as const;
export type Ec2Action = (typeof EC2_ACTIONS)[number] | Ec2MutatingAction;

/** WAFv2's calls (edge/wafv2-client.ts, deploy/apply.ts): the load balancer's web ACL. */
export const WAFV2_ACTIONS = [
  'AssociateWebACL',
  'DisassociateWebACL',
  'GetWebACLForResource',
  'ListWebACLs',
] as const;
export type Wafv2Action = (typeof WAFV2_ACTIONS)[number];

/** Shield's calls (edge/shield-client.ts, deploy/apply.ts): the load balancer's protection. */
export const SHIELD_ACTIONS = [
  'CreateProtection',
  'DeleteProtection',
  'DescribeProtection',
  'GetSubscriptionState',
  'ListTagsForResource',
] as const;
export type ShieldAction = (typeof SHIELD_ACTIONS)[number];

/** ACM's reads (edge/acm-client.ts): certificate discovery for HTTPS listeners without certificate-arn. */
export const ACM_ACTIONS = ['DescribeCertificate', 'ListCertificates'] as const;
export type AcmAction = (typeof ACM_ACTIONS)[number];

/** Global Accelerator's calls (accelerator/ga-client.ts), with their IAM prefix (see the module comment). */
export const GA_ACTIONS = [
  'globalaccelerator:CreateAccelerator',
  'globalaccelerator:CreateEndpointGroup',
  'globalaccelerator:CreateListener',
  'globalaccelerator:DeleteAccelerator',
  'globalaccelerator:DeleteEndpointGroup',
  'globalaccelerator:DeleteListener',
  'globalaccelerator:DescribeAccelerator',
  'globalaccelerator:ListAccelerators',
  'globalaccelerator:ListEndpointGroups',
  'globalaccelerator:ListListeners',
  'globalaccelerator:ListTagsForResource',
  'globalaccelerator:TagResource',
  'globalaccelerator:UntagResource',
  'globalaccelerator:UpdateAccelerator',
  'globalaccelerator:UpdateEndpointGroup',
  'globalaccelerator:UpdateListener',
] as const;
export type GaAction = (typeof GA_ACTIONS)[number];

/**
 * Permissions AWS checks for a call the code makes, under another name: no command of the code
 * is named after them (test/unit/aws-iam.test.ts knows them from this list).
 */
export const IMPLIED_ACTIONS = {
  // WAFv2 checks it on the load balancer when associating or disassociating a web ACL.
  SetWebAcl: 'AssociateWebACL',
  // Shield checks it for the tags of CreateProtection.
  TagResource: 'CreateProtection',
  // GA creates its service-linked role at an account's first accelerator.
  'iam:CreateServiceLinkedRole': 'CreateAccelerator',
} as const;
export type ImpliedAction = keyof typeof IMPLIED_ACTIONS;

/** Every action the provider calls, as the SDK's commands name them, and the implied ones. */
export type ProviderAction =
  Elbv2Action | TaggingAction | Ec2Action | Wafv2Action | ShieldAction | AcmAction | ImpliedAction | GaAction;

/** An action as IAM names it: `tag:GetResources`, `ec2:Describe…`, `elasticloadbalancing:<action>`. */
export function iamActionName(action: ProviderAction): string {
  // Named with their service already (Global Accelerator's, IAM's).
  if (action.includes(':')) return action;
  if ((TAGGING_ACTIONS as readonly string[]).includes(action)) return `tag:${action}`;
  if ([...EC2_ACTIONS, ...EC2_MUTATING_ACTIONS].includes(action as never)) return `ec2:${action}`;
  if ((WAFV2_ACTIONS as readonly string[]).includes(action)) return `wafv2:${action}`;
  if ((ACM_ACTIONS as readonly string[]).includes(action)) return `acm:${action}`;
  if ((SHIELD_ACTIONS as readonly string[]).includes(action) || action === 'TagResource') {
    return `shield:${action}`;
  }
  return `elasticloadbalancing:${action}`;
}

/** ELBv2's resource types, as the Service Authorization Reference names them. */
export type Elbv2ResourceType = 'loadbalancer' | 'listener' | 'listener-rule' | 'targetgroup';

/** The ARN patterns of each type (ALB `app/` and NLB `net/`; the provider makes no gateway LBs). */
const ARN_PATTERNS: Record<Elbv2ResourceType, readonly string[]> = {
  loadbalancer: ['loadbalancer/app/*/*', 'loadbalancer/net/*/*'],
  listener: ['listener/app/*/*/*', 'listener/net/*/*/*'],
  'listener-rule': ['listener-rule/app/*/*/*/*', 'listener-rule/net/*/*/*/*'],
  targetgroup: ['targetgroup/*/*'],
};

/** A Resource entry: "*" or an ARN pattern CloudFormation completes with partition, Region, account. */
export type PolicyResource = '*' | { 'Fn::Sub': string };

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow';
  Action: string[];
  Resource: PolicyResource[];
  /** Values may be CloudFormation expressions (Fn::If/Fn::Split on a deployment parameter). */
  Condition?: Record<string, Record<string, unknown>>;
}

/** `arn:${AWS::Partition}:<service>:${AWS::Region}:${AWS::AccountId}:<rest>` for CloudFormation's Fn::Sub. */
export function deploymentArn(service: string, rest: string): PolicyResource {
  return { 'Fn::Sub': `arn:\${AWS::Partition}:${service}:\${AWS::Region}:\${AWS::AccountId}:${rest}` };
}

/** The account's security groups in the Region (EC2 names them `security-group/sg-…`). */
const SECURITY_GROUPS: PolicyResource[] = [deploymentArn('ec2', 'security-group/*')];

/** A configured VPC's ARN, as EC2's ec2:Vpc key holds it. */
const vpcArn = (v: VpcOfRegion): PolicyResource => ({
  'Fn::Sub': `arn:\${AWS::Partition}:ec2:${v.region}:\${AWS::AccountId}:vpc/${v.id}`,
});
/** ec2:Vpc pinned to the configured VPCs (nothing without them). */
const inConfiguredVpcs = (o: Elbv2PolicyOptions): Record<string, Record<string, unknown>> =>
  o.vpcs?.length ? { ArnEquals: { 'ec2:Vpc': o.vpcs.map(vpcArn) } } : {};

function resourcesOf(...types: Elbv2ResourceType[]): PolicyResource[] {
  return types.flatMap((t) => ARN_PATTERNS[t].map((p) => deploymentArn('elasticloadbalancing', p)));
}

/** Condition values: a list of patterns (`*` wildcards), or a CloudFormation expression yielding one. */
export type ConditionValues = readonly string[] | { readonly [intrinsic: string]: unknown };

/**
 * Limits the operator puts on every load balancer (what the tenant policy allows anyone, at most),
 * as IAM condition values: a request outside them is refused by AWS even if the code had a bug.
 * `['*']` pins nothing.
 */
export interface Elbv2Guardrails {
  schemes?: ConditionValues;
  subnets?: ConditionValues;
  securityGroups?: ConditionValues;
}

export interface Elbv2PolicyOptions {
  /** The configuration's `ownerId` (or a template such as `${param:awsOwnerId}`). */
  ownerId: string;
  /**
   * The Karmada instance (the UID of its kube-system namespace; `${param:karmadaInstanceId}`):
   * required on every resource and request with the owner tag, so a second Karmada deployed with
   * the same ownerId still cannot touch this one's resources.
   */
  instanceId?: string;
  guardrails?: Elbv2Guardrails;
  /**
   * The configured Regions (`regions:`, lib/providers/aws/regions/, or a one-Region file's
   * `region`): every regional resource ARN is written once per Region. Absent: the deployment's
   * own Region (`${AWS::Region}`).
   */
  regions?: readonly string[];
  /**
   * Whether the deployment configures Global Accelerator (`globalAccelerator` in the provider
   * configuration): only then are its statements generated. Absent: not configured.
   */
  globalAccelerator?: boolean;
  /**
   * The configured VPCs, each with its Region: CreateSecurityGroup only in them (ec2:Vpc).
   * Absent: any VPC of the deployment's Region (a policy generated without a configuration).
   */
  vpcs?: readonly VpcOfRegion[];
}

export interface VpcOfRegion {
  region: string;
  id: string;
}

/** Each Region's copy of a regional ARN pattern; "*" and ARNs without a Region as they are. */
function inRegions(
  resources: readonly PolicyResource[],
  regions: readonly string[] | undefined,
): PolicyResource[] {
  if (!regions?.length) return [...resources];
  return resources.flatMap((r): PolicyResource[] =>
    r !== '*' && r['Fn::Sub'].includes('${AWS::Region}')
      ? regions.map((region) => ({ 'Fn::Sub': r['Fn::Sub'].replace('${AWS::Region}', region) }))
      : [r],
  );
}

interface StatementSpec {
  Sid: string;
  actions: readonly ProviderAction[];
  resources: PolicyResource[] | ((o: Elbv2PolicyOptions) => PolicyResource[]);
  condition?: (o: Elbv2PolicyOptions) => PolicyStatement['Condition'];
  /** Only in a deployment that configures this feature. */
  feature?: 'globalAccelerator';
  /** Only for these access levels (absent: every level that holds one of its actions). */
  access?: readonly Elbv2Access[];
}

const ownedResource = (o: Elbv2PolicyOptions) => ({
  [`aws:ResourceTag/${OWNER_TAG}`]: o.ownerId,
  ...(o.instanceId !== undefined ? { [`aws:ResourceTag/${INSTANCE_TAG}`]: o.instanceId } : {}),
});
const ownedRequest = (o: Elbv2PolicyOptions) => ({
  [`aws:RequestTag/${OWNER_TAG}`]: o.ownerId,
  ...(o.instanceId !== undefined ? { [`aws:RequestTag/${INSTANCE_TAG}`]: o.instanceId } : {}),
});
/**
 * A resource nobody owns yet: neither the owner nor the instance tag (Null true). For
 * tag-on-create where the service has no condition key saying the tags come with a create
 * (Shield, Global Accelerator): a resource of another deployment carries both tags.
 */
const untaggedResource = (o: Elbv2PolicyOptions) => ({
  [`aws:ResourceTag/${OWNER_TAG}`]: 'true',
  ...(o.instanceId !== undefined ? { [`aws:ResourceTag/${INSTANCE_TAG}`]: 'true' } : {}),
});
/** Untagging: keys must be named (Null false), and never the owner or instance key. */
const keepOwnership = () => ({
  'ForAllValues:StringNotEquals': { 'aws:TagKeys': [OWNER_TAG, INSTANCE_TAG] },
  Null: { 'aws:TagKeys': 'false' },
});

/** The resources a create produces, for the tag-on-create AddTags (elasticloadbalancing:CreateAction). */
const CREATE_ACTIONS = ['CreateListener', 'CreateLoadBalancer', 'CreateRule', 'CreateTargetGroup'] as const;

function guardrailConditions(g: Elbv2Guardrails | undefined, keys: Array<keyof Elbv2Guardrails>) {
  const out: Record<string, ConditionValues> = {};
  const name = { schemes: 'Scheme', subnets: 'Subnet', securityGroups: 'SecurityGroup' } as const;
  for (const k of keys) {
    const values = g?.[k];
    if (values !== undefined) out[`elasticloadbalancing:${name[k]}`] = values;
  }
  return out;
}

/** Global Accelerator's ARNs: account-wide, no Region (see the module comment). */
const gaArn = (rest: string): PolicyResource => ({
  'Fn::Sub': `arn:\${AWS::Partition}:globalaccelerator::\${AWS::AccountId}:${rest}`,
});
const ACCELERATOR_ARNS = [gaArn('accelerator/*')];
const GA_LISTENER_ARNS = [gaArn('accelerator/*/listener/*')];
const GA_ENDPOINT_GROUP_ARNS = [gaArn('accelerator/*/listener/*/endpoint-group/*')];

/** The deployment's ALBs (WAFv2 associates web ACLs with ALBs only). */
const ALB_ARNS = [deploymentArn('elasticloadbalancing', 'loadbalancer/app/*/*')];
/** Shield's protections: account-wide, no Region in the ARN. */
const PROTECTION_ARNS: PolicyResource[] = [
  { 'Fn::Sub': 'arn:${AWS::Partition}:shield::${AWS::AccountId}:protection/*' },
];

const STATEMENTS: StatementSpec[] = [
  {
    // SAR: the Describe* actions list no resource type and no condition key: Resource "*".
    Sid: 'ElbV2Describe',
    actions: ELBV2_DESCRIBE_ACTIONS,
    resources: ['*'],
  },
  {
    // SAR (Resource Groups Tagging API): GetResources lists no resource type and no condition key:
    // Resource "*". It only reads tags (the stack's ARNs and tags, deploy/stack-tags.ts).
    Sid: 'TaggingReadStacks',
    actions: TAGGING_ACTIONS,
    resources: ['*'],
  },
  {
    // SAR (EC2): DescribeVpcs, DescribeSubnets and DescribeSecurityGroups list no resource type
    // and no condition key (no ec2:Describe* action can be scoped by tag): Resource "*",
    // unscoped. They only read the VPC's CIDRs, its subnets (zones, tags for discovery) and
    // security groups (ec2/vpc-reader.ts, ec2/security-groups.ts).
    Sid: 'Ec2DescribeVpcNetwork',
    actions: EC2_ACTIONS,
    resources: ['*'],
  },
  {
    // SAR (ACM): ListCertificates lists no resource type: Resource "*". DescribeCertificate is
    // authorised on the certificate; the certificates are the account's, not ours, so it is not
    // scoped by our tag. Both only read (certificate discovery).
    Sid: 'AcmListCertificates',
    actions: ['ListCertificates'],
    resources: ['*'],
  },
  {
    Sid: 'AcmDescribeCertificates',
    actions: ['DescribeCertificate'],
    resources: [deploymentArn('acm', 'certificate/*')],
  },
  {
    // SAR (WAFv2): ListWebACLs lists no resource type: Resource "*". It only reads the Region's
    // web ACLs' names and ARNs (wafv2-acl-name).
    Sid: 'Wafv2ListWebAcls',
    actions: ['ListWebACLs'],
    resources: ['*'],
  },
  {
    // SAR (WAFv2): GetWebACLForResource, AssociateWebACL, DisassociateWebACL are authorised on the
    // web ACL and the load balancer, with no condition key on the load balancer's tags: unscoped
    // by tag (see the module comment; SetWebAcl below is what confines them to our ALBs).
    Sid: 'Wafv2AssociateWebAcls',
    actions: ['AssociateWebACL', 'DisassociateWebACL', 'GetWebACLForResource'],
    resources: [deploymentArn('wafv2', 'regional/webacl/*/*'), ...ALB_ARNS],
  },
  {
    // SAR: SetWebAcl, resource loadbalancer/app, aws:ResourceTag: WAFv2 checks it on the ALB.
    Sid: 'ElbV2SetWebAclOnOwned',
    actions: ['SetWebAcl'],
    resources: ALB_ARNS,
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR (Shield): GetSubscriptionState and DescribeProtection (by resource ARN) cannot be
    // narrowed: Resource "*". They only read.
    Sid: 'ShieldReadProtections',
    actions: ['DescribeProtection', 'GetSubscriptionState'],
    resources: ['*'],
  },
  {
    // SAR (Shield): ListTagsForResource, resource protection: whether a protection is ours.
    Sid: 'ShieldReadProtectionTags',
    actions: ['ListTagsForResource'],
    resources: PROTECTION_ARNS,
  },
  {
    // SAR (Shield): CreateProtection, resource protection; keys aws:RequestTag, aws:TagKeys.
    Sid: 'ShieldCreateProtectionTaggedAsOurs',
    actions: ['CreateProtection'],
    resources: PROTECTION_ARNS,
    condition: (o) => ({ StringEquals: ownedRequest(o) }),
  },
  {
    // SAR (Shield): CreateProtection's tags are authorised as TagResource on the new protection
    // (aws:RequestTag, aws:ResourceTag, aws:TagKeys). Shield has no condition key for "on create":
    // only a protection with no owner or instance tag yet, so none of another deployment's.
    Sid: 'ShieldTagProtectionOnCreate',
    actions: ['TagResource'],
    resources: PROTECTION_ARNS,
    condition: (o) => ({ StringEquals: ownedRequest(o), Null: untaggedResource(o) }),
    access: ['reconcile'],
  },
  {
    // SAR (Shield): DeleteProtection, resource protection, aws:ResourceTag.
    Sid: 'ShieldDeleteOwnedProtections',
    actions: ['DeleteProtection'],
    resources: PROTECTION_ARNS,
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR (Global Accelerator): ListAccelerators lists no resource type: Resource "*". It only reads.
    Sid: 'GaListAccelerators',
    actions: ['globalaccelerator:ListAccelerators'],
    resources: ['*'],
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): ListTagsForResource, resource accelerator: reads whose accelerator is whose.
    Sid: 'GaReadAcceleratorTags',
    actions: ['globalaccelerator:ListTagsForResource'],
    resources: ACCELERATOR_ARNS,
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): CreateAccelerator lists no resource type and supports aws:RequestTag.
    Sid: 'GaCreateAcceleratorTaggedAsOurs',
    actions: ['globalaccelerator:CreateAccelerator'],
    resources: ['*'],
    condition: (o) => ({ StringEquals: ownedRequest(o) }),
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): CreateAccelerator's tags are authorised as TagResource on the new accelerator
    // (aws:RequestTag, aws:ResourceTag, aws:TagKeys). GA has no condition key for "on create":
    // only an accelerator with no owner or instance tag yet, so none of another deployment's.
    Sid: 'GaTagAcceleratorOnCreate',
    actions: ['globalaccelerator:TagResource'],
    resources: ACCELERATOR_ARNS,
    condition: (o) => ({ StringEquals: ownedRequest(o), Null: untaggedResource(o) }),
    feature: 'globalAccelerator',
    access: ['reconcile'],
  },
  {
    // SAR (GA): what is authorised on the accelerator supports aws:ResourceTag: ours only. A
    // listener can only be created on it (CreateListener is authorised on the accelerator).
    Sid: 'GaChangeOwnedAccelerators',
    actions: [
      'globalaccelerator:CreateListener',
      'globalaccelerator:DeleteAccelerator',
      'globalaccelerator:DescribeAccelerator',
      'globalaccelerator:ListListeners',
      'globalaccelerator:UpdateAccelerator',
    ],
    resources: ACCELERATOR_ARNS,
    condition: (o) => ({ StringEquals: ownedResource(o) }),
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): TagResource on an accelerator of ours (aws:ResourceTag, aws:RequestTag). As for
    // ELBv2, the owner and instance tags may be restated, never changed.
    Sid: 'GaRetagOwnedAccelerators',
    actions: ['globalaccelerator:TagResource'],
    resources: ACCELERATOR_ARNS,
    condition: (o) => ({ StringEquals: ownedResource(o), StringEqualsIfExists: ownedRequest(o) }),
    feature: 'globalAccelerator',
    access: ['reconcile'],
  },
  {
    // SAR (GA): UntagResource, resource accelerator; aws:ResourceTag, aws:TagKeys.
    Sid: 'GaUntagOwnedAccelerators',
    actions: ['globalaccelerator:UntagResource'],
    resources: ACCELERATOR_ARNS,
    condition: (o) => ({ StringEquals: ownedResource(o), ...keepOwnership() }),
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): the listener resource type has no condition key (listeners carry no tags):
    // confined to listeners, not to ours (the code acts only on our accelerators' listeners).
    Sid: 'GaChangeListeners',
    actions: [
      'globalaccelerator:CreateEndpointGroup',
      'globalaccelerator:DeleteListener',
      'globalaccelerator:ListEndpointGroups',
      'globalaccelerator:UpdateListener',
    ],
    resources: GA_LISTENER_ARNS,
    feature: 'globalAccelerator',
  },
  {
    // SAR (GA): the endpointgroup resource type has no condition key either.
    Sid: 'GaChangeEndpointGroups',
    actions: ['globalaccelerator:DeleteEndpointGroup', 'globalaccelerator:UpdateEndpointGroup'],
    resources: GA_ENDPOINT_GROUP_ARNS,
    feature: 'globalAccelerator',
  },
  {
    // SAR (IAM): CreateServiceLinkedRole with iam:AWSServiceName: GA's own role, nothing else.
    Sid: 'GaServiceLinkedRole',
    actions: ['iam:CreateServiceLinkedRole'],
    resources: [
      {
        'Fn::Sub':
          'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/aws-service-role/globalaccelerator.amazonaws.com/*',
      },
    ],
    condition: () => ({ StringEquals: { 'iam:AWSServiceName': 'globalaccelerator.amazonaws.com' } }),
    feature: 'globalAccelerator',
  },
  {
    // SAR (EC2): CreateSecurityGroup is authorised on the new security-group (aws:RequestTag,
    // aws:TagKeys: it must be tagged ours as it is created; ec2:Vpc: in a configured VPC) and on
    // the vpc it is created in.
    Sid: 'Ec2CreateSecurityGroupTaggedAsOurs',
    actions: ['CreateSecurityGroup'],
    resources: SECURITY_GROUPS,
    condition: (o) => ({ StringEquals: ownedRequest(o), ...inConfiguredVpcs(o) }),
  },
  {
    // SAR (EC2): the vpc resource of CreateSecurityGroup carries no request tags: this half is
    // pinned to the configured VPCs (their ARNs, and ec2:Vpc), not by tag. It grants nothing
    // alone: the group itself must be tagged ours (the statement above).
    Sid: 'Ec2CreateSecurityGroupInVpc',
    actions: ['CreateSecurityGroup'],
    resources: (o) => (o.vpcs?.length ? o.vpcs.map(vpcArn) : [deploymentArn('ec2', 'vpc/*')]),
    condition: (o) => (o.vpcs?.length ? inConfiguredVpcs(o) : undefined),
  },
  {
    // SAR (EC2): tag-on-create is CreateTags on the new group, with ec2:CreateAction.
    Sid: 'Ec2TagSecurityGroupOnCreate',
    actions: ['CreateTags'],
    resources: SECURITY_GROUPS,
    condition: (o) => ({ StringEquals: { 'ec2:CreateAction': 'CreateSecurityGroup', ...ownedRequest(o) } }),
  },
  {
    // SAR (EC2): AuthorizeSecurityGroupIngress, RevokeSecurityGroupIngress, DeleteSecurityGroup:
    // resource security-group, aws:ResourceTag.
    Sid: 'Ec2ChangeOwnedSecurityGroups',
    actions: ['AuthorizeSecurityGroupIngress', 'DeleteSecurityGroup', 'RevokeSecurityGroupIngress'],
    resources: SECURITY_GROUPS,
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR (EC2): CreateTags on an existing group; aws:ResourceTag, aws:RequestTag. As for ELBv2,
    // the owner tag may be restated, never changed.
    Sid: 'Ec2RetagOwnedSecurityGroups',
    actions: ['CreateTags'],
    resources: SECURITY_GROUPS,
    condition: (o) => ({ StringEquals: ownedResource(o), StringEqualsIfExists: ownedRequest(o) }),
  },
  {
    // SAR (EC2): DeleteTags; aws:ResourceTag, aws:TagKeys: the owner and instance tags stay, and
    // a DeleteTags without Tags (every tag) is refused.
    Sid: 'Ec2UntagOwnedSecurityGroups',
    actions: ['DeleteTags'],
    resources: SECURITY_GROUPS,
    condition: (o) => ({ StringEquals: ownedResource(o), ...keepOwnership() }),
  },
  {
    // SAR: CreateLoadBalancer, resource loadbalancer/app | loadbalancer/net; keys aws:RequestTag,
    // aws:TagKeys, elasticloadbalancing:Scheme, :Subnet, :SecurityGroup.
    Sid: 'ElbV2CreateLoadBalancerTaggedAsOurs',
    actions: ['CreateLoadBalancer'],
    resources: resourcesOf('loadbalancer'),
    condition: (o) => {
      const { 'elasticloadbalancing:Scheme': scheme, ...multi } = guardrailConditions(o.guardrails, [
        'schemes',
        'subnets',
        'securityGroups',
      ]);
      return {
        StringEquals: ownedRequest(o),
        ...(scheme ? { StringLike: { 'elasticloadbalancing:Scheme': scheme } } : {}),
        // Multi-valued keys: every subnet / security group of the request must be allowed.
        ...(Object.keys(multi).length ? { 'ForAllValues:StringLike': multi } : {}),
      };
    },
  },
  {
    // SAR: CreateTargetGroup, resource targetgroup; keys aws:RequestTag, aws:TagKeys.
    Sid: 'ElbV2CreateTargetGroupTaggedAsOurs',
    actions: ['CreateTargetGroup'],
    resources: resourcesOf('targetgroup'),
    condition: (o) => ({ StringEquals: ownedRequest(o) }),
  },
  {
    // SAR: CreateListener is authorised on the PARENT load balancer (loadbalancer/app | net),
    // whose tags aws:ResourceTag reads; aws:RequestTag reads the new listener's tags.
    Sid: 'ElbV2CreateListenerOnOwnedLoadBalancer',
    actions: ['CreateListener'],
    resources: resourcesOf('loadbalancer'),
    condition: (o) => ({ StringEquals: { ...ownedRequest(o), ...ownedResource(o) } }),
  },
  {
    // SAR: CreateRule is authorised on the PARENT listener (listener/app | net), whose tags
    // aws:ResourceTag reads; aws:RequestTag reads the new rule's tags.
    Sid: 'ElbV2CreateRuleOnOwnedListener',
    actions: ['CreateRule'],
    resources: resourcesOf('listener'),
    condition: (o) => ({ StringEquals: { ...ownedRequest(o), ...ownedResource(o) } }),
  },
  {
    // SAR: AddTags, every taggable type; keys aws:RequestTag, aws:TagKeys,
    // elasticloadbalancing:CreateAction (tag-on-create: the new resource has no tags yet).
    Sid: 'ElbV2TagOnCreate',
    actions: ['AddTags'],
    resources: resourcesOf('loadbalancer', 'listener', 'listener-rule', 'targetgroup'),
    condition: (o) => ({
      StringEquals: { 'elasticloadbalancing:CreateAction': [...CREATE_ACTIONS], ...ownedRequest(o) },
    }),
  },
  {
    // SAR: DeleteLoadBalancer, ModifyLoadBalancerAttributes, ModifyCapacityReservation,
    // SetIpAddressType, SetSecurityGroups (keys :SecurityGroup), SetSubnets (key :Subnet): resource
    // loadbalancer/app | net, aws:ResourceTag.
    Sid: 'ElbV2ChangeOwnedLoadBalancers',
    actions: [
      'DeleteLoadBalancer',
      'ModifyCapacityReservation',
      'ModifyLoadBalancerAttributes',
      'SetIpAddressType',
      'SetSecurityGroups',
      'SetSubnets',
    ],
    resources: resourcesOf('loadbalancer'),
    condition: (o) => {
      const limits = guardrailConditions(o.guardrails, ['subnets', 'securityGroups']);
      return {
        StringEquals: ownedResource(o),
        // Absent on DeleteLoadBalancer / ModifyLoadBalancerAttributes: ForAllValues of nothing holds.
        ...(Object.keys(limits).length ? { 'ForAllValues:StringLike': limits } : {}),
      };
    },
  },
  {
    // SAR: ModifyListener, ModifyListenerAttributes, DeleteListener, AddListenerCertificates,
    // RemoveListenerCertificates: resource listener/app | net, aws:ResourceTag.
    Sid: 'ElbV2ChangeOwnedListeners',
    actions: [
      'AddListenerCertificates',
      'DeleteListener',
      'ModifyListener',
      'ModifyListenerAttributes',
      'RemoveListenerCertificates',
    ],
    resources: resourcesOf('listener'),
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR: ModifyRule, DeleteRule, SetRulePriorities: resource listener-rule/app | net, aws:ResourceTag.
    Sid: 'ElbV2ChangeOwnedRules',
    actions: ['DeleteRule', 'ModifyRule', 'SetRulePriorities'],
    resources: resourcesOf('listener-rule'),
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR: ModifyTargetGroup, ModifyTargetGroupAttributes, RegisterTargets, DeregisterTargets,
    // DeleteTargetGroup: resource targetgroup, aws:ResourceTag.
    Sid: 'ElbV2ChangeOwnedTargetGroups',
    actions: [
      'DeleteTargetGroup',
      'DeregisterTargets',
      'ModifyTargetGroup',
      'ModifyTargetGroupAttributes',
      'RegisterTargets',
    ],
    resources: resourcesOf('targetgroup'),
    condition: (o) => ({ StringEquals: ownedResource(o) }),
  },
  {
    // SAR: AddTags on an existing resource, every taggable type; aws:ResourceTag, aws:RequestTag.
    // The owner tag may be restated, never changed: an owned resource cannot be handed to another
    // owner (StringEqualsIfExists: a request without the owner key passes).
    Sid: 'ElbV2RetagOwned',
    actions: ['AddTags'],
    resources: resourcesOf('loadbalancer', 'listener', 'listener-rule', 'targetgroup'),
    condition: (o) => ({ StringEquals: ownedResource(o), StringEqualsIfExists: ownedRequest(o) }),
  },
  {
    // SAR: RemoveTags, every taggable type; aws:ResourceTag, aws:TagKeys. The owner and instance
    // tags are never removed: that would disown the resource.
    Sid: 'ElbV2UntagOwned',
    actions: ['RemoveTags'],
    resources: resourcesOf('loadbalancer', 'listener', 'listener-rule', 'targetgroup'),
    condition: (o) => ({ StringEquals: ownedResource(o), ...keepOwnership() }),
  },
];

/** Every mutating action the code may call (typed against the plan's action list). */
export const ELBV2_MUTATING_ACTIONS: readonly MutatingAction[] = [
  ...new Set(
    STATEMENTS.flatMap((s) => s.actions).filter(
      (a): a is MutatingAction =>
        !(ELBV2_DESCRIBE_ACTIONS as readonly string[]).includes(a) &&
        !(TAGGING_ACTIONS as readonly string[]).includes(a) &&
        !(EC2_ACTIONS as readonly string[]).includes(a) &&
        !(WAFV2_ACTIONS as readonly string[]).includes(a) &&
        !(SHIELD_ACTIONS as readonly string[]).includes(a) &&
        !(ACM_ACTIONS as readonly string[]).includes(a) &&
        !Object.hasOwn(IMPLIED_ACTIONS, a) &&
        !a.includes(':') &&
        !(EC2_MUTATING_ACTIONS as readonly string[]).includes(a),
    ),
  ),
].sort();

/**
 * What a function does with ELBv2. `reconcile` (sqs, invoke, http) builds, changes and, on an
 * object's deletion, deletes stacks: every action, and the Tagging API's read of a stack. `sweep` lists the owner's inventory and
 * deletes orphaned load balancers and target groups (lib/providers/aws/deploy/deletion.ts's
 * planDeletion emits nothing else): it can never create or change anything. `resync` reads every
 * load balancer's fingerprint tag in bulk (lib/providers/aws/fingerprints.ts): GetResources, or
 * when the Tagging API fails, two Describe actions; and, as its desired fingerprints hold the
 * targets' zones, the VPC's network (EC2's two reads). The sweep builds models for their target
 * group names only, without the network.
 */
export type Elbv2Access = 'reconcile' | 'sweep' | 'resync';

export const ELBV2_ACCESS: Record<Elbv2Access, readonly ProviderAction[]> = {
  reconcile: [
    ...ELBV2_DESCRIBE_ACTIONS,
    ...ELBV2_MUTATING_ACTIONS,
    ...TAGGING_ACTIONS,
    ...EC2_ACTIONS,
    ...WAFV2_ACTIONS,
    ...SHIELD_ACTIONS,
    ...ACM_ACTIONS,
    ...(Object.keys(IMPLIED_ACTIONS) as ImpliedAction[]),
    ...EC2_MUTATING_ACTIONS,
    ...GA_ACTIONS,
  ].sort(),
  // A swept load balancer's protection of ours is deleted first (deploy/edge.ts).
  sweep: [
    'DeleteLoadBalancer',
    'DeleteProtection',
    'DeleteSecurityGroup',
    'DeleteTargetGroup',
    'DescribeLoadBalancers',
    'DescribeProtection',
    'DescribeSecurityGroups',
    'DescribeTags',
    'DescribeTargetGroups',
    'ListTagsForResource',
    // An orphaned accelerator: disabled (and marked retiring), then deleted once GA has deployed that.
    'globalaccelerator:DeleteAccelerator',
    'globalaccelerator:DeleteEndpointGroup',
    'globalaccelerator:DeleteListener',
    'globalaccelerator:ListAccelerators',
    'globalaccelerator:ListEndpointGroups',
    'globalaccelerator:ListListeners',
    'globalaccelerator:ListTagsForResource',
    'globalaccelerator:TagResource',
    'globalaccelerator:UpdateAccelerator',
  ],
  // The desired fingerprints hold discovered certificates too: ACM's two reads, for such stacks.
  resync: [
    'DescribeCertificate',
    'DescribeLoadBalancers',
    'DescribeSubnets',
    'DescribeTags',
    'DescribeVpcs',
    'GetResources',
    'ListCertificates',
  ],
};

/** The statements for one access level; each keeps only the actions that level needs. */
export function elbv2PolicyStatements(
  options: Elbv2PolicyOptions | string,
  access: Elbv2Access = 'reconcile',
): PolicyStatement[] {
  const o = typeof options === 'string' ? { ownerId: options } : options;
  const allowed = new Set<string>(ELBV2_ACCESS[access]);
  return STATEMENTS.flatMap((s): PolicyStatement[] => {
    if (s.feature === 'globalAccelerator' && o.globalAccelerator !== true) return [];
    if (s.access && !s.access.includes(access)) return [];
    const actions = s.actions.filter((a) => allowed.has(a));
    if (!actions.length) return [];
    const condition = s.condition?.(o);
    const resources = typeof s.resources === 'function' ? s.resources(o) : s.resources;
    return [
      {
        Sid: s.Sid,
        Effect: 'Allow',
        Action: [...actions].sort().map(iamActionName),
        Resource: inRegions(resources, o.regions),
        ...(condition ? { Condition: condition } : {}),
      },
    ];
  });
}

/** A policy document of these statements. */
export function elbv2PolicyDocument(
  options: Elbv2PolicyOptions | string,
  access: Elbv2Access = 'reconcile',
): { Version: '2012-10-17'; Statement: PolicyStatement[] } {
  return { Version: '2012-10-17', Statement: elbv2PolicyStatements(options, access) };
}
