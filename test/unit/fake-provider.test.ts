import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { ProviderConfigError } from '../../lib/errors.js';
import {
  ALREADY_EXISTS_MESSAGE,
  createFakeProvider,
  FakeProvider,
  InjectedFailureError,
  NOT_EXISTS_MESSAGE,
} from '../../lib/providers/fake/provider.js';
import type { KubeClient } from '../../lib/kube/client.js';

const ctx = (): ProviderContext => ({ signal: new AbortController().signal, logger: silentLogger });
const deps = { kube: {} as KubeClient, logger: silentLogger };

const mci = (name = 'minimal-ingress', path = '/testpath'): MultiClusterIngress => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterIngress',
  metadata: { name, namespace: 'default' },
  spec: {
    rules: [
      {
        http: {
          paths: [
            { path, pathType: 'Prefix', backend: { service: { name: 'serve', port: { number: 80 } } } },
          ],
        },
      },
    ],
  },
});

const mcs = (name = 'serve'): MultiClusterService => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name, namespace: 'default' },
  spec: { types: ['LoadBalancer'] },
});

describe('Class: FakeProvider', () => {
  it('supports both load balancer kinds and is named fake', () => {
    const p = new FakeProvider();
    expect(p.providerName()).toBe('fake');
    expect(p.loadBalancer()).toBeDefined();
    expect(p.mcsLoadBalancer()).toBeDefined();
  });

  it('creates with 1.2.3.4, keeps that address through updates, deletes idempotently, and logs every call', async () => {
    const p = new FakeProvider();
    const lb = p.loadBalancer();
    expect(await lb.get(ctx(), mci())).toEqual({ exists: false });
    expect(await lb.ensure(ctx(), mci())).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    expect((await lb.get(ctx(), mci())).exists).toBe(true);
    expect(await lb.update(ctx(), mci())).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    await lb.ensureDeleted(ctx(), mci());
    await lb.ensureDeleted(ctx(), mci());
    expect((await lb.get(ctx(), mci())).exists).toBe(false);
    expect(p.callNames()).toEqual(['get', 'create', 'get', 'update', 'delete', 'delete', 'get']);
    p.clearCalls();
    expect(p.calls).toEqual([]);
  });

  it("fails create-when-exists and update-when-missing with upstream's messages", async () => {
    const p = new FakeProvider();
    const lb = p.mcsLoadBalancer();
    await expect(lb.update(ctx(), mcs())).rejects.toThrow(NOT_EXISTS_MESSAGE);
    await lb.ensure(ctx(), mcs());
    await expect(lb.ensure(ctx(), mcs())).rejects.toThrow(ALREADY_EXISTS_MESSAGE);
    expect(await lb.update(ctx(), mcs())).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('says an update changed nothing when the spec and annotations are as it made them (its condition aside)', async () => {
    const p = new FakeProvider();
    const lb = p.loadBalancer();
    const told: string[] = [];
    const c = (): ProviderContext => ({ ...ctx(), unchanged: () => told.push('unchanged') });
    await lb.ensure(c(), mci());
    // the lifecycle's own bookkeeping: finalizer, index labels, its condition annotation
    const kept = mci();
    kept.metadata = {
      ...kept.metadata,
      finalizers: ['karmada.io/multi-cluster-ingress-controller'],
      labels: { 'backend.multicluster.karmada.io/serve': 'true' },
      annotations: { 'multicluster.karmada.io/load-balancer-condition': '{"status":"True"}' },
    };
    await lb.update(c(), kept);
    expect(told).toEqual(['unchanged']);
    // a changed path, or an annotation of the user's, is a change
    await lb.update(c(), mci('minimal-ingress', '/other'));
    const annotated = mci('minimal-ingress', '/other');
    annotated.metadata.annotations = { 'example.com/x': 'y' };
    await lb.update(c(), annotated);
    expect(told).toEqual(['unchanged']);
    await lb.update(c(), annotated);
    expect(told).toEqual(['unchanged', 'unchanged']);
  });

  it('keeps the address of a load balancer from a state file written before addresses were kept', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'fake-')), 'state.json');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      file,
      JSON.stringify({
        mci: {},
        mcs: { 'default/serve': { name: 'serve', namespace: 'default', object: mcs() } },
      }),
    );
    const p = createFakeProvider(`stateFile: ${file}`, deps) as FakeProvider;
    expect(await p.mcsLoadBalancer().update(ctx(), mcs())).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('persists the updated object (upstream bug 3 fixed)', async () => {
    const p = new FakeProvider();
    const lb = p.loadBalancer();
    await lb.ensure(ctx(), mci('a', '/one'));
    await lb.update(ctx(), mci('a', '/two'));
    const state = await p.snapshot();
    const stored = state.mci['default/a']?.object as MultiClusterIngress;
    expect(stored.spec?.rules?.[0]?.http?.paths[0]?.path).toBe('/two');
    expect(state.mci['default/a']?.services).toEqual(['serve']);
  });

  it('keeps MultiClusterIngress and MultiClusterService balancers apart', async () => {
    const p = new FakeProvider();
    await p.loadBalancer().ensure(ctx(), mci('serve'));
    expect((await p.mcsLoadBalancer().get(ctx(), mcs('serve'))).exists).toBe(false);
  });

  it('fails the next N calls of a method', async () => {
    const p = createFakeProvider('failures: { create: { next: 2 } }', deps) as FakeProvider;
    const lb = p.loadBalancer();
    await expect(lb.ensure(ctx(), mci())).rejects.toBeInstanceOf(InjectedFailureError);
    await expect(lb.ensure(ctx(), mci())).rejects.toBeInstanceOf(InjectedFailureError);
    await expect(lb.ensure(ctx(), mci())).resolves.toEqual({ ingress: [{ ip: '1.2.3.4' }] });
    p.failNext('delete');
    await expect(lb.ensureDeleted(ctx(), mci())).rejects.toThrow(/injected failure of delete/);
  });

  it('fails each call with a seeded probability, reproducibly', async () => {
    const run = async (seed: number) => {
      const p = createFakeProvider(
        `seed: ${seed}\nfailures: { get: { probability: 0.5 } }`,
        deps,
      ) as FakeProvider;
      const outcomes: boolean[] = [];
      for (let i = 0; i < 40; i++) {
        outcomes.push(
          await p
            .loadBalancer()
            .get(ctx(), mci())
            .then(
              () => true,
              () => false,
            ),
        );
      }
      return outcomes;
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    const failures = a.filter((ok) => !ok).length;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
  });

  it('waits the configured request delay, and stops waiting when the signal aborts', async () => {
    const p = createFakeProvider('requestDelayMs: 60', deps) as FakeProvider;
    const t0 = Date.now();
    await p.loadBalancer().get(ctx(), mci());
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    const ac = new AbortController();
    const pending = p.loadBalancer().get({ signal: ac.signal, logger: silentLogger }, mci());
    ac.abort();
    await expect(pending).rejects.toThrow('operation cancelled');
  });

  it('shares state between instances through a state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-'));
    const config = `stateFile: ${join(dir, 'state.json')}`;
    const first = createFakeProvider(config, deps) as FakeProvider;
    await first.loadBalancer().ensure(ctx(), mci());
    const second = createFakeProvider(config, deps) as FakeProvider;
    expect((await second.loadBalancer().get(ctx(), mci())).exists).toBe(true);
    await expect(second.loadBalancer().ensure(ctx(), mci())).rejects.toThrow(ALREADY_EXISTS_MESSAGE);
    await second.loadBalancer().ensureDeleted(ctx(), mci());
    expect((await first.loadBalancer().get(ctx(), mci())).exists).toBe(false);
  });

  it.each([
    ['not YAML', '{ a: [', /not valid YAML/],
    ['a negative delay', 'requestDelayMs: -1', /requestDelayMs/],
    ['a probability above 1', 'failures: { get: { probability: 2 } }', /failures\.get\.probability/],
    ['an unknown method', 'failures: { explode: { next: 1 } }', /failures/],
  ])('rejects a config with %s', (_name, text, message) => {
    expect(() => createFakeProvider(text, deps)).toThrow(ProviderConfigError);
    expect(() => createFakeProvider(text, deps)).toThrow(message);
  });
});

describe('FakeProvider failure rules scoped to one object', () => {
  it('fails only the named object', async () => {
    const p = createFakeProvider(
      'failures: { create: { probability: 1, object: default/b } }',
      deps,
    ) as FakeProvider;
    await expect(p.loadBalancer().ensure(ctx(), mci('a'))).resolves.toBeDefined();
    await expect(p.loadBalancer().ensure(ctx(), mci('b'))).rejects.toBeInstanceOf(InjectedFailureError);
  });
});

describe('fake provider config', () => {
  it('rejects an unknown field instead of ignoring a typo', () => {
    expect(() => createFakeProvider('requestDelay: 100', deps)).toThrow(ProviderConfigError);
  });
});
