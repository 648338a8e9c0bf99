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

/**
 * AWS Load Balancer Controller's magic port name, which the MCI manifests of LBC users carry: the
 * backend names an action (`alb.ingress.kubernetes.io/actions.<name>`), not a Service.
 */
export const USE_ANNOTATION_PORT = 'use-annotation';
const ACTIONS_ANNOTATION_PREFIX = 'alb.ingress.kubernetes.io/actions.';

/** A JSON object's member by name in any case (as LBC's Go decoder reads it). */
function member(o: unknown, name: string): unknown {
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  return Object.entries(o).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

/**
 * The Services the forward of a `use-annotation` backend's action names
 * (`forwardConfig.targetGroups[].serviceName`), in order; none for a missing or malformed
 * annotation (the provider reports those).
 */
export function actionServiceNames(mci: Readonly<MultiClusterIngress>, action: string): string[] {
  const value = mci.metadata.annotations?.[ACTIONS_ANNOTATION_PREFIX + action];
  if (!value) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  const groups = member(member(parsed, 'forwardConfig'), 'targetGroups');
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((g) => {
    const name = member(g, 'serviceName');
    return typeof name === 'string' && name ? [name] : [];
  });
}

/**
 * Sorted, unique names of the Services the MultiClusterIngress routes to: its backends', and for
 * a `use-annotation` backend those its action forwards to (a weighted canary's Services).
 */
export function serviceRefs(mci: Readonly<MultiClusterIngress>): string[] {
  const names = new Set<string>();
  for (const b of backendsOf(mci)) {
    const name = b?.service?.name;
    if (!name) continue;
    if (b.service?.port?.name === USE_ANNOTATION_PORT)
      actionServiceNames(mci, name).forEach((n) => names.add(n));
    else names.add(name);
  }
  return [...names].sort();
}

/** Sorted, unique TLS Secret names of the MultiClusterIngress. */
export function secretRefs(mci: Readonly<MultiClusterIngress>): string[] {
  const names = new Set<string>();
  for (const tls of mci.spec?.tls ?? []) if (tls.secretName) names.add(tls.secretName);
  const oidc = oidcSecretRef(mci);
  if (oidc) names.add(oidc);
  return [...names].sort();
}

const AUTH_IDP_OIDC = 'alb.ingress.kubernetes.io/auth-idp-oidc';

/**
 * The OIDC client Secret the MCI's own `auth-idp-oidc` names (`secretName`): its change must
 * re-reconcile the MCI like a TLS Secret's. One a backend Service's annotation names is not
 * indexed (the MCI does not say it); the periodic resync picks its change up.
 */
function oidcSecretRef(mci: Readonly<MultiClusterIngress>): string | undefined {
  const value = mci.metadata.annotations?.[AUTH_IDP_OIDC];
  if (!value) return undefined;
  try {
    const name = member(JSON.parse(value), 'secretName');
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined; // the model reports the bad JSON
  }
}
