/** What a notification asks for: one controller's reconcile of one object. */

/** Upstream's controller names; each has one module in lib/reconcile (see the README's controller table). */
export type ControllerName =
  | 'crd-installation'
  | 'mci-service-locations'
  | 'multiclusteringress'
  | 'multiclusterservice'
  | 'serviceexport-propagation';

export interface ReconcileRequest {
  controller: ControllerName;
  namespace: string;
  name: string;
}

export function requestKey(r: ReconcileRequest): string {
  return `${r.controller}/${r.namespace}/${r.name}`;
}

/** Each request once, in first-seen order. */
export function dedupe(requests: ReconcileRequest[]): ReconcileRequest[] {
  const seen = new Map<string, ReconcileRequest>();
  for (const r of requests) seen.set(requestKey(r), r);
  return [...seen.values()];
}
