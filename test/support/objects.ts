/** The objects the reconciler tests start from: the upstream scenario's, and variations on them. */
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
import type { KubeObject } from '../../lib/kube/types.js';

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

/**
 * MCI `web` in `default` that asks for a Global Accelerator: one rule, `/` to `serve:80`, and
 * `annotations` besides.
 */
export function acceleratedIngress(annotations: Record<string, string> = {}): MultiClusterIngress {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: 'web',
      namespace: 'default',
      annotations: { 'multicluster.karmada.io/global-accelerator': 'true', ...annotations },
    },
    spec: {
      rules: [
        {
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: 'serve', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  } as MultiClusterIngress;
}
