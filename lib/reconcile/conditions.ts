/**
 * The `LoadBalancerReady` condition: where the load balancer of an object stands, next to the
 * Events that tell its history. MultiClusterService keeps it in `status.conditions` (beside
 * Karmada's own conditions, which are left alone). The MultiClusterIngress CRD has no
 * `status.conditions` and the API server prunes unknown status fields, so there it is kept, in
 * the same JSON shape, in the annotation `multicluster.karmada.io/load-balancer-condition`.
 */
import type { Condition } from '../karmada/types.js';
import type { KubeObject } from '../kube/types.js';

export const READY_CONDITION = 'LoadBalancerReady';
export const CONDITION_ANNOTATION = 'multicluster.karmada.io/load-balancer-condition';

export interface ConditionUpdate {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

/** Where a kind keeps the condition, and whether writing it is a status or a main-resource write. */
export interface ConditionStore<T> {
  target: 'status' | 'update';
  get(obj: T): Condition | undefined;
  set(obj: T, condition: Condition): T;
}

const MAX_MESSAGE = 1024;

/**
 * The condition to store, or undefined when the stored one already says the same. The transition
 * time moves only when the status flips, as metav1.Condition requires.
 */
export function nextCondition(
  current: Condition | undefined,
  update: ConditionUpdate,
  generation: number | undefined,
  now: Date,
): Condition | undefined {
  const message =
    update.message.length > MAX_MESSAGE ? `${update.message.slice(0, MAX_MESSAGE - 3)}...` : update.message;
  const reason = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/.test(update.reason) ? update.reason : 'Unknown';
  if (
    current &&
    current.status === update.status &&
    current.reason === reason &&
    current.message === message &&
    current.observedGeneration === generation
  ) {
    return undefined;
  }
  return {
    type: READY_CONDITION,
    status: update.status,
    reason,
    message,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
    lastTransitionTime:
      current && current.status === update.status
        ? current.lastTransitionTime
        : now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}

/** For kinds with `status.conditions`. */
export function statusConditions<
  T extends KubeObject & { status?: { conditions?: Condition[] } },
>(): ConditionStore<T> {
  return {
    target: 'status',
    get: (obj) => obj.status?.conditions?.find((c) => c.type === READY_CONDITION),
    set: (obj, condition) => {
      const others = (obj.status?.conditions ?? []).filter((c) => c.type !== READY_CONDITION);
      return { ...obj, status: { ...obj.status, conditions: [...others, condition] } };
    },
  };
}

/** For kinds whose CRD has no `status.conditions`. */
export function annotationCondition<T extends KubeObject>(): ConditionStore<T> {
  return {
    target: 'update',
    get: (obj) => {
      const raw = obj.metadata.annotations?.[CONDITION_ANNOTATION];
      if (!raw) return undefined;
      try {
        return JSON.parse(raw) as Condition;
      } catch {
        return undefined;
      }
    },
    set: (obj, condition) => ({
      ...obj,
      metadata: {
        ...obj.metadata,
        annotations: { ...obj.metadata.annotations, [CONDITION_ANNOTATION]: JSON.stringify(condition) },
      },
    }),
  };
}
