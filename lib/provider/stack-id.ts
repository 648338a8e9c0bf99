/**
 * Stack IDs: the one place that knows their format. A stack is the set of cloud resources a
 * provider keeps for one object: `mci/<namespace>/<name>` for a MultiClusterIngress,
 * `mcs/<namespace>/<name>` for a MultiClusterService, and `mci-group/<namespace>/<group>` for the
 * load balancer an IngressGroup's MultiClusterIngresses share (`mci-group/_shared/<group>` for a
 * group the tenant policy shares between namespaces: `_` is in no namespace name). The AWS provider
 * writes it into its stack tag; the fake provider keys its state with it; the orphan sweep reads it
 * back.
 */

/** `mci` for MultiClusterIngress, `mcs` for MultiClusterService, `mci-group` for an IngressGroup. */
export type StackKind = 'mci' | 'mcs' | 'mci-group';

const KINDS: readonly string[] = ['mci', 'mcs', 'mci-group'];

/** The namespace part of a shared IngressGroup's stack ID (no Kubernetes namespace is spelled so). */
export const SHARED_GROUP_NAMESPACE = '_shared';

/** The object a stack belongs to, and the stack's ID. */
export interface StackRef {
  kind: StackKind;
  namespace: string;
  name: string;
  stackId: string;
}

export function stackId(kind: StackKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** The object a stack ID names, or undefined when the string is not a stack ID. */
export function parseStackId(id: string): StackRef | undefined {
  const [kind, namespace, name, ...rest] = id.split('/');
  if (!kind || !KINDS.includes(kind) || !namespace || !name || rest.length > 0) return undefined;
  return { kind: kind as StackKind, namespace, name, stackId: id };
}
