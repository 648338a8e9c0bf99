/**
 * The `multiclusteringress` controller (upstream section 5.1) for one MultiClusterIngress.
 */
import { MCI_FINALIZER } from '../karmada/constants.js';
import type { IngressLoadBalancerStatus, MultiClusterIngress } from '../karmada/types.js';
import { assertValidMultiClusterIngress } from '../karmada/validate.js';
import { indexedLabels, withIndexLabels } from '../karmada/index-labels.js';
import { Resources } from '../kube/resources.js';
import { ingressClassMatches } from './ingress-class.js';
import { annotationCondition } from './conditions.js';
import {
  reconcileLifecycle,
  unsupportedKind,
  withStatusLoadBalancer,
  type LifecycleSpec,
} from './lifecycle.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

export const MCI_CONTROLLER = 'multiclusteringress';

export function describeIngress(
  status: { ingress?: Array<{ ip?: string; hostname?: string }> } | undefined,
): string {
  const addresses = (status?.ingress ?? []).map((i) => i.hostname ?? i.ip).filter(Boolean);
  return addresses.length ? addresses.join(', ') : 'no address yet';
}

export interface MciOptions {
  /** Computes status.trafficBlockClusters etc. before the provider sees the object. */
  prepare?: (deps: ReconcileDeps, mci: MultiClusterIngress) => Promise<MultiClusterIngress>;
}

export async function reconcileMultiClusterIngress(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
  options: MciOptions = {},
): Promise<ReconcileResult> {
  const balancer = deps.provider.loadBalancer();
  if (!balancer) {
    return unsupportedKind(MCI_CONTROLLER, namespace, name, deps.provider, 'MultiClusterIngress');
  }
  const spec: LifecycleSpec<MultiClusterIngress, IngressLoadBalancerStatus> = {
    controller: MCI_CONTROLLER,
    type: Resources.MultiClusterIngress,
    finalizer: MCI_FINALIZER,
    balancer,
    async wants(mci) {
      const decision = await ingressClassMatches(deps.kube, mci, deps.providerIngressClass);
      return { wants: decision.matches, detail: decision.detail };
    },
    validate: (mci) => assertValidMultiClusterIngress(mci),
    decorate: (mci) => withIndexLabels(mci, indexedLabels(mci)),
    ...(options.prepare ? { prepare: (mci: MultiClusterIngress) => options.prepare!(deps, mci) } : {}),
    loadBalancerStatus: (mci) => mci.status?.loadBalancer,
    withLoadBalancerStatus: withStatusLoadBalancer,
    describe: describeIngress,
    condition: annotationCondition<MultiClusterIngress>(),
  };
  return reconcileLifecycle(deps, spec, namespace, name);
}
