import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cluster,
  ingressClass,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import { MCI_FINALIZER } from '../../lib/karmada/constants.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { enqueueResync } from '../../lib/maintenance/resync.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let fake: FakeProvider;
const logger = new MemoryLogger();
const signal = new AbortController().signal;

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
  fake = h.runtime.provider as FakeProvider;
  await h.seed([
    ingressClass(),
    cluster('member1'),
    serveService(),
    minimalIngress(),
    serveMultiClusterService(),
  ]);
  await h.deliver(notify(minimalIngress(), 'added'), notify(serveMultiClusterService(), 'added'));
});
afterEach(async () => h.close());

/** Removes our finalizer by hand and deletes the object: its load balancer is now an orphan. */
async function orphan(name: string) {
  const mci = (await h.kube.get<KubeObject>(Resources.MultiClusterIngress, 'default', name))!;
  await h.kube.update(Resources.MultiClusterIngress, {
    ...mci,
    metadata: {
      ...mci.metadata,
      finalizers: (mci.metadata.finalizers ?? []).filter((f) => f !== MCI_FINALIZER),
    },
  });
  await h.kube.delete(Resources.MultiClusterIngress, 'default', name);
}

describe('Function: sweepOrphans', () => {
  it('deletes the stack of an object that is gone, and leaves the others', async () => {
    await orphan('minimal-ingress');
    const result = await sweepOrphans(h.kube, fake, { graceSeconds: 0, signal, logger });
    expect(result).toMatchObject({
      owned: 2,
      orphaned: ['mci/default/minimal-ingress'],
      deleted: ['mci/default/minimal-ingress'],
    });
    const state = await fake.snapshot();
    expect(state.mci).toEqual({});
    expect(Object.keys(state.mcs)).toEqual(['default/serve']);
  });

  it('leaves an orphan younger than the grace period for a later sweep', async () => {
    await orphan('minimal-ingress');
    const result = await sweepOrphans(h.kube, fake, { graceSeconds: 3600, signal, logger });
    expect(result).toMatchObject({
      orphaned: ['mci/default/minimal-ingress'],
      deleted: [],
      deferred: ['mci/default/minimal-ingress'],
    });
    expect(Object.keys((await fake.snapshot()).mci)).toEqual(['default/minimal-ingress']);
    const later = await sweepOrphans(h.kube, fake, {
      graceSeconds: 3600,
      signal,
      logger,
      now: () => new Date(Date.now() + 2 * 3600_000),
    });
    expect(later.deleted).toEqual(['mci/default/minimal-ingress']);
  });

  it('deletes the stack of an object re-created under another class (it no longer claims the stack)', async () => {
    await orphan('minimal-ingress');
    await h.seed([ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    await h.seed([
      {
        ...minimalIngress(),
        spec: { ...(minimalIngress() as MultiClusterIngress).spec, ingressClassName: 'nginx' },
      } as KubeObject,
    ]);
    const [res] = await h.deliver(notify(minimalIngress(), 'added'));
    expect(res?.results.find((r) => r.controller === 'multiclusteringress')?.outcome).toBe('ignored');
    // while the new object is young its first reconcile may still be coming: leave the stack
    const young = await sweepOrphans(h.kube, fake, { graceSeconds: 3600, signal, logger });
    expect(young.orphaned).toEqual([]);
    const later = await sweepOrphans(h.kube, fake, { graceSeconds: 0, signal, logger });
    expect(later.deleted).toEqual(['mci/default/minimal-ingress']);
    expect((await fake.snapshot()).mci).toEqual({});
  });

  it('keeps the stack of an object that carries our finalizer', async () => {
    const result = await sweepOrphans(h.kube, fake, { graceSeconds: 0, signal, logger });
    expect(result).toMatchObject({ owned: 2, orphaned: [], deleted: [] });
  });

  it('leaves stacks of namespaces outside ALLOWED_NAMESPACES alone', async () => {
    await orphan('minimal-ingress');
    const result = await sweepOrphans(h.kube, fake, {
      graceSeconds: 0,
      signal,
      logger,
      namespaces: ['team-a'],
    });
    expect(result).toMatchObject({ owned: 0, deleted: [] });
    expect(Object.keys((await fake.snapshot()).mci)).toEqual(['default/minimal-ingress']);
  });

  it('deletes nothing in dry-run mode', async () => {
    await orphan('minimal-ingress');
    const result = await sweepOrphans(h.kube, fake, { graceSeconds: 0, signal, logger, dryRun: true });
    expect(result.deleted).toEqual([]);
    expect(Object.keys((await fake.snapshot()).mci)).toEqual(['default/minimal-ingress']);
  });
});

describe('Function: enqueueResync', () => {
  it('sends a resync reference for every MultiClusterIngress, MultiClusterService and Cluster, retrying failures', async () => {
    const sent: ChangeNotification[] = [];
    let first = true;
    const sender = {
      async send(batch: readonly ChangeNotification[]) {
        // the first call loses one notification: it must be sent again
        const failed = first ? [batch[0]!] : [];
        first = false;
        sent.push(...batch.filter((n) => !failed.includes(n)));
        return { failed };
      },
    };
    const result = await enqueueResync(h.kube, sender, logger);
    expect(result).toEqual({
      listed: { MultiClusterIngress: 1, MultiClusterService: 1, Cluster: 1 },
      sent: 3,
      failed: 0,
    });
    expect(
      sent.map((n) => `${n.change} ${n.ref.kind} ${n.ref.namespace ?? ''}/${n.ref.name}`).sort(),
    ).toEqual([
      'resync Cluster /member1',
      'resync MultiClusterIngress default/minimal-ingress',
      'resync MultiClusterService default/serve',
    ]);
    expect(sent.every((n) => n.object === undefined && n.ref.uid && n.ref.resourceVersion)).toBe(true);
  });
});
