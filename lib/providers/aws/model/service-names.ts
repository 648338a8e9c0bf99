/**
 * The names a MultiClusterService's NLB may carry: every reconcile of one needs them (look-up,
 * deletion) before it knows whether a model must be built, so they live apart from the NLB model
 * (service.ts), which the provider loads only when it builds one.
 */
import type { MultiClusterService } from '../../../karmada/types.js';
import { NLB_KEYS } from './annotations/keys.js';
import { objectLoadBalancerNames } from './stack.js';
import type { ModelConfig } from './types.js';

/** Every name the MCS's NLB may carry, the wanted one first (see candidateLoadBalancerNames). */
export function serviceLoadBalancerNames(mcs: Readonly<MultiClusterService>, config: ModelConfig): string[] {
  return objectLoadBalancerNames('mcs', mcs, NLB_KEYS, 'network', config);
}
