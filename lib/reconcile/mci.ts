/**
 * The `multiclusteringress` controller (upstream section 5.1) for one MultiClusterIngress.
 */
import { MCI_FINALIZER } from '../karmada/constants.js';
import {
  finalizerGroups,
  groupFinalizer,
  groupLockKey,
  touchedGroups,
  validGroupNameOf,
  withGroupLabel,
} from '../karmada/ingress-group.js';
import { withFinalizer, withoutFinalizer } from '../kube/finalizers.js';
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
  /**
   * Holds the locks of these keys (one per IngressGroup the reconcile touches) until released, so
   * two members of one group are never reconciled at once (run.ts: a Lease per group).
   */
  lockShared?: (keys: readonly string[]) => Promise<{ release(): Promise<void> }>;
}

/**
 * Our metadata on an MCI: the index labels, the group label, and the finalizer of the group it
 * asks to join (added before it joins; the finalizers of groups it left stay until it has left).
 */
export function decorateIngress(mci: MultiClusterIngress): MultiClusterIngress {
  const group = validGroupNameOf(mci);
  const labelled = withIndexLabels(mci, withGroupLabel(indexedLabels(mci), group));
  return group === undefined ? labelled : withFinalizer(labelled, groupFinalizer(group));
}

/** The MCI without the finalizers of groups it is no longer in, or undefined when it has none. */
export function withoutLeftGroups(mci: MultiClusterIngress): MultiClusterIngress | undefined {
  const group = validGroupNameOf(mci);
  const left = finalizerGroups(mci).filter((g) => g !== group);
  return left.length ? left.reduce((o, g) => withoutFinalizer(o, groupFinalizer(g)), mci) : undefined;
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
    decorate: decorateIngress,
    settle: withoutLeftGroups,
    extraFinalizers: (mci) => finalizerGroups(mci).map(groupFinalizer),
    ...(options.lockShared
      ? {
          lockShared: async (mci: MultiClusterIngress) => {
            const keys = touchedGroups(mci).map(groupLockKey);
            return keys.length ? options.lockShared!(keys) : undefined;
          },
        }
      : {}),
    ...(options.prepare ? { prepare: (mci: MultiClusterIngress) => options.prepare!(deps, mci) } : {}),
    loadBalancerStatus: (mci) => mci.status?.loadBalancer,
    withLoadBalancerStatus: withStatusLoadBalancer,
    describe: describeIngress,
    condition: annotationCondition<MultiClusterIngress>(),
  };
  return reconcileLifecycle(deps, spec, namespace, name);
}
