/**
 * What the balancers (balancer.ts, ingress-balancer.ts) and their callers share, without the
 * balancer itself: the provider they are given, what a deploy and a plan return, and the small
 * pure pieces of an object's status and its warnings.
 */
import type { KubeClient } from '../../kube/client.js';
import type { KubeObject } from '../../kube/types.js';
import type { ProviderContext } from '../../provider/contract.js';
import type { DeployResult } from './deploy/deployer.js';
import type { Operation } from './deploy/operations.js';
import type { AcceleratorOperation } from './accelerator/types.js';
import { acceleratorIngress, type AcceleratorService } from './accelerator/service.js';
import type { AcceleratorResult } from './accelerator/reconcile.js';
import type { ModelWarning, Stack } from './model/types.js';
import type { StackOwner } from './tagging.js';
import type { AwsProviderConfig } from './config-types.js';
import type { DeployContext } from './deploy/context.js';
import type { AwsLoadBalancerStatus } from './load-balancer-status.js';
import type { RegionalRole } from './regions/role.js';

/**
 * What a balancer reads of the provider that made it (AwsProvider, provider.ts): named here, as
 * the provider imports the balancers, so that they do not import it back.
 */
export interface BalancerHost {
  readonly config: AwsProviderConfig;
  /** Set when the provider is one Region's part of a multi-Region one (regions/role.ts). */
  readonly regional: RegionalRole | undefined;
  readonly accelerators: AcceleratorService;
  context(ctx: ProviderContext, owner: StackOwner): DeployContext;
  serves(stack: Stack): boolean;
  mayHold(ctx: ProviderContext | undefined, stackId: string): Promise<boolean>;
  settledNow(stack: Stack): Promise<Stack>;
}

/** Whether a warning is the reconciled object's to report: its own, or the whole stack's. */
export function isAbout(warning: ModelWarning, obj: Readonly<KubeObject>): boolean {
  const { namespace, name } = obj.metadata;
  return (
    warning.object === undefined || (warning.object.namespace === namespace && warning.object.name === name)
  );
}

/**
 * Per-cluster mode: each backend's effective cluster weights, for the load-balancer condition;
 * a regional part's under its Region (each Region weighs only its own clusters).
 */
export function reportTraffic(ctx: ProviderContext, stack: Stack, region?: string): void {
  if (stack.traffic?.length)
    ctx.detail?.(`cluster weights${region ? ` in ${region}` : ''}: ${stack.traffic.join('; ')}`);
}

/**
 * A regional part's desired fingerprint of a stack its Region does not serve (regions/): no
 * fingerprint a load balancer records, and what regions/fingerprints.ts records for a Region
 * without one.
 */
export const NOT_SERVED = '-';

/**
 * `{ ingress: [{ hostname }] }`: the lower-cased DNS name, WITHOUT `ports`. LBC also reports the
 * listener ports, but Karmada's CRDs (infra/crds/) make `ingress[].ports[].error` required, so a
 * real Karmada API server rejects a port status without an error; we have no error to report.
 */
export function ingressStatus(dnsName: string, frontendDnsName?: string): AwsLoadBalancerStatus {
  // As LBC: the ALB's hostname first, then its frontend NLB's (enable-frontend-nlb).
  return {
    ingress: [
      { hostname: dnsName.toLowerCase() },
      ...(frontendDnsName ? [{ hostname: frontendDnsName.toLowerCase() }] : []),
    ],
  };
}

/** What differs between the ALB (MCI) and the NLB (MCS): everything else is shared. */
export interface StackKindAdapter<O extends KubeObject> {
  owner(obj: Readonly<O>): StackOwner;
  /** The wanted name first, then names a previous spec may have used. */
  names(obj: Readonly<O>): string[];
  /**
   * The desired stack, read through `kube` (the provider's client unless given). With `ctx` (a
   * reconcile) a stack over AWS's default quotas is checked again against the account's.
   * `network: false` builds without reading the VPC's network (for what does not depend on the
   * targets' zones, such as the target group names): every target is then taken as off the VPC.
   */
  build(obj: Readonly<O>, kube?: KubeClient, ctx?: ProviderContext, network?: boolean): Promise<Stack>;
}

export interface PlanResult {
  plan: Operation[];
  /**
   * Its accelerator's (Global Accelerator): the dials going to 0 are applied before `plan`, the
   * rest after it.
   */
  accelerator?: AcceleratorOperation[];
  /** Stopped after confirming the fingerprint: nothing to do. */
  skipped: boolean;
  /** What the objects ask for that the stack does not honour (a reconcile reports them as Events). */
  warnings: ModelWarning[];
  /** What the plan brings AWS to, for a picture of it (lib/topology/). */
  target: PlanTarget;
}

/** The state a plan brings AWS to: the stack (an IngressGroup member's: its group's) and its accelerator. */
export interface PlanTarget {
  stack: Stack;
  /** False: a regional part whose Region does not serve the stack (the plan deletes what it has there). */
  served: boolean;
  /** The load balancer's DNS name, once it exists. */
  dnsName?: string;
  /** The accelerator in front (a one-Region provider's; over Regions it is the orchestrator's). */
  accelerator?: Pick<AcceleratorResult, 'desired' | 'status'>;
}

/** A stack's deploy: the ELBv2 stack's, and its accelerator's (both phases) when it has one. */
export type StackDeployResult = DeployResult & { accelerator?: AcceleratorResult; stack: Stack };

/** A deploy's result with the warnings of the object it was for. */
export type ObjectDeployResult = StackDeployResult & { warnings: ModelWarning[] };

/** The object's status: the accelerator's entry point when it has one, else the load balancer's. */
export function statusOfDeploy(result: StackDeployResult): AwsLoadBalancerStatus | undefined {
  const accelerated = result.accelerator?.status;
  if (accelerated) return acceleratorIngress(accelerated);
  return result.dnsName !== undefined ? ingressStatus(result.dnsName, result.frontendDnsName) : undefined;
}
