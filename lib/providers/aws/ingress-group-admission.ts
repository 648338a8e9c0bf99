/**
 * The tenant policy over an IngressGroup (model/ingress-group.ts asks, this answers): every
 * member's policy must hold on the group's load balancer, not only the policy of the member
 * being reconciled. One namespace pinned to `schemes: [internal]` that shares a group with a
 * namespace that may go public must not find its routes on an internet-facing ALB because the
 * other team set `scheme: internet-facing` (or an accelerator, CIDRs, a certificate...).
 *
 * Each member's rules are held to the part of the group's stack that is its: everything shared
 * (the load balancer, its listeners and certificates, the security group, the frontend NLB, the
 * accelerator in front) and its own rules and target groups. When the candidate's own policy
 * fails, it is refused with its own TenantPolicyViolation; when another member's fails, the
 * candidate is refused naming the setting and the rule, never that member's name unless it is
 * of the candidate's namespace.
 */
import { findCause, InvalidObjectError } from '../../errors.js';
import type { MultiClusterIngress } from '../../karmada/types.js';
import type { KubeObject } from '../../kube/types.js';
import {
  AHEAD,
  GROUP_CONFLICT_REASON,
  nameFor,
  type AdmissionCheck,
  type AdmissionRequest,
} from './model/ingress-group.js';
import type { Stack } from './model/types.js';
import type { PolicyReads, PolicySubject } from './tenant-policy-types.js';

export interface GroupPolicyDeps {
  group: string;
  /** Throws the policy's InvalidObjectError when `stack` breaks a rule that applies to `subject`. */
  check(subject: PolicySubject, stack: Stack, reads: PolicyReads): Promise<unknown>;
  /** The stack with what its members ask of Global Accelerator (AcceleratorService.withIntent). */
  withAccelerator(stack: Stack, members: readonly Readonly<MultiClusterIngress>[]): Stack;
  /** The policy's reads; one build asks them once per namespace (memoizedPolicyReads). */
  reads: PolicyReads;
}

/** The reads, each asked once (a group of 50 is checked member by member, up to 50 times). */
export function memoizedPolicyReads(load: () => PolicyReads | Promise<PolicyReads>): PolicyReads {
  let base: Promise<PolicyReads> | undefined;
  const reads = () => (base ??= Promise.resolve(load()));
  const labels = new Map<string, Promise<Record<string, string> | undefined>>();
  const holders = new Map<string, Promise<KubeObject[]>>();
  let defaultClass: Promise<string | undefined> | undefined;
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => {
    let hit = cache.get(key);
    if (!hit) {
      hit = read();
      cache.set(key, hit);
    }
    return hit;
  };
  return {
    namespaceLabels: (ns) => once(labels, ns, async () => (await reads()).namespaceLabels(ns)),
    loadBalancerHolders: (ns) => once(holders, ns, async () => (await reads()).loadBalancerHolders(ns)),
    defaultIngressClassName: () => (defaultClass ??= reads().then((r) => r.defaultIngressClassName())),
  };
}

function subjectOf(mci: Readonly<MultiClusterIngress>, annotations: Record<string, string>): PolicySubject {
  return {
    kind: 'MultiClusterIngress',
    // The group's annotations over its own: a value another member set is named as an annotation.
    metadata: { ...mci.metadata, annotations },
    ingressClassName: mci.spec?.ingressClassName,
  };
}

function refusedFor(group: string, candidate: string, other: string, err: InvalidObjectError) {
  return new InvalidObjectError(
    `with this MultiClusterIngress in it, IngressGroup "${group}"'s load balancer would break the tenant policy of ${nameFor(candidate, other)}, ahead of it in the group (${AHEAD}): ${err.message}. This MultiClusterIngress is left out of the group's load balancer until it asks for nothing that policy forbids; the rest of the group is served`,
    { field: err.field, reason: GROUP_CONFLICT_REASON, cause: err },
  );
}

/** The model's admission check: the accelerator in front, then every member's policy on its part. */
export function groupPolicyCheck(deps: GroupPolicyDeps): AdmissionCheck {
  return async (request: AdmissionRequest) => {
    let stack: Stack;
    try {
      stack = deps.withAccelerator(
        request.stack,
        request.members.map((m) => m.mci),
      );
    } catch (err) {
      const invalid = findCause(err, InvalidObjectError);
      if (!invalid) throw err;
      return invalid;
    }
    // The candidate's own rules first: its own violation is reported as its own.
    const members = [...request.members].sort(
      (a, b) => Number(b.key === request.candidate) - Number(a.key === request.candidate),
    );
    for (const member of members) {
      try {
        await deps.check(subjectOf(member.mci, member.annotations), member.view(stack), deps.reads);
      } catch (err) {
        const invalid = findCause(err, InvalidObjectError);
        if (!invalid) throw err;
        if (request.candidate === undefined || member.key === request.candidate) return invalid;
        return refusedFor(deps.group, request.candidate, member.key, invalid);
      }
    }
    return undefined;
  };
}
