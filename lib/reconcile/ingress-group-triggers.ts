/**
 * IngressGroup triggers: a member's change that can change what the group's other members get
 * (its group, its group.order, a load-balancer or accelerator setting they must agree on, its
 * default backend, its deletion) asks for a reconcile of every member of the groups it is or was
 * in, found by the group label (one label-selected LIST per group, per allowed namespace with
 * ALLOWED_NAMESPACES). A change of its hosts or paths alone asks only for the members of other
 * namespaces: a route of another namespace's member may overlap it now, or no longer (and that
 * member is refused, or served: model/route-overlap.ts); within one namespace routes may repeat,
 * and the member's own reconcile redeploys the whole group.
 */
import { GROUP_LABEL, finalizerGroups, touchedGroups } from '../karmada/ingress-group.js';
import type { MultiClusterIngress } from '../karmada/types.js';
import { Resources } from '../kube/resources.js';
import type { KubeObject } from '../kube/types.js';
import type { NormalizedNotification } from '../notification/types.js';
import { changedBy } from './filters.js';
import type { ReconcileRequest } from './requests.js';
import type { ReconcileDeps } from './types.js';

const LBC_PREFIX = 'alb.ingress.kubernetes.io/';
/** The accelerator's keys are the group's too (model/ingress-group.ts). */
const GA_PREFIX = 'multicluster.karmada.io/global-accelerator';

/** What of a member the rest of its group depends on. */
function groupFacing(o: KubeObject) {
  const annotations = Object.entries(o.metadata.annotations ?? {}).filter(
    ([k]) => k.startsWith(LBC_PREFIX) || k.startsWith(GA_PREFIX),
  );
  return {
    annotations: Object.fromEntries(annotations),
    deleting: o.metadata.deletionTimestamp != null,
    defaultBackend: (o as MultiClusterIngress).spec?.defaultBackend !== undefined,
    groups: finalizerGroups(o),
  };
}

/** What of a member another namespace's routes may overlap: its hosts and paths. */
function routes(o: KubeObject) {
  return ((o as MultiClusterIngress).spec?.rules ?? []).map((r) => ({
    host: r.host,
    paths: (r.http?.paths ?? []).map((p) => [p.pathType, p.path]),
  }));
}

export function groupChangeMatters(n: NormalizedNotification): boolean {
  return changedBy(n, groupFacing);
}

/** Reconciles of every member of the groups the notified MCI is or was in. */
export async function groupMemberRequests(
  deps: Pick<ReconcileDeps, 'kube' | 'namespaces'>,
  n: NormalizedNotification,
): Promise<ReconcileRequest[]> {
  const versions = [n.object, n.oldObject].filter((o): o is KubeObject => o !== undefined);
  // A reference-only notification: the groups are the ones the object is in now (1 GET).
  if (!versions.length && n.change !== 'deleted') {
    const now = await deps.kube.get(Resources.MultiClusterIngress, n.ref.namespace, n.ref.name);
    if (now) versions.push(now);
  }
  const groups = [...new Set(versions.flatMap((o) => touchedGroups(o)))];
  if (!groups.length) return [];
  // Its hosts or paths alone: only another namespace's members may be refused or served by it.
  const elsewhereOnly = !groupChangeMatters(n);
  if (elsewhereOnly && !changedBy(n, routes)) return [];
  const out: ReconcileRequest[] = [];
  for (const group of groups.sort()) {
    const labelSelector = `${GROUP_LABEL}=${group}`;
    const scopes = deps.namespaces?.length ? deps.namespaces.map((namespace) => ({ namespace })) : [{}];
    for (const scope of scopes) {
      const list = await deps.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress, {
        ...scope,
        labelSelector,
      });
      for (const m of list.items) {
        if (elsewhereOnly && m.metadata.namespace === n.ref.namespace) continue;
        out.push({
          controller: 'multiclusteringress',
          namespace: m.metadata.namespace ?? '',
          name: m.metadata.name ?? '',
        });
      }
    }
  }
  return out;
}
