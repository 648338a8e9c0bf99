/**
 * Ownership tags: the only place that knows their keys. The stack tag's value is a stack ID, whose
 * format lib/provider/stack-id.ts owns.
 *
 * As in LBC (pkg/deploy/tracking/provider.go), AWS resources are *owned* through tags, never through
 * names: `owner` names this deployment (so two deployments in one account never fight), `stack`
 * names the Kubernetes object, `resource` names the resource inside the stack.
 */

export const TAG_PREFIX = 'multicluster.karmada.io';
export const OWNER_TAG = `${TAG_PREFIX}/owner`;
export const STACK_TAG = `${TAG_PREFIX}/stack`;
export const RESOURCE_TAG = `${TAG_PREFIX}/resource`;
/** On the load balancer only: the hash of the last stack deployed in full (model/fingerprint.ts). */
export const FINGERPRINT_TAG = `${TAG_PREFIX}/fingerprint`;
/** Written before a deploy that changes something, so an interrupted deploy is never mistaken for done. */
export const FINGERPRINT_PENDING = 'pending';
/**
 * On target groups only, written by CreateTargetGroup (ISO 8601): ELBv2 reports no creation time
 * for target groups, and the orphan sweep must leave young ones alone (an in-flight reconcile
 * creates a group before the rule that uses it).
 */
export const CREATED_AT_TAG = `${TAG_PREFIX}/created-at`;
/**
 * The Karmada instance (the UID of its kube-system namespace, instance.ts): with the owner tag,
 * what makes a resource this deployment's, so two Karmadas given one ownerId never share resources.
 */
export const INSTANCE_TAG = `${TAG_PREFIX}/instance`;
/** On the owner-ID claim only (owner-claim.ts). */
export const CLAIM_TAG = `${TAG_PREFIX}/claim`;
/**
 * On a load balancer whose capacity we reserved (minimum-load-balancer-capacity): the units. Part
 * of the desired tags while the annotation asks for a reservation, so that its removal is seen
 * (the tag is there, the annotation is not) and the reservation reset, without a
 * DescribeCapacityReservation on every full deploy of every ALB.
 */
export const CAPACITY_TAG = `${TAG_PREFIX}/capacity-units`;
/**
 * On a load balancer whose rules authenticate with OIDC: which versions of the client Secrets the
 * rules were last given (a hash of them, nothing of the secrets). ELBv2 never returns a client
 * secret, so this is how a rotated one is told apart (deploy/plan.ts).
 */
export const OIDC_SECRETS_TAG = `${TAG_PREFIX}/oidc-secrets`;
/**
 * On a load balancer whose WAFv2 web ACL we manage (wafv2-acl-arn / wafv2-acl-name): an
 * association cannot be tagged, so the load balancer records it, like CAPACITY_TAG. Removing the
 * annotation then disassociates the ACL; without the tag an association is someone else's.
 */
export const WAF_TAG = `${TAG_PREFIX}/wafv2-acl`;
/**
 * On a load balancer whose Shield Advanced protection we manage (shield-advanced-protection:
 * true). The protection carries our ownership tags too; this record spares a Shield call (and
 * loading its client) for every load balancer that never asked for one.
 */
export const SHIELD_TAG = `${TAG_PREFIX}/shield-protection`;
/**
 * On a load balancer with a managed security group (model/security-group.ts): the group's ID,
 * written with the fingerprint. When the group is no longer wanted the tag says there is one to
 * delete, and it goes only once the group is gone (a deletion refused while the load balancer's
 * interfaces linger is retried by the next deploy, which the tag makes look for it).
 */
export const SECURITY_GROUP_TAG = `${TAG_PREFIX}/security-group`;
/**
 * On an ALB with a frontend NLB (model/frontend-nlb.ts): the NLB's name and DNS name, written with
 * the fingerprint. The name tells discovery there is an NLB to find (or to delete once it is no
 * longer wanted, or with the stack); the DNS name is the status's second hostname, read from tags.
 */
