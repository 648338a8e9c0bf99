/**
 * The change plan: what a deploy will do, computed (purely) before any mutating call and executed
 * call by call by apply.ts, so a dry run prints exactly what a real run does. ARNs of resources
 * the plan itself creates, and OIDC client secrets, are typed placeholders (refs.ts) resolved
 * field by field while applying; they print as `{{arn:<resource id>}}`.
 */
import type {
  AddListenerCertificatesCommandInput,
  AddTagsCommandInput,
  CreateListenerCommandInput,
  CreateLoadBalancerCommandInput,
  CreateRuleCommandInput,
  CreateTargetGroupCommandInput,
  DeleteListenerCommandInput,
  DeleteLoadBalancerCommandInput,
  DeleteRuleCommandInput,
  DeleteTargetGroupCommandInput,
  DeregisterTargetsCommandInput,
  ModifyCapacityReservationCommandInput,
  ModifyListenerAttributesCommandInput,
  ModifyListenerCommandInput,
  ModifyLoadBalancerAttributesCommandInput,
  ModifyRuleCommandInput,
  ModifyTargetGroupAttributesCommandInput,
  ModifyTargetGroupCommandInput,
  RegisterTargetsCommandInput,
  RemoveListenerCertificatesCommandInput,
  RemoveTagsCommandInput,
  SetRulePrioritiesCommandInput,
  SetIpAddressTypeCommandInput,
  SetSecurityGroupsCommandInput,
  SetSubnetsCommandInput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { CreateProtectionCommandInput, DeleteProtectionCommandInput } from '@aws-sdk/client-shield';
import type { AssociateWebACLCommandInput, DisassociateWebACLCommandInput } from '@aws-sdk/client-wafv2';
import type {
  AuthorizeSecurityGroupIngressCommandInput,
  CreateSecurityGroupCommandInput,
  CreateTagsCommandInput,
  DeleteSecurityGroupCommandInput,
  DeleteTagsCommandInput,
  RevokeSecurityGroupIngressCommandInput,
} from '@aws-sdk/client-ec2';
import { recordToTags, tagsToRemove, tagsToUpsert } from '../tagging.js';
import type { AcceleratorOperation } from '../accelerator/types.js';
import type { Arn, Planned } from './refs.js';
import type { OperationKind } from './operation-kind.js';

// The placeholders are part of the plan's vocabulary: planners and tests name them from here too.
export { arnRef, dnsRef, secretRef, type Arn, type Planned } from './refs.js';

/** Every mutating ELBv2 action the provider may call (the IAM policy is checked against the code). */
export interface MutatingInputs {
  CreateLoadBalancer: CreateLoadBalancerCommandInput;
  DeleteLoadBalancer: DeleteLoadBalancerCommandInput;
  SetSubnets: SetSubnetsCommandInput;
  SetSecurityGroups: SetSecurityGroupsCommandInput;
  SetIpAddressType: SetIpAddressTypeCommandInput;
  ModifyLoadBalancerAttributes: ModifyLoadBalancerAttributesCommandInput;
  ModifyCapacityReservation: ModifyCapacityReservationCommandInput;
  CreateTargetGroup: CreateTargetGroupCommandInput;
  ModifyTargetGroup: ModifyTargetGroupCommandInput;
  ModifyTargetGroupAttributes: ModifyTargetGroupAttributesCommandInput;
  DeleteTargetGroup: DeleteTargetGroupCommandInput;
  RegisterTargets: RegisterTargetsCommandInput;
  DeregisterTargets: DeregisterTargetsCommandInput;
  CreateListener: CreateListenerCommandInput;
  ModifyListener: ModifyListenerCommandInput;
  ModifyListenerAttributes: ModifyListenerAttributesCommandInput;
  DeleteListener: DeleteListenerCommandInput;
  AddListenerCertificates: AddListenerCertificatesCommandInput;
  RemoveListenerCertificates: RemoveListenerCertificatesCommandInput;
  CreateRule: CreateRuleCommandInput;
  ModifyRule: ModifyRuleCommandInput;
  DeleteRule: DeleteRuleCommandInput;
  SetRulePriorities: SetRulePrioritiesCommandInput;
  AddTags: AddTagsCommandInput;
  RemoveTags: RemoveTagsCommandInput;
  /** WAFv2 (deploy/edge.ts): the load balancer's web ACL. */
  AssociateWebACL: AssociateWebACLCommandInput;
  DisassociateWebACL: DisassociateWebACLCommandInput;
  /** Shield Advanced (deploy/edge.ts): the load balancer's protection. */
  CreateProtection: CreateProtectionCommandInput;
  DeleteProtection: DeleteProtectionCommandInput;
}

/** The mutating calls that are not ELBv2's, by the API they go to. */
export const EDGE_ACTIONS = {
  AssociateWebACL: 'WAFv2',
  DisassociateWebACL: 'WAFv2',
  CreateProtection: 'Shield',
  DeleteProtection: 'Shield',
} as const satisfies Partial<Record<keyof MutatingInputs, string>>;

export type MutatingAction = keyof MutatingInputs;

/** Every mutating EC2 action (the managed security groups, deploy/security-group.ts). */
export interface Ec2MutatingInputs {
  CreateSecurityGroup: CreateSecurityGroupCommandInput;
  AuthorizeSecurityGroupIngress: AuthorizeSecurityGroupIngressCommandInput;
  RevokeSecurityGroupIngress: RevokeSecurityGroupIngressCommandInput;
  DeleteSecurityGroup: DeleteSecurityGroupCommandInput;
  CreateTags: CreateTagsCommandInput;
  DeleteTags: DeleteTagsCommandInput;
}

export type Ec2MutatingAction = keyof Ec2MutatingInputs;

/** A planned EC2 call; CreateSecurityGroup `produces` the group's ID (under the ARN placeholders). */
export type Ec2PlannedCall = {
  [A in Ec2MutatingAction]: { action: A; input: Planned<Ec2MutatingInputs[A]>; produces?: string };
}[Ec2MutatingAction];

/** An EC2 call as it is sent: its placeholders resolved (apply.ts). */
export type Ec2Call = {
  [A in Ec2MutatingAction]: { action: A; input: Ec2MutatingInputs[A]; produces?: string };
}[Ec2MutatingAction];

export const EC2_MUTATING_ACTIONS: readonly Ec2MutatingAction[] = [
  'AuthorizeSecurityGroupIngress',
  'CreateSecurityGroup',
  'CreateTags',
  'DeleteSecurityGroup',
  'DeleteTags',
  'RevokeSecurityGroupIngress',
];

export function isEc2Call<C extends PlannedCall | SentCall>(
  c: C,
): c is Extract<C, { action: Ec2MutatingAction }> {
  return (EC2_MUTATING_ACTIONS as readonly string[]).includes(c.action);
}

export type PlannedCall = Elbv2PlannedCall | Ec2PlannedCall;
/** A call as it is sent: every placeholder resolved. */
export type SentCall = Elbv2Call | Ec2Call;

export type Elbv2PlannedCall = Elbv2CallOf<true>;
export type Elbv2Call = Elbv2CallOf<false>;

type Elbv2CallOf<P extends boolean> = {
  [A in MutatingAction]: {
    action: A;
    input: P extends true ? Planned<MutatingInputs[A]> : MutatingInputs[A];
    /** For Create* calls: the resource ID whose ARN the response carries (fills placeholders). */
    produces?: string;
  } & (A extends 'RegisterTargets'
    ? {
        /**
         * The targets to send instead when AWS answers that an Availability Zone must be
         * specified: off-VPC ones in their endpoints' zones (deploy/targets.ts `zonedRetryOf`).
         */
        ifZoneRequired?: NonNullable<MutatingInputs[A]['Targets']>;
      }
    : unknown);
}[MutatingAction];

export type { OperationKind } from './operation-kind.js';
export type OperationResource =
  | 'LoadBalancer'
  | 'TargetGroup'
  | 'Listener'
  | 'ListenerRule'
  | 'Targets'
  | 'SecurityGroup'
  | 'WebACLAssociation'
  | 'ShieldProtection'
  // Global Accelerator (lib/providers/aws/accelerator/): only the accelerator carries tags.
  | 'Accelerator'
  | 'AcceleratorListener'
  | 'EndpointGroup';

export interface Operation {
  op: OperationKind;
  resource: OperationResource;
  /** The stack's resource ID, or the AWS name for resources the stack no longer has. */
  id: string;
  /** Why, in words (also the text of a replacement announcement). */
  detail: string;
  calls: PlannedCall[];
}

/** What every planner needs besides the desired and the actual state. */
export interface PlanContext {
  /** Tag keys other tools own on our resources: never removed (config `externalManagedTags`). */
  externalManagedTags: readonly string[];
}

/**
 * The calls that make a resource we own carry exactly its desired tags (tagsToRemove says which
 * keys are spared), and the words for the operation's detail. Removal goes first: a resource at
 * the tag quota could not take a new key before an old one is gone.
 */
export function planTags(
  pc: PlanContext,
  arn: Arn,
  desired: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
): { calls: PlannedCall[]; changes: string[] } {
  const calls: PlannedCall[] = [];
  const changes: string[] = [];
  const remove = tagsToRemove(desired, actual, pc.externalManagedTags);
  if (remove.length > 0) {
    changes.push(`untag ${remove.join(', ')}`);
    calls.push({ action: 'RemoveTags', input: { ResourceArns: [arn], TagKeys: remove } });
  }
  const add = tagsToUpsert(desired, actual);
  if (Object.keys(add).length > 0) {
    changes.push(`tags ${Object.keys(add).sort().join(', ')}`);
    calls.push({ action: 'AddTags', input: { ResourceArns: [arn], Tags: recordToTags(add) } });
  }
  return { calls, changes };
}

/** The mutating ELBv2 calls of a plan in execution order: what the ELBv2 simulator should record. */
export function plannedActions(plan: readonly Operation[]): MutatingAction[] {
  return plan.flatMap((o) => o.calls.flatMap((c) => (isEc2Call(c) ? [] : [c.action])));
}

/** The mutating EC2 calls of a plan in execution order: what the EC2 simulator should record. */
export function plannedEc2Actions(plan: readonly Operation[]): Ec2MutatingAction[] {
  return plan.flatMap((o) => o.calls.flatMap((c) => (isEc2Call(c) ? [c.action] : [])));
}

/**
 * What an operation acts on, in words: `TargetGroup default/serve:80`; the stack's one load
 * balancer, whose resource ID is its type, is just `LoadBalancer` (its name is in the detail).
 */
export function operationSubject(o: Pick<Operation, 'resource' | 'id'>): string {
  return o.id === o.resource ? o.resource : `${o.resource} ${o.id}`;
}

/** A step of either plan: the ELBv2 stack's, or its accelerator's (accelerator/plan.ts). */
export type AnyOperation = Operation | AcceleratorOperation;

/** One line per operation, for logs and the plan CLI. */
export function formatPlan(plan: readonly AnyOperation[]): string[] {
  if (plan.length === 0) return ['no changes'];
  return plan.map((o) => {
    const sign = { create: '+', modify: '~', delete: '-', replace: '-/+' }[o.op];
    return `${sign} ${o.op} ${operationSubject(o)}: ${o.detail} [${o.calls.map((c) => c.action).join(', ')}]`;
  });
}
