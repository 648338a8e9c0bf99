/**
 * The traffic-blocking step before the provider sees a MultiClusterIngress (prepareTrafficBlock
 * in lib/reconcile/traffic-block.ts) against the Kubernetes API stand-in: what it reads, writes
 * and hands on, on a conflict, when someone else wrote first and when the object vanished.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cluster } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { prepareTrafficBlock } from '../../lib/reconcile/traffic-block.js';
import type { ReconcileDeps } from '../../lib/reconcile/types.js';
import { startHarness, type Harness } from '../support/harness.js';
import { ingressTo, MCI } from '../support/objects.js';

let h: Harness;
const deps = (kube: KubeClient = h.kube): ReconcileDeps => ({
  kube,
  provider: h.runtime.provider,
  providerIngressClass: 'karmada.io/fake',
  events: h.runtime.events,
  logger: h.logger,
  signal: new AbortController().signal,
});
const getMci = async () => (await h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress'))!;
const updatedLines = () => h.logger.lines.filter((l) => l.message === 'traffic block clusters updated');

/** The MCI, located in member1 and member2, with `status` merged into its status. */
async function located(status: MultiClusterIngress['status'] = {}) {
  await h.seed([ingressTo(['serve'])]);
  const mci = await getMci();
  return h.kube.updateStatus(MCI, {
    ...mci,
    status: { serviceLocations: [{ name: 'serve', clusters: ['member1', 'member2'] }], ...status },
  });
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
  await h.seed([cluster('member1'), cluster('member2', true), cluster('member3', true)]);
});
afterEach(async () => h.close());

describe('prepareTrafficBlock', () => {
  it('no locations → no Cluster read, nothing written, the same object handed on', async () => {
    await h.seed([ingressTo(['serve'])]);
    const mci = await getMci();
    h.api.requests.reset();
    expect(await prepareTrafficBlock(deps(), mci)).toBe(mci);
    expect(h.api.requests.entries).toEqual([]);
    expect(updatedLines()).toEqual([]);
  });

  it('a located cluster under TrafficControl → written to status and handed on', async () => {
    const mci = await located();
    const out = await prepareTrafficBlock(deps(), mci);
    expect(out.status?.trafficBlockClusters).toEqual(['member2']);
    expect((await getMci()).status?.trafficBlockClusters).toEqual(['member2']);
    expect(out.metadata.resourceVersion).toBe((await getMci()).metadata.resourceVersion);
    expect(updatedLines()).toHaveLength(1);
  });

  it('already right → nothing written, the same object, no log line', async () => {
    const mci = await located({ trafficBlockClusters: ['member2'] });
    h.api.requests.reset();
    expect(await prepareTrafficBlock(deps(), mci)).toBe(mci);
    expect(h.api.requests.entries.filter((e) => e.method !== 'GET')).toEqual([]);
    expect(updatedLines()).toEqual([]);
  });

  it('a conflicting write is re-read and written again', async () => {
    const mci = await located();
    let conflicts = 0;
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.endsWith('/status') && conflicts++ === 0 });
    const out = await prepareTrafficBlock(deps(), mci);
    expect(h.api.injectedConflicts).toBe(1);
    expect(out.status?.trafficBlockClusters).toEqual(['member2']);
    expect((await getMci()).status?.trafficBlockClusters).toEqual(['member2']);
  });

  it('written by someone else meanwhile → not written again, the newer object handed on', async () => {
    const mci = await located();
    const racing: KubeClient = Object.create(h.kube);
    let raced = false;
    racing.updateStatus = async <T extends KubeObject>(...args: Parameters<KubeClient['updateStatus']>) => {
      if (!raced) {
        raced = true;
        const now = await getMci();
        await h.kube.updateStatus(MCI, {
          ...now,
          status: { ...now.status, trafficBlockClusters: ['member2'] },
        });
      }
      return h.kube.updateStatus<T>(args[0], args[1] as T);
    };
    const before = h.api.requests.count('PUT');
    const out = await prepareTrafficBlock(deps(racing), mci);
    expect(h.api.requests.count('PUT') - before).toBe(2);
    expect(out.metadata.resourceVersion).toBe((await getMci()).metadata.resourceVersion);
  });

  it('vanished between a conflict and the re-read → what was computed is handed on', async () => {
    const mci = await located();
    h.api.injectConflicts({ probability: 1, pathFilter: (p) => p.endsWith('/status') });
    const racing: KubeClient = Object.create(h.kube);
    racing.get = async <T extends KubeObject>(...args: Parameters<KubeClient['get']>) => {
      h.api.injectConflicts(null);
      await h.kube.delete(MCI, 'default', 'minimal-ingress');
      return h.kube.get<T>(...args);
    };
    const out = await prepareTrafficBlock(deps(racing), mci);
    expect(out.status?.trafficBlockClusters).toEqual(['member2']);
    expect(out.status?.serviceLocations).toEqual(mci.status?.serviceLocations);
    expect(out.metadata.resourceVersion).toBe(mci.metadata.resourceVersion);
  });

  it('a cluster no longer blocked is dropped, the field omitted when none is left', async () => {
    const mci = await located({ trafficBlockClusters: ['member1', 'member2'] });
    const out = await prepareTrafficBlock(deps(), mci);
    expect(out.status?.trafficBlockClusters).toEqual(['member2']);
    await h.kube.updateStatus(MCI, { ...(await getMci()), status: { trafficBlockClusters: ['member2'] } });
    const out2 = await prepareTrafficBlock(deps(), await getMci());
    expect(out2.status).not.toHaveProperty('trafficBlockClusters');
    expect((await getMci()).status).not.toHaveProperty('trafficBlockClusters');
  });
});
