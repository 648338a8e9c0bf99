/**
 * Executes a change plan exactly, call by call, filling in its placeholders (refs.ts): the ARNs
 * of resources it creates, and the OIDC client secrets, each only at the field it stands in.
 * The only module that builds mutating ELBv2 commands (iam.ts is checked against this); the EC2
 * ones (the managed security groups) are ec2/security-groups.ts's, loaded only when a plan has some.
 */
import {
  AddListenerCertificatesCommand,
  AddTagsCommand,
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  CreateRuleCommand,
  CreateTargetGroupCommand,
  DeleteListenerCommand,
  DeleteLoadBalancerCommand,
  DeleteRuleCommand,
  DeleteTargetGroupCommand,
  DeregisterTargetsCommand,
  ModifyCapacityReservationCommand,
  ModifyListenerAttributesCommand,
  ModifyListenerCommand,
  ModifyLoadBalancerAttributesCommand,
  ModifyRuleCommand,
  ModifyTargetGroupAttributesCommand,
  ModifyTargetGroupCommand,
  RegisterTargetsCommand,
  RemoveListenerCertificatesCommand,
  RemoveTagsCommand,
  SetRulePrioritiesCommand,
  SetIpAddressTypeCommand,
  SetSecurityGroupsCommand,
  SetSubnetsCommand,
  type CreateTargetGroupCommandInput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { RetryLaterError, errorMessage } from '../../../errors.js';
import { CREATED_AT_TAG, INSTANCE_TAG } from '../tagging.js';
import { capacityFailure } from './capacity.js';
import { call, checkAborted, isAwsError, sleep, type DeployContext } from './context.js';
import {
  EDGE_ACTIONS,
  isEc2Call,
  type Ec2Call,
  type Operation,
  type PlannedCall,
  type SentCall,
} from './operations.js';
import { resolvePlanned, type RefValues, type SecretValues } from './refs.js';
import { ALB_KEYS } from '../model/annotations/keys.js';
import { InvalidObjectError } from '../../../errors.js';

interface Created {
  arn?: string;
  dnsName?: string;
}

/**
 * Stamps the creation time on a new target group (the orphan sweep's grace period needs it; ELBv2
 * has none for target groups). Added here, not in the plan: the time belongs to the execution, and
 * a plan (or a dry run) must stay the same however often it is computed.
 */
export function withCreatedAt(input: CreateTargetGroupCommandInput, at: Date): CreateTargetGroupCommandInput {
  const tags = (input.Tags ?? []).filter((t) => t.Key !== CREATED_AT_TAG);
  return { ...input, Tags: [...tags, { Key: CREATED_AT_TAG, Value: at.toISOString() }] };
}

const now = () => new Date();

/**
 * Adds the Karmada instance tag to what a Create* call tags the new resource with: ownership is
 * owner AND instance (instance.ts), and IAM allows creates only with both. Added here, at
 * execution, like the creation time: the instance is the deployment's, not the stack model's.
 */
export function withInstance<T extends { Tags?: Array<{ Key?: string; Value?: string }> }>(
  input: T,
  ctx: Pick<DeployContext, 'owner'>,
): T {
  const instanceId = ctx.owner.instanceId;
  if (instanceId === undefined) return input;
  const tags = (input.Tags ?? []).filter((t) => t.Key !== INSTANCE_TAG);
  return { ...input, Tags: [...tags, { Key: INSTANCE_TAG, Value: instanceId }] };
}

async function sendEc2(ctx: DeployContext, c: Ec2Call, o: { abortSignal: AbortSignal }): Promise<Created> {
  if (!ctx.securityGroups) throw new Error(`${c.action}: this provider manages no security groups`);
  return (await ctx.securityGroups()).send(ctx, c, o);
}

function send(ctx: DeployContext, c: SentCall, o: { abortSignal: AbortSignal }): Promise<Created> {
  if (isEc2Call(c)) return sendEc2(ctx, c, o);
  const { client } = ctx;
  const none = (): Created => ({});
  switch (c.action) {
    case 'CreateLoadBalancer':
      return client.send(new CreateLoadBalancerCommand(withInstance(c.input, ctx)), o).then((r) => ({
        arn: r.LoadBalancers?.[0]?.LoadBalancerArn,
        dnsName: r.LoadBalancers?.[0]?.DNSName,
      }));
    case 'CreateTargetGroup':
      return client
        .send(new CreateTargetGroupCommand(withInstance(withCreatedAt(c.input, now()), ctx)), o)
        .then((r) => ({ arn: r.TargetGroups?.[0]?.TargetGroupArn }));
    case 'CreateListener':
      return client
        .send(new CreateListenerCommand(withInstance(c.input, ctx)), o)
        .then((r) => ({ arn: r.Listeners?.[0]?.ListenerArn }));
    case 'CreateRule':
      // No plan refers to a rule it creates (nothing is attached to a rule).
      return client.send(new CreateRuleCommand(withInstance(c.input, ctx)), o).then(none);
    case 'DeleteLoadBalancer':
      return client.send(new DeleteLoadBalancerCommand(c.input), o).then(none);
    case 'SetSubnets':
      return client.send(new SetSubnetsCommand(c.input), o).then(none);
    case 'SetSecurityGroups':
      return client.send(new SetSecurityGroupsCommand(c.input), o).then(none);
    case 'SetIpAddressType':
      return client.send(new SetIpAddressTypeCommand(c.input), o).then(none);
    case 'ModifyLoadBalancerAttributes':
      return client.send(new ModifyLoadBalancerAttributesCommand(c.input), o).then(none);
    case 'ModifyCapacityReservation':
      return client.send(new ModifyCapacityReservationCommand(c.input), o).then(none);
    case 'ModifyTargetGroup':
      return client.send(new ModifyTargetGroupCommand(c.input), o).then(none);
    case 'ModifyTargetGroupAttributes':
      return client.send(new ModifyTargetGroupAttributesCommand(c.input), o).then(none);
    case 'DeleteTargetGroup':
      return client.send(new DeleteTargetGroupCommand(c.input), o).then(none);
    case 'RegisterTargets':
      return client.send(new RegisterTargetsCommand(c.input), o).then(none);
    case 'DeregisterTargets':
      return client.send(new DeregisterTargetsCommand(c.input), o).then(none);
    case 'ModifyListener':
      return client.send(new ModifyListenerCommand(c.input), o).then(none);
    case 'ModifyListenerAttributes':
      return client.send(new ModifyListenerAttributesCommand(c.input), o).then(none);
    case 'DeleteListener':
      return client.send(new DeleteListenerCommand(c.input), o).then(none);
    case 'AddListenerCertificates':
      return client.send(new AddListenerCertificatesCommand(c.input), o).then(none);
    case 'RemoveListenerCertificates':
      return client.send(new RemoveListenerCertificatesCommand(c.input), o).then(none);
    case 'ModifyRule':
      return client.send(new ModifyRuleCommand(c.input), o).then(none);
    case 'DeleteRule':
      return client.send(new DeleteRuleCommand(c.input), o).then(none);
    case 'SetRulePriorities':
      return client.send(new SetRulePrioritiesCommand(c.input), o).then(none);
    case 'AddTags':
      return client.send(new AddTagsCommand(c.input), o).then(none);
    case 'RemoveTags':
      return client.send(new RemoveTagsCommand(c.input), o).then(none);
    case 'AssociateWebACL':
      return edge(ctx)
        .wafv2()
        .then((w) => w.associate(c.input, o))
        .then(none);
    case 'DisassociateWebACL':
      return edge(ctx)
        .wafv2()
        .then((w) => w.disassociate(c.input, o))
        .then(none);
    case 'CreateProtection':
      return edge(ctx)
        .shield()
        .then((s) => s.create(withInstance(c.input, ctx), o))
        .then(none);
    case 'DeleteProtection':
      return edge(ctx)
        .shield()
        .then((s) => s.delete(c.input, o))
        .then(none);
  }
}

function edge(ctx: DeployContext) {
  if (!ctx.edge) throw new Error('the deploy context has no edge services (WAFv2, Shield)');
  return ctx.edge;
}

/** The API a call goes to, for its messages. */
function serviceOf(action: SentCall['action']): string {
  return (EDGE_ACTIONS as Partial<Record<string, string>>)[action] ?? 'ELBv2';
}

/**
 * What an edge call's failure means: done already (a protection a lost response created, one
 * already deleted, a load balancer gone with its association), or the user's web ACL ARN naming
 * nothing; undefined: not an edge outcome.
 */
function edgeOutcome(c: SentCall, err: unknown): 'done' | Error | undefined {
  if (c.action === 'CreateProtection' && isAwsError(err, 'ResourceAlreadyExistsException')) return 'done';
  if (c.action === 'DeleteProtection' && isAwsError(err, 'ResourceNotFoundException')) return 'done';
  if (c.action === 'DisassociateWebACL' && isAwsError(err, 'WAFNonexistentItemException')) return 'done';
  if (c.action === 'AssociateWebACL' && isAwsError(err, 'WAFNonexistentItemException')) {
    const key = ALB_KEYS.wafv2AclArn;
    return new InvalidObjectError(
      `annotation ${key}: WAFv2 has no web ACL ${c.input.WebACLArn ?? ''} (AssociateWebACL: ${errorMessage(err)}): name an existing regional web ACL`,
      { field: key, reason: 'InvalidAnnotation', cause: err },
    );
  }
  return undefined;
}

/**
 * What AWS answers a registration of `all` that needs a zone (an ALB target group with cross-zone
 * off and a target outside its VPC); matched as LBC matches it (resource_manager.go
 * `isAZValidationError`: code ValidationError, message containing these words).
 */
export function isZoneRequiredError(err: unknown): boolean {
  return (
    isAwsError(err, 'ValidationError') && errorMessage(err).includes('you must specify an Availability Zone')
  );
}

/**
 * A call AWS refuses only for a moment, asked again 2 s apart (as LBC does) before the reconcile
 * is requeued: a group a just-deleted rule or load balancer still holds (LBC: 20 s for a target
 * group, 2 minutes for a security group a load balancer's interfaces held), or a web ACL WAFv2
 * cannot associate while a just-created ALB is still being set up.
 */
function notYet(c: SentCall, err: unknown): { message: string; retryAfterSeconds: number } | undefined {
  if (c.action === 'DeleteTargetGroup' && isAwsError(err, 'ResourceInUse'))
    return { message: `target group ${c.input.TargetGroupArn ?? ''} is still in use`, retryAfterSeconds: 10 };
  if (c.action === 'DeleteSecurityGroup' && isAwsError(err, 'DependencyViolation'))
    return { message: `security group ${c.input.GroupId ?? ''} is still in use`, retryAfterSeconds: 20 };
  if (c.action === 'AssociateWebACL' && isAwsError(err, 'WAFUnavailableEntityException'))
    return {
      message: `WAFv2 cannot associate a web ACL with ${c.input.ResourceArn ?? ''} yet`,
      retryAfterSeconds: 10,
    };
  return undefined;
}

/** Deletions of something already gone are done; what AWS refuses only for a moment is retried (bounded). */
async function runOne(ctx: DeployContext, c: SentCall): Promise<Created> {
  const { resourceInUseAttempts, resourceInUseDelayMs } = ctx.options;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(ctx, c.action, (o) => send(ctx, c, o), isEc2Call(c) ? 'EC2' : serviceOf(c.action));
    } catch (err) {
      const outcome = edgeOutcome(c, err);
      if (outcome === 'done') return {};
      if (outcome) throw outcome;
      if (c.action === 'RegisterTargets' && c.ifZoneRequired && isZoneRequiredError(err)) {
        ctx.logger.info('AWS needs a zone for targets outside the VPC; registering them in their own zones', {
          targetGroup: c.input.TargetGroupArn,
        });
        const zoned = { ...c, input: { ...c.input, Targets: c.ifZoneRequired }, ifZoneRequired: undefined };
        return await call(ctx, c.action, (o) => send(ctx, zoned, o));
      }
      if (c.action === 'DeleteLoadBalancer' && isAwsError(err, 'LoadBalancerNotFound')) return {};
      if (c.action === 'DeleteTargetGroup' && isAwsError(err, 'TargetGroupNotFound')) return {};
      if (c.action === 'DeleteRule' && isAwsError(err, 'RuleNotFound')) return {};
      if (c.action === 'ModifyCapacityReservation') throw capacityFailure(err, now()) ?? err;
      const wait = notYet(c, err);
      if (!wait) throw err;
      // Waited out here, the change finishes in this reconcile; after the attempts, the reconcile
      // is requeued rather than kept.
      if (attempt >= resourceInUseAttempts) {
        throw new RetryLaterError(wait.message, { cause: err, retryAfterSeconds: wait.retryAfterSeconds });
      }
      await sleep(resourceInUseDelayMs, ctx.signal);
    }
  }
}

