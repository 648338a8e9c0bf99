/**
 * IngressGroups, as AWS Load Balancer Controller spells them (pkg/ingress/group_loader.go): the
 * MultiClusterIngresses naming one `group.name` share one load balancer. What every layer needs to
 * know about a member, whichever provider serves it:
 *
 *   alb.ingress.kubernetes.io/group.name: <name>      the group it asks to join
 *   alb.ingress.kubernetes.io/group.order: <n>        where its rules go (-1000..1000, default 0)
 *   group.multicluster.karmada.io/<name>              finalizer: its rules may be on the group's
 *                                                     load balancer (added before it joins, removed
 *                                                     after it left, as LBC's group finalizer)
 *   multicluster.karmada.io/ingress-group: <name>     label: lists a group's members with one
 *                                                     label-selected LIST (kept by the reconcile)
 */
import { InvalidObjectError } from '../errors.js';
import type { KubeObject } from '../kube/types.js';

export const GROUP_NAME_ANNOTATION = 'alb.ingress.kubernetes.io/group.name';
export const GROUP_ORDER_ANNOTATION = 'alb.ingress.kubernetes.io/group.order';
export const GROUP_FINALIZER_PREFIX = 'group.multicluster.karmada.io/';
export const GROUP_LABEL = 'multicluster.karmada.io/ingress-group';

/** LBC's rule for explicit group names (a DNS-1123 subdomain label set, at most 63 characters). */
const GROUP_NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
export const MAX_GROUP_NAME_LENGTH = 63;
export const MIN_GROUP_ORDER = -1000;
export const MAX_GROUP_ORDER = 1000;

function groupNameProblem(name: string): string | undefined {
  if (name.length > MAX_GROUP_NAME_LENGTH) return `is longer than ${MAX_GROUP_NAME_LENGTH} characters`;
  if (!GROUP_NAME.test(name)) {
    return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/** The group the object asks to join, undefined without one; throws when the name is invalid. */
export function groupNameOf(obj: Readonly<KubeObject>): string | undefined {
  const raw = obj.metadata.annotations?.[GROUP_NAME_ANNOTATION];
  if (raw === undefined) return undefined;
  const name = raw.trim();
  const problem = groupNameProblem(name);
  if (problem) {
    throw new InvalidObjectError(`annotation ${GROUP_NAME_ANNOTATION}: "${raw}" ${problem}`, {
      field: GROUP_NAME_ANNOTATION,
      reason: 'InvalidAnnotation',
    });
  }
  return name;
}

/** The group name when it is valid, else undefined (for bookkeeping that must never throw). */
export function validGroupNameOf(obj: Readonly<KubeObject>): string | undefined {
  try {
    return groupNameOf(obj);
  } catch {
    return undefined;
  }
}

/** `group.order`: an integer in -1000..1000, 0 when unset (LBC's default). */
export function groupOrderOf(obj: Readonly<KubeObject>): number {
  const raw = obj.metadata.annotations?.[GROUP_ORDER_ANNOTATION];
  if (raw === undefined) return 0;
  const value = raw.trim();
  const n = /^[-+]?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < MIN_GROUP_ORDER || n > MAX_GROUP_ORDER) {
    throw new InvalidObjectError(
      `annotation ${GROUP_ORDER_ANNOTATION}: "${raw}" must be an integer from ${MIN_GROUP_ORDER} to ${MAX_GROUP_ORDER}`,
      { field: GROUP_ORDER_ANNOTATION, reason: 'InvalidAnnotation' },
    );
  }
  return n;
}

export function groupFinalizer(group: string): string {
  return GROUP_FINALIZER_PREFIX + group;
}

/** The groups whose finalizers the object carries: those whose load balancers may hold its rules. */
export function finalizerGroups(obj: Readonly<KubeObject>): string[] {
  return (obj.metadata.finalizers ?? [])
    .filter((f) => f.startsWith(GROUP_FINALIZER_PREFIX))
    .map((f) => f.slice(GROUP_FINALIZER_PREFIX.length));
}

/** The object's labels with the group label set to its (valid) group, or removed without one. */
export function withGroupLabel(
  labels: Readonly<Record<string, string>>,
  group: string | undefined,
): Record<string, string> {
  const { [GROUP_LABEL]: _old, ...rest } = labels;
  return group === undefined ? rest : { ...rest, [GROUP_LABEL]: group };
}

/** The lock every reconcile that touches the group's load balancer holds (see reconcile/run.ts). */
export function groupLockKey(group: string): string {
  return `ingress-group/${group}`;
}

/** Every group whose load balancer a reconcile of the object may change: its own and those it left. */
export function touchedGroups(obj: Readonly<KubeObject>): string[] {
  const own = validGroupNameOf(obj);
  return [...new Set([...(own !== undefined ? [own] : []), ...finalizerGroups(obj)])].sort();
}
