/**
 * Which IngressGroup stack a MultiClusterIngress is in, and who else is: read from Kubernetes.
 *
 * A group is confined to one namespace unless the tenant policy shares it (`sharedGroups`):
 * - a shared group has the stack `mci-group/_shared/<group>` and takes members from the
 *   namespaces the policy lists (one label-selected LIST in each); a member elsewhere is refused;
 * - any other group belongs to one namespace, with the stack `mci-group/<namespace>/<group>`: the
 *   namespace whose group stack is deployed (it has a targets record), else the namespace of the
 *   oldest member (creation time, then namespace/name). A member of another namespace naming it is
 *   refused (one label-selected LIST finds them: cluster-wide, or one per allowed namespace within
 *   ALLOWED_NAMESPACES, kube/namespace-scoped.ts), so a team cannot take over another team's load
 *   balancer by naming its group, however old its own MCIs are.
 * A member is an MCI whose group.name annotation names the group, that carries the group's
 * finalizer (the reconcile adds it before the MCI joins, with the group label) and that is not
 * being deleted.
 */
import { InvalidObjectError } from '../../errors.js';
import { GROUP_LABEL, groupFinalizer, validGroupNameOf } from '../../karmada/ingress-group.js';
import type { MultiClusterIngress } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { hasFinalizer } from '../../kube/finalizers.js';
import { Resources } from '../../kube/resources.js';
import { SHARED_GROUP_NAMESPACE, stackId, type StackRef } from '../../provider/stack-id.js';
import type { TenantPolicy } from './tenant-policy-types.js';

export const GROUP_NOT_SHARED_REASON = 'IngressGroupNotShared';

export interface GroupResolution {
  group: string;
  ref: StackRef;
  shared: boolean;
  /** The members on the group's stack (the subject included when it may join), unordered. */
  members: MultiClusterIngress[];
  /** Why the subject may not join, when it may not. */
  refusal?: InvalidObjectError;
}

export function groupStackRef(group: string, namespace: string): StackRef {
  return { kind: 'mci-group', namespace, name: group, stackId: stackId('mci-group', namespace, group) };
}

function keyOf(mci: Readonly<MultiClusterIngress>): string {
  return `${mci.metadata.namespace ?? ''}/${mci.metadata.name ?? ''}`;
}

/** Oldest first: creation time, then namespace/name (objects without a time count as newest). */
function age(mci: Readonly<MultiClusterIngress>): string {
  return `${mci.metadata.creationTimestamp ?? '~'}|${keyOf(mci)}`;
}

export function sharedGroupOf(
  policy: TenantPolicy | undefined,
  group: string,
): { name: string; namespaces: string[] } | undefined {
  return policy?.sharedGroups?.find((g) => g.name === group);
}

export interface ResolveInput {
  group: string;
  /** The MCI being reconciled, as the reconcile has it (its finalizer and label written). */
  subject?: Readonly<MultiClusterIngress>;
  /** `<namespace>/<name>` of an MCI that is leaving: never a member, whatever Kubernetes says. */
  leaving?: string;
  /** The namespace whose group is meant when there is no subject (a stack ID's). */
  namespace?: string;
}

/** The group's stack and members as Kubernetes has them now, read through `kube`. */
export async function resolveGroup(
  kube: KubeClient,
  policy: TenantPolicy | undefined,
  input: ResolveInput,
  /** Whether the group stack has been deployed (its targets record exists). */
  deployed: (ref: StackRef) => Promise<boolean>,
): Promise<GroupResolution> {
  const { group } = input;
  const shared = sharedGroupOf(policy, group);
  const selector = { labelSelector: `${GROUP_LABEL}=${group}` };
  const listed: MultiClusterIngress[] = [];
  if (shared) {
    for (const namespace of [...new Set(shared.namespaces)].sort())
      listed.push(
        ...(await kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, { ...selector, namespace }))
          .items,
      );
  } else {
    listed.push(...(await kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, selector)).items);
  }
  const byKey = new Map<string, MultiClusterIngress>();
  for (const mci of listed) {
    if (
      validGroupNameOf(mci) === group &&
      hasFinalizer(mci, groupFinalizer(group)) &&
      !mci.metadata.deletionTimestamp
    )
      byKey.set(keyOf(mci), mci);
  }
  const subject = input.subject;
  if (subject && validGroupNameOf(subject) === group)
    byKey.set(keyOf(subject), subject as MultiClusterIngress);
  if (input.leaving !== undefined) byKey.delete(input.leaving);
  const candidates = [...byKey.values()];

  if (shared) {
    const allowed = new Set(shared.namespaces);
    const refused =
      subject && !allowed.has(subject.metadata.namespace ?? '')
        ? new InvalidObjectError(
            `IngressGroup "${group}" is shared by the tenant policy (tenantPolicy.sharedGroups) with namespaces ${shared.namespaces.join(', ')} only, not with ${subject.metadata.namespace ?? ''}: this MultiClusterIngress is not served until it names another group or the policy lists its namespace`,
            {
              field: 'metadata.annotations.alb.ingress.kubernetes.io/group.name',
              reason: GROUP_NOT_SHARED_REASON,
            },
          )
        : undefined;
    return {
      group,
      ref: groupStackRef(group, SHARED_GROUP_NAMESPACE),
      shared: true,
      members: candidates.filter((m) => allowed.has(m.metadata.namespace ?? '')),
      ...(refused ? { refusal: refused } : {}),
    };
  }

  const oldestFirst = [...candidates].sort((a, b) => (age(a) < age(b) ? -1 : 1));
  const namespaces = [...new Set(oldestFirst.map((m) => m.metadata.namespace ?? ''))];
  let namespace: string | undefined;
  // Only when there is a choice: a group in one namespace needs no look-up.
  if (namespaces.length > 1) {
    for (const ns of namespaces)
      if (await deployed(groupStackRef(group, ns))) {
        namespace = ns;
        break;
      }
  }
  namespace ??= namespaces[0] ?? subject?.metadata.namespace ?? input.namespace ?? '';
  const oldest = oldestFirst.find((m) => m.metadata.namespace === namespace);
  const refused =
    subject && oldest && subject.metadata.namespace !== namespace
      ? new InvalidObjectError(
          `IngressGroup "${group}" belongs to namespace ${namespace} (its member ${keyOf(oldest)} was there first); a group is confined to its namespace unless the tenant policy shares it (tenantPolicy.sharedGroups has no entry "${group}"): this MultiClusterIngress is not served until it names another group or the policy shares this one`,
          {
            field: 'metadata.annotations.alb.ingress.kubernetes.io/group.name',
            reason: GROUP_NOT_SHARED_REASON,
          },
        )
      : undefined;
  return {
    group,
    ref: groupStackRef(group, namespace),
    shared: false,
    members: candidates.filter((m) => m.metadata.namespace === namespace),
    ...(refused ? { refusal: refused } : {}),
  };
}

/** The group stack an MCI was in: its namespace's, or the shared one if the policy shares it. */
export function formerGroupRef(policy: TenantPolicy | undefined, group: string, namespace: string): StackRef {
  return groupStackRef(group, sharedGroupOf(policy, group) ? SHARED_GROUP_NAMESPACE : namespace);
}
