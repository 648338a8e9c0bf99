/**
 * What an object is told when a resource under the name it needs is not its stack's. The Event
 * and the condition are read by the object's users, who may be one tenant among several: another
 * namespace's object, another deployment's owner ID or instance, and any stack ID are the
 * operator's business (they go to the log, as `holder`). So the message names the holder only when
 * it is an object of the same namespace (the same tenant: two of its objects ask for one
 * load-balancer-name), and never suggests tagging the resource as ours: adopting someone else's
 * resource is an operator's decision, not an Event's advice. Pure.
 */
import { OwnershipConflictError } from '../../errors.js';
import { parseStackId, SHARED_GROUP_NAMESPACE, type StackRef } from '../../provider/stack-id.js';
import { INSTANCE_TAG, isOwnerOf, OWNER_TAG, STACK_TAG, type StackOwner } from './tagging.js';

/** Another object of this deployment already has the name (two objects ask for one load-balancer-name). */
export const NAME_IN_USE = 'LoadBalancerNameInUse';
/** Something that is not this deployment's has the name (another deployment's, or untagged). */
export const OWNERSHIP_CONFLICT = 'OwnershipConflict';

/** The holder as the tags say, for the operator's log. */
function holderOf(tags: Readonly<Record<string, string>>): string {
  if (tags[OWNER_TAG] === undefined) return 'no multicluster ownership tags';
  return `owner "${tags[OWNER_TAG]}", instance "${tags[INSTANCE_TAG] ?? ''}", stack "${tags[STACK_TAG] ?? ''}"`;
}

/** The object a stack of the same namespace belongs to, as its users know it. */
function objectOf(ref: StackRef): string {
  switch (ref.kind) {
    case 'mci':
      return `MultiClusterIngress ${ref.namespace}/${ref.name}`;
    case 'mcs':
      return `MultiClusterService ${ref.namespace}/${ref.name}`;
    case 'mci-group':
      return `the IngressGroup "${ref.name}" of namespace ${ref.namespace}`;
  }
}

/**
 * The conflict of the resource `kind` `name`, carrying `tags`, with the stack of `owner`
 * (the caller has found it is not owned by that stack).
 */
export function ownershipConflict(
  kind: string,
  name: string | undefined,
  tags: Readonly<Record<string, string>>,
  owner: StackOwner,
  cause?: unknown,
): OwnershipConflictError {
  const what = `${kind} "${name ?? ''}"`;
  const holder = holderOf(tags);
  const options = { holder, ...(cause !== undefined ? { cause } : {}) };
  const stack = tags[STACK_TAG];
  if (isOwnerOf(tags, owner) && stack !== undefined && stack !== owner.stackId) {
    const theirs = parseStackId(stack);
    const mine = parseStackId(owner.stackId);
    // A shared group's `_shared` is no namespace: its members may be any tenant's.
    const namespace = theirs && theirs.namespace !== SHARED_GROUP_NAMESPACE ? theirs.namespace : undefined;
    const who =
      theirs && namespace !== undefined && namespace === mine?.namespace
        ? objectOf(theirs)
        : namespace !== undefined
          ? 'another object of this deployment, in another namespace'
          : 'another object of this deployment';
    return new OwnershipConflictError(`${what} is in use by ${who}: two objects cannot share one name`, {
      ...options,
      reason: NAME_IN_USE,
    });
  }
  return new OwnershipConflictError(
    `${what} exists in AWS but is not owned by this deployment: it is never modified or deleted`,
    { ...options, reason: OWNERSHIP_CONFLICT },
  );
}
