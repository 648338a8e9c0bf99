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

/** Real kubectl against a stand-in: its own kubeconfig and discovery cache per test file. */
export interface KubectlHarness {
  server: KubeApiServer;
  dir: string;
  kubeconfig: string;
  /** stdout of a command that must succeed. */
  kubectl(...args: string[]): Promise<string>;
  /** stderr of a command that must fail. */
  kubectlFails(...args: string[]): Promise<string>;
  close(): Promise<void>;
}

export async function startKubectlHarness(): Promise<KubectlHarness> {
  const { execFile } = await import('node:child_process');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { promisify } = await import('node:util');
  const run = promisify(execFile);
  const server = await startKubeApiServer();
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-'));
  const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  // kubectl caches discovery per host:port for hours: a cache of its own per harness.
  const args = (rest: string[]) => ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...rest];
  const kubectl = async (...rest: string[]) =>
    (await run('kubectl', args(rest), { env: { ...process.env, KUBECONFIG: kubeconfig } })).stdout;
  return {
    server,
    dir,
    kubeconfig,
    kubectl,
    async kubectlFails(...rest) {
      try {
        await kubectl(...rest);
      } catch (e) {
        return String((e as { stderr?: string }).stderr);
      }
      throw new Error(`kubectl ${rest.join(' ')} unexpectedly succeeded`);
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
