import type { EventRecorder } from '../kube/events.js';
import type { KubeClient } from '../kube/client.js';
import type { Logger } from '../log/logger.js';
import type { MultiClusterProvider } from '../provider/contract.js';

/** Everything a reconcile needs; built once per invocation by the function entry points. */
export interface ReconcileDeps {
  kube: KubeClient;
  provider: MultiClusterProvider;
  /** The `spec.controller` of the IngressClasses we serve (upstream `--provider-ingress-class`). */
  providerIngressClass: string;
  events: EventRecorder;
  logger: Logger;
  signal: AbortSignal;
  /** The trigger was a periodic resync: providers do their full drift check. */
  resync?: boolean;
  /** ALLOWED_NAMESPACES: lists of namespaced types stay within them (scope.ts). */
  namespaces?: readonly string[];
}

export type Outcome =
  /** The object no longer exists: nothing to do. */
  | 'gone'
  /** Not ours (class, type) and never was: nothing to do. */
  | 'ignored'
  | 'created'
  | 'updated'
  /** Load balancer deleted and finalizer removed. */
  | 'deleted'
  /** The object cannot be served as it stands; reported on the object, not retried. */
  | 'invalid'
  /** Nothing to change. */
  | 'unchanged';

export interface ReconcileResult {
  controller: string;
  key: string;
  outcome: Outcome;
  detail?: string;
  /** For `invalid`: the Warning reason reported on the object (InvalidObjectError's reason). */
  reason?: string;
}