export const FRONTEND_NLB_TAG = `${TAG_PREFIX}/frontend-nlb`;
export const FRONTEND_NLB_DNS_TAG = `${TAG_PREFIX}/frontend-nlb-dns-name`;
export const RESERVED_TAG_KEYS: readonly string[] = [
  OIDC_SECRETS_TAG,
  FRONTEND_NLB_TAG,
  FRONTEND_NLB_DNS_TAG,
  INSTANCE_TAG,
  SECURITY_GROUP_TAG,
  CLAIM_TAG,
  OWNER_TAG,
  STACK_TAG,
  RESOURCE_TAG,
  FINGERPRINT_TAG,
  CREATED_AT_TAG,
];

/** The time a CREATED_AT_TAG holds, or undefined when it is missing or unreadable. */
export function createdAtOf(tags: Readonly<Record<string, string>>): Date | undefined {
  const value = tags[CREATED_AT_TAG];
  if (value === undefined) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

export interface StackOwner {
  ownerId: string;
  stackId: string;
  /** The Karmada instance; when set, resources must carry it to be owned. */
  instanceId?: string;
}

/** Whether tags name this owner (and its Karmada instance, when known), whatever the stack. */
export function isOwnerOf(
  tags: Readonly<Record<string, string>>,
  owner: Pick<StackOwner, 'ownerId' | 'instanceId'>,
): boolean {
  return (
    tags[OWNER_TAG] === owner.ownerId &&
    (owner.instanceId === undefined || tags[INSTANCE_TAG] === owner.instanceId)
  );
}

/** The full tag set of one resource: configured default tags first, ownership tags win. */
export function resourceTags(
  owner: StackOwner,
  resourceId: string,
  defaultTags: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    ...defaultTags,
    [OWNER_TAG]: owner.ownerId,
    [STACK_TAG]: owner.stackId,
    [RESOURCE_TAG]: resourceId,
    ...(owner.instanceId !== undefined ? { [INSTANCE_TAG]: owner.instanceId } : {}),
  };
}

/** Whether a resource's tags say it belongs to this deployment's stack. */
export function isOwnedBy(tags: Readonly<Record<string, string>>, owner: StackOwner): boolean {
  return isOwnerOf(tags, owner) && tags[STACK_TAG] === owner.stackId;
}

/** The resource ID a resource was tagged with, if any. */
export function resourceIdOf(tags: Readonly<Record<string, string>>): string | undefined {
  return tags[RESOURCE_TAG];
}

/** Converts the SDK's `[{Key, Value}]` to a record. */
export function tagsToRecord(
  tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tags ?? []) if (t.Key !== undefined) out[t.Key] = t.Value ?? '';
  return out;
}

export function recordToTags<V = string>(
  tags: Readonly<Record<string, V>>,
): Array<{ Key: string; Value: V }> {
  // Sorted by UTF-16 code units, as sort() without a comparator would.
  return Object.entries(tags)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([Key, Value]) => ({ Key, Value }));
}

/** Tags to add or overwrite so that `actual` carries every desired tag (removals: tagsToRemove). */
export function tagsToUpsert(
  desired: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(desired)) if (actual[k] !== v) out[k] = v;
  return out;
}

/**
 * Keys to remove so that `actual` carries no user tag the spec dropped (LBC's rule). Spared: `aws:`
 * keys (AWS's own, and not removable anyway), our bookkeeping keys (the fingerprint and created-at
 * are never in the desired spec, yet the fast path and the orphan sweep depend on them), and
 * `externalManagedTags` (keys other tools own on our resources, e.g. cost allocation: without the
 * exemption we would fight them on every resync).
 */
export function tagsToRemove(
  desired: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
  externalManagedTags: readonly string[] = [],
): string[] {
  return Object.keys(actual)
    .filter(
      (k) =>
        !Object.hasOwn(desired, k) &&
        !k.toLowerCase().startsWith('aws:') &&
        !RESERVED_TAG_KEYS.includes(k) &&
        // The targets-only path's records (deploy/targets-only.ts), written with the fingerprint.
        !k.startsWith(`${TAG_PREFIX}/targets/`) &&
        k !== `${TAG_PREFIX}/dns-name` &&
        !externalManagedTags.includes(k),
    )
    .sort();
}
