/**
 * Stack IDs: the one place that knows their format. A stack is the set of cloud resources a
 * provider keeps for one object: `mci/<namespace>/<name>` for a MultiClusterIngress,
 * `mcs/<namespace>/<name>` for a MultiClusterService. The AWS provider writes it into its stack
 * tag; the fake provider keys its state with it; the orphan sweep reads it back.
 */

/** `mci` for MultiClusterIngress, `mcs` for MultiClusterService. */
export type StackKind = 'mci' | 'mcs';

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
  if ((kind !== 'mci' && kind !== 'mcs') || !namespace || !name || rest.length > 0) return undefined;
  return { kind, namespace, name, stackId: id };
}
