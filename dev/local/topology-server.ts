/**
 * Serves the topology page of `npm start` on 127.0.0.1, read-only: `/` (the page, with the latest
 * picture in it) and `/topology.json` (every MultiClusterIngress and MultiClusterService of type
 * LoadBalancer; `?since=<version>`: 204 while the picture is that version, which the page asks
 * every second). It list+watches the objects the pictures depend on and redraws when any changes,
 * and every few seconds for what only AWS knows (a plan that is still being applied).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import { createMetrics } from '../../lib/forwarder/metrics.js';
import { Reflector } from '../../lib/forwarder/reflector.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { topologyOf, type TopologyProvider } from '../../lib/topology/source.js';
import type { Topology } from '../../lib/topology/types.js';
import { topologyPage } from './topology-page.js';

export interface TopologyServerOptions {
  kubeConfig: KubeConfig;
  kube: KubeClient;
  config: AwsProviderConfig;
  /**
   * The AWS provider against the simulators (one Region's, or one over several): pending changes
   * come from its plan, and each Region serving an object is drawn with its own load balancer.
   */
  provider?: TopologyProvider;
  /** Shown on the page: where the figures come from. */
  note: string;
  port?: number;
  /** How often what only AWS knows is looked at again (default 5 s). */
  refreshMs?: number;
}

export interface TopologyServer {
  url: string;
  close(): Promise<void>;
}

/** How long `/` waits for a picture of the moment before it answers with the last one (or none). */
const PICTURE_WAIT_MS = 10_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

interface State {
  version: number;
  at: string;
  note: string;
  topologies: Topology[];
}

export async function startTopologyServer(options: TopologyServerOptions): Promise<TopologyServer> {
  let state: State = { version: 0, at: new Date().toISOString(), note: options.note, topologies: [] };
  let computing: Promise<void> | undefined;
  let again = false;
  /** Computations started: a page waits for one that started after its request. */
  let started = 0;
  let waiters: { after: number; resolve: () => void }[] = [];

  const compute = async (): Promise<void> => {
    const [mcis, mcss] = await Promise.all([
      options.kube.list<MultiClusterIngress>(Resources.MultiClusterIngress),
      options.kube.list<MultiClusterService>(Resources.MultiClusterService),
    ]);
    const objects = [
      ...mcis.items,
      ...mcss.items.filter((m) => (m.spec?.types ?? []).includes('LoadBalancer')),
    ].sort((a, b) =>
      `${a.kind ?? ''}/${a.metadata.namespace ?? ''}/${a.metadata.name ?? ''}`.localeCompare(
        `${b.kind ?? ''}/${b.metadata.namespace ?? ''}/${b.metadata.name ?? ''}`,
      ),
    );
    const topologies: Topology[] = [];
    for (const obj of objects) {
      topologies.push(
        await topologyOf(obj, {
          kube: options.kube,
          config: options.config,
          ...(options.provider ? { provider: options.provider } : {}),
        }),
      );
    }
    if (JSON.stringify(topologies) === JSON.stringify(state.topologies) && state.version > 0) return;
    state = { version: state.version + 1, at: new Date().toISOString(), note: options.note, topologies };
  };
  /** One computation at a time; a change during one asks for another right after. */
  const refresh = (): void => {
    if (computing) {
      again = true;
      return;
    }
    started += 1;
    const generation = started;
    computing = compute()
      .catch(() => undefined)
      .finally(() => {
        computing = undefined;
        const ready = waiters.filter((w) => w.after <= generation);
        waiters = waiters.filter((w) => w.after > generation);
        for (const w of ready) w.resolve();
        if (again) {
          again = false;
          refresh();
        }
      });
  };

  const api = createKubeApi(options.kubeConfig);
  const metrics = createMetrics({ defaultMetrics: false });
  let debounce: NodeJS.Timeout | undefined;
  const changed = (): void => {
    if (debounce) return;
    debounce = setTimeout(() => {
      debounce = undefined;
      refresh();
    }, 100);
  };
  const reflectors = [
    Resources.MultiClusterIngress,
    Resources.MultiClusterService,
    Resources.Service,
    Resources.EndpointSlice,
  ].map((type) => new Reflector({ type, api, metrics, logger: silentLogger, emit: changed }));
  for (const r of reflectors) r.start();
  const timer = setInterval(refresh, options.refreshMs ?? 5_000);
  timer.unref();
  refresh();
  /** A picture computed after now: what kubectl or a function changed just before is in it. */
  const freshPicture = (): Promise<void> => {
    const after = started + 1;
    const done = new Promise<void>((resolve) => waiters.push({ after, resolve }));
    refresh();
    return done;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET' }).end('read-only\n');
      return;
    }
    if (path === '/') {
      // The picture as of this request in the page itself (a computation is awaited a while:
      // planning against the simulators takes a few seconds after a start). A watch event can
      // arrive after the change it reports, so the page does not take the last picture as current.
      void Promise.race([freshPicture(), sleep(PICTURE_WAIT_MS)]).then(() =>
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
          .end(topologyPage(state.version > 0 ? state : undefined)),
      );
    } else if (path === '/topology.json') {
      if (url.searchParams.get('since') === String(state.version)) {
        res.writeHead(204, { 'cache-control': 'no-store' }).end();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(state));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      clearInterval(timer);
      if (debounce) clearTimeout(debounce);
      for (const r of reflectors) r.stop();
      await computing;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