export interface ApplyResult {
  /** Resource ID → ARN of what the plan created. */
  arns: Map<string, string>;
  /** Resource ID → DNS name of load balancers the plan created. */
  dnsNames: Map<string, string>;
}

/** The call as it is sent: its placeholders replaced, field by field (refs.ts resolvePlanned). */
function resolveCall(planned: PlannedCall, values: RefValues): SentCall {
  // The action and its input stay paired; only the input's placeholders change.
  return { ...planned, input: resolvePlanned<unknown>(planned.input, values) } as SentCall;
}

export async function applyPlan(
  ctx: DeployContext,
  plan: readonly Operation[],
  /** The OIDC client secrets the plan's `secretRef`s name, put in as each call is sent. */
  secrets?: SecretValues,
): Promise<ApplyResult> {
  const arns = new Map<string, string>();
  const dnsNames = new Map<string, string>();
  const values: RefValues = { arns, dnsNames, ...(secrets ? { secrets } : {}) };
  for (const op of plan) {
    for (const planned of op.calls) {
      checkAborted(ctx);
      const c = resolveCall(planned, values);
      const created = await runOne(ctx, c);
      if (c.produces !== undefined) {
        if (!created.arn) throw new Error(`${c.action} for ${c.produces} returned no ARN`);
        arns.set(c.produces, created.arn);
        if (created.dnsName !== undefined) dnsNames.set(c.produces, created.dnsName);
      }
    }
    if (op.op !== 'modify' || op.resource !== 'Targets') {
      ctx.logger.info(`${op.op} ${op.resource}`, { id: op.id, detail: op.detail });
    }
  }
  return { arns, dnsNames };
}
