/**
 * The `multiclusterservice` controller (upstream section 5.2) for one MultiClusterService: only
 * MultiClusterServices whose `spec.types` contains `LoadBalancer` get a load balancer; when the
 * type is removed the load balancer is deleted and the finalizer dropped. `status.conditions`
 * belong to Karmada and are kept as they are.
 *
 * Loaded with its validator at the first request of a controller other than the MCI's
 * (lazy-controllers.ts): a deployment that only has MultiClusterIngresses reads it at most there.
 */
import { MCS_FINALIZER } from '../karmada/constants.js';
import type { LoadBalancerStatus, MultiClusterService } from '../karmada/types.js';
import { assertValidMultiClusterService } from '../karmada/validate-mcs.js';
import { Resources } from '../kube/resources.js';
import { statusConditions } from './conditions.js';
import {
  reconcileLifecycle,
  unsupportedKind,
  withStatusLoadBalancer,
  type LifecycleSpec,
} from './lifecycle.js';
import { wantsLoadBalancer } from './filters.js';
import { describeIngress } from './mci.js';
import type { ReconcileDeps, ReconcileResult } from './types.js';

export const MCS_CONTROLLER = 'multiclusterservice';

export async function reconcileMultiClusterService(
  deps: ReconcileDeps,
  namespace: string,
  name: string,
): Promise<ReconcileResult> {
  const balancer = deps.provider.mcsLoadBalancer();
  if (!balancer) {
    return unsupportedKind(MCS_CONTROLLER, namespace, name, deps.provider, 'MultiClusterService');
  }
  const spec: LifecycleSpec<MultiClusterService, LoadBalancerStatus> = {
    controller: MCS_CONTROLLER,
    type: Resources.MultiClusterService,
    finalizer: MCS_FINALIZER,
    balancer,
    async wants(mcs) {
      return wantsLoadBalancer(mcs)
        ? { wants: true, detail: 'type LoadBalancer' }
        : { wants: false, detail: 'spec.types does not contain LoadBalancer' };
    },
    validate: (mcs) => assertValidMultiClusterService(mcs),
    loadBalancerStatus: (mcs) => mcs.status?.loadBalancer,
    withLoadBalancerStatus: withStatusLoadBalancer,
    describe: describeIngress,
    condition: statusConditions<MultiClusterService>(),
  };
  return reconcileLifecycle(deps, spec, namespace, name);
}
