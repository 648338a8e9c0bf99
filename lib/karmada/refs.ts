/**
 * What a MultiClusterIngress refers to (upstream's field indexes `mci.serviceRef.name` and
 * `mci.secretRef.name`). Unlike upstream, a backend with `resource` instead of `service` is
 * skipped rather than dereferenced.
 */
import type { IngressBackend, MultiClusterIngress } from './types.js';

export function backendsOf(mci: Readonly<MultiClusterIngress>): IngressBackend[] {
  const out: IngressBackend[] = [];
  if (mci.spec?.defaultBackend) out.push(mci.spec.defaultBackend);
  for (const rule of mci.spec?.rules ?? []) {
    for (const path of rule.http?.paths ?? []) out.push(path.backend);
  }
  return out;
}

/** Sorted, unique names of the Services the MultiClusterIngress routes to. */
export function serviceRefs(mci: Readonly<MultiClusterIngress>): string[] {
  const names = new Set<string>();
  for (const b of backendsOf(mci)) if (b?.service?.name) names.add(b.service.name);
  return [...names].sort();
}

/** Sorted, unique TLS Secret names of the MultiClusterIngress. */
export function secretRefs(mci: Readonly<MultiClusterIngress>): string[] {
  const names = new Set<string>();
  for (const tls of mci.spec?.tls ?? []) if (tls.secretName) names.add(tls.secretName);
  return [...names].sort();
}
