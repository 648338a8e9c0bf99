/** Shared set-up of the controller tests: the upstream scenario's objects and small helpers. */
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { ItemResult } from '../../lib/runtime/process.js';
import type { Harness } from '../support/harness.js';

export const MCI = Resources.MultiClusterIngress;

/** IngressClass `fake` (default), member1 and member2, Service `serve` bound to both, their slices. */
export function baseObjects(): KubeObject[] {
  return [
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.1.0.1']),
    collectedSlice('member2', ['10.2.0.1']),
  ];
}

export function service(name: string): KubeObject {
  const svc = serveService();
  return { ...svc, metadata: { ...svc.metadata, name } };
}

/** minimal-ingress routing to `services` (one path each). */
export function ingressTo(services: string[], name = 'minimal-ingress', className?: string): KubeObject {
  const base = minimalIngress(name) as MultiClusterIngress;
  return {
    ...base,
    spec: {
      ...(className ? { ingressClassName: className } : {}),
      rules: [
        {
          http: {
            paths: services.map((s) => ({
              path: `/${s}`,
              pathType: 'Prefix' as const,
              backend: { service: { name: s, port: { number: 80 } } },
            })),
          },
        },
      ],
    },
  } as KubeObject;
}

/** Reads, changes and writes an object; returns [before, after] for a notification. */
export async function edit<T extends KubeObject>(
  h: Harness,
  type: ResourceType,
  namespace: string | undefined,
  name: string,
  change: (o: T) => void,
  target: 'update' | 'status' = 'update',
): Promise<[T, T]> {
  const before = (await h.kube.get<T>(type, namespace, name))!;
  const next = structuredClone(before);
  change(next);
  const after =
    target === 'update' ? await h.kube.update<T>(type, next) : await h.kube.updateStatus<T>(type, next);
  return [before, after];
}

/** `controller key outcome` of every result, sorted: what a batch did, at a glance. */
export function outcomes(items: ItemResult[]): string[] {
  return items.flatMap((i) => i.results.map((r) => `${r.controller} ${r.key} ${r.outcome}`)).sort();
}

/** The controllers that ran, sorted. */
export function ran(items: ItemResult[]): string[] {
  return items.flatMap((i) => i.results.map((r) => `${r.controller} ${r.key}`)).sort();
}
