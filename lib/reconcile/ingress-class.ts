/**
 * Does this MultiClusterIngress belong to our provider? (upstream pkg/util/ingressclass.go)
 * The class is `spec.ingressClassName`, else the single IngressClass annotated as the default;
 * it matches when its `spec.controller` equals the provider ingress class we were configured with.
 * Unlike upstream this runs inside every reconcile, not only when an event arrives, so an object
 * whose class stops matching is noticed and cleaned up.
 */
import type { KubeClient } from '../kube/client.js';
import { Resources } from '../kube/resources.js';
import { DEFAULT_INGRESS_CLASS_ANNOTATION } from '../karmada/constants.js';
import type { IngressClass, MultiClusterIngress } from '../karmada/types.js';

export interface ClassDecision {
  matches: boolean;
  /** Which IngressClass decided, or why none did: for logs and Events. */
  detail: string;
}

export function defaultIngressClasses(classes: IngressClass[]): IngressClass[] {
  return classes.filter((c) => c.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true');
}

export async function ingressClassOf(
  kube: KubeClient,
  mci: Readonly<MultiClusterIngress>,
): Promise<{ ingressClass?: IngressClass; detail: string }> {
  const explicit = mci.spec?.ingressClassName;
  if (explicit) {
    const ingressClass = await kube.get<IngressClass>(Resources.IngressClass, undefined, explicit);
    return ingressClass
      ? { ingressClass, detail: `IngressClass ${explicit}` }
      : { detail: `IngressClass ${explicit} does not exist` };
  }
  const defaults = defaultIngressClasses((await kube.list<IngressClass>(Resources.IngressClass)).items);
  if (defaults.length === 1)
    return { ingressClass: defaults[0], detail: `default IngressClass ${defaults[0]?.metadata.name}` };
  return {
    detail:
      defaults.length === 0
        ? 'no ingressClassName and no default IngressClass'
        : `no ingressClassName and ${defaults.length} default IngressClasses (${defaults.map((c) => c.metadata.name).join(', ')})`,
  };
}

export async function ingressClassMatches(
  kube: KubeClient,
  mci: Readonly<MultiClusterIngress>,
  providerIngressClass: string,
): Promise<ClassDecision> {
  const { ingressClass, detail } = await ingressClassOf(kube, mci);
  if (!ingressClass) return { matches: false, detail };
  const controller = ingressClass.spec?.controller;
  return controller === providerIngressClass
    ? { matches: true, detail }
    : {
        matches: false,
        detail: `${detail} has controller ${controller ?? '(none)'}, not ${providerIngressClass}`,
      };
}
