/**
 * The reference AWS provider: register `createAwsProvider` as `aws`.
 *
 * Layout (LBC's model/deploy split):
 * - config.ts: configuration file → validated config; the ELBv2 client (adaptive retry).
 * - tagging.ts / naming.ts: ownership and fingerprint tags; deterministic 32-character names.
 * - model/: pure MultiClusterIngress → ALB stack (ingress.ts) and MultiClusterService → NLB stack
 *   (service.ts) on one core (stack.ts: members + placement, owner, IP target group, common
 *   annotations, the stack literal); annotations/ (one parser per concern), limits.ts, fingerprint.ts.
 * - deploy/: discover.ts (what exists of a stack, for deploy, plan, deletion and the sweep) → pure
 *   plan per resource type (plan.ts) → apply.ts, run by deployer.ts and deletion.ts; describe.ts
 *   (the Describe calls), context.ts (the one call wrapper), rate-limit.ts (calls-per-second cap).
 * - iam.ts: the minimal IAM policy; inputs.ts: reads Services and collected EndpointSlices;
 *   provider.ts: the contract's balancers; inventory.ts: the orphan sweep's inventory.
 */
export { createAwsProvider, withContainerRate } from './factory.js';
export {
  AwsProvider,
  AWS_PROVIDER_NAME,
  ingressStatus,
  type AwsLoadBalancerStatus,
  type AwsProviderOptions,
  type PlanResult,
} from './provider.js';
export {
  parseAwsConfig,
  createElbv2Client,
  DEFAULT_HEALTH_CHECK,
  DEFAULT_RECORD_NAMESPACE,
  type AwsProviderConfig,
} from './config.js';
export { buildIngressStack, type IngressStackInput } from './model/ingress.js';
export { buildServiceStack, providerClusters, type ServiceStackInput } from './model/service.js';
export { stackFingerprint } from './model/fingerprint.js';
export type { ModelConfig, Placement, Stack, StackResource } from './model/types.js';
export { formatPlan, plannedActions, type Operation } from './deploy/operations.js';
export { OWNER_TAG, STACK_TAG, RESOURCE_TAG, FINGERPRINT_TAG } from './tagging.js';
export { elbv2PolicyStatements, ELBV2_DESCRIBE_ACTIONS, ELBV2_MUTATING_ACTIONS } from './iam.js';
