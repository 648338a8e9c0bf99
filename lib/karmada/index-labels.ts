/**
 * Reverse indexes kept as labels on each MultiClusterIngress, so that a change to a Service,
 * EndpointSlice or Secret finds the MultiClusterIngresses that use it with one label-selected
 * LIST in its namespace, instead of listing every MultiClusterIngress (upstream keeps the same
 * indexes in its informer cache, which a stateless function does not have).
 *
 *   backend.multicluster.karmada.io/<service>: "true"   one per backend Service
 *   tls.multicluster.karmada.io/<secret>: "true"        one per TLS Secret, and the OIDC Secret of auth-idp-oidc
 *
 * Names longer than a label name allows (63) are replaced by a hash of the name.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../kube/types.js';
import type { MultiClusterIngress } from './types.js';
import { secretRefs, serviceRefs } from './refs.js';

export const BACKEND_LABEL_PREFIX = 'backend.multicluster.karmada.io/';
export const TLS_LABEL_PREFIX = 'tls.multicluster.karmada.io/';

function labelName(name: string): string {
  if (name.length <= 63 && /^[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/.test(name)) return name;
  return `h-${createHash('sha256').update(name).digest('hex').slice(0, 40)}`;
}

export function backendLabel(service: string): string {
  return BACKEND_LABEL_PREFIX + labelName(service);
}

export function tlsLabel(secret: string): string {
  return TLS_LABEL_PREFIX + labelName(secret);
}

/** The object's labels with our index labels set to exactly what its spec references. */
export function indexedLabels(mci: Readonly<MultiClusterIngress>): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(mci.metadata.labels ?? {})) {
    if (!k.startsWith(BACKEND_LABEL_PREFIX) && !k.startsWith(TLS_LABEL_PREFIX)) labels[k] = v;
  }
  for (const svc of serviceRefs(mci)) labels[backendLabel(svc)] = 'true';
  for (const secret of secretRefs(mci)) labels[tlsLabel(secret)] = 'true';
  return labels;
}

export function withIndexLabels<T extends KubeObject>(obj: T, labels: Record<string, string>): T {
  return { ...obj, metadata: { ...obj.metadata, labels } };
}
