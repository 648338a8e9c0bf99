/**
 * What a Karmada ResourceBinding says about where a resource runs. A Service's binding is named
 * by Karmada's names.GenerateBindingName; we still check the binding's resource (apiVersion, kind,
 * name), because another API's `Service` kind (Knative's, say) gets the same generated name and
 * upstream, matching by kind alone, would take its clusters (upstream bug 7).
 */
import type { ResourceBinding } from './types.js';

export const SERVICE_KIND = 'Service';
export const SERVICE_API_VERSION = 'v1';

/** names.GenerateBindingName: `serve` + `Service` → `serve-service`. */
export function bindingName(kind: string, name: string): string {
  return `${name.replaceAll(':', '.')}-${kind}`.toLowerCase();
}

/** Sorted, unique ∪ of `spec.clusters[].name` and `spec.requiredBy[].clusters[].name`. */
export function bindingClusters(rb: Readonly<ResourceBinding> | undefined): string[] {
  const names = new Set<string>();
  for (const c of rb?.spec?.clusters ?? []) if (c.name) names.add(c.name);
  for (const r of rb?.spec?.requiredBy ?? []) for (const c of r.clusters ?? []) if (c.name) names.add(c.name);
  return [...names].sort();
}

/** Whether the binding is for the core/v1 Service `name` in `namespace`. */
export function isServiceBinding(
  rb: Readonly<ResourceBinding>,
  name?: string,
  namespace = rb.metadata.namespace,
): boolean {
  const r = rb.spec?.resource;
  return (
    r?.apiVersion === SERVICE_API_VERSION &&
    r.kind === SERVICE_KIND &&
    (name === undefined || r.name === name) &&
    (r.namespace === undefined || r.namespace === '' || r.namespace === namespace)
  );
}

/** The binding of Service `name` among `bindings`; the generated name wins if several claim it. */
export function findServiceBinding(
  bindings: ReadonlyArray<ResourceBinding>,
  name: string,
): ResourceBinding | undefined {
  const matching = bindings.filter((rb) => isServiceBinding(rb, name));
  return (
    matching.find((rb) => rb.metadata.name === bindingName(SERVICE_KIND, name)) ??
    matching.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))[0]
  );
}

/** The Service a binding notification is about, when the binding is for a core/v1 Service. */
export function serviceOfBinding(
  rb: Readonly<ResourceBinding>,
): { namespace: string; name: string } | undefined {
  if (!isServiceBinding(rb)) return undefined;
  const name = rb.spec?.resource?.name;
  const namespace = rb.spec?.resource?.namespace || rb.metadata.namespace;
  return name && namespace ? { namespace, name } : undefined;
}
