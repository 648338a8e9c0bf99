import {
  ApiException,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
} from '@kubernetes/client-node';
import {
  startKubeApiServer,
  type KubeApiServer,
  type KubeApiServerOptions,
} from '../../dev/kube-apiserver/index.js';

export const MCI = {
  group: 'networking.karmada.io',
  version: 'v1alpha1',
  plural: 'multiclusteringresses',
} as const;

export function kubeConfigFor(server: KubeApiServer): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: server.url, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'tok' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return kc;
}

export interface Fixture {
  server: KubeApiServer;
  kc: KubeConfig;
  custom: CustomObjectsApi;
}

export async function startFixture(options: KubeApiServerOptions = {}): Promise<Fixture> {
  const server = await startKubeApiServer(options);
  const kc = kubeConfigFor(server);
  return { server, kc, custom: kc.makeApiClient(CustomObjectsApi) };
}

export function mci(
  name: string,
  extra: { labels?: Record<string, string>; finalizers?: string[]; path?: string } = {},
): Record<string, unknown> {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name,
      ...(extra.labels ? { labels: extra.labels } : {}),
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    },
    spec: {
      rules: [
        {
          http: {
            paths: [
              {
                path: extra.path ?? '/',
                pathType: 'Prefix',
                backend: { service: { name: 'serve', port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  };
}

export const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);

/** The ApiException a client-node call failed with, with its Status body parsed. */
export async function apiError(p: Promise<unknown>): Promise<{ code: number; status: Record<string, any> }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, status: body as Record<string, any> };
  }
  throw new Error('expected the call to fail');
}

export type Obj = { metadata: Record<string, any>; spec?: any; status?: any; [k: string]: any };
