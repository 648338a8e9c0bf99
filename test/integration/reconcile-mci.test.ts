/**
 * `multiclusteringress` (upstream 5.1): traffic blocking and the triggers on other objects
 * (Service, EndpointSlice, Secret, Cluster, IngressClass), end to end against the API stand-in.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cluster, collectedSlice, ingressClass } from '../../dev/local/scenario.js';
import type { Cluster, EndpointSlice, MultiClusterIngress, Service } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import {
  edit,
  notify,
  notifyChange,
  outcomes,
  ran,
  startHarness,
  type Harness,
  toggleTrafficControl as toggleTrafficControlOf,
} from '../support/harness.js';
import { baseObjects, ingressTo, MCI } from '../support/objects.js';

let h: Harness;
let fake: FakeProvider;
const mciRef = ingressTo(['serve']);
const getMci = () => h.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress');
const storedMci = async () =>
  (await fake.snapshot()).mci['default/minimal-ingress']?.object as MultiClusterIngress | undefined;

async function toggleTrafficControl(name: string, on: boolean) {
  return toggleTrafficControlOf(h, name, on);
}

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
  fake = h.runtime.provider as FakeProvider;
  await h.seed([...baseObjects(), mciRef]);
  // create: load balancer, service locations (member1, member2), ServiceExport
  await h.deliver(notify(mciRef, 'added'));
  fake.clearCalls();
});
afterEach(async () => h.close());

describe('traffic blocking', () => {
  it('toggling TrafficControl on a cluster updates trafficBlockClusters and re-runs the load balancer', async () => {
    expect((await getMci())?.status?.serviceLocations).toEqual([
      { name: 'serve', clusters: ['member1', 'member2'] },
    ]);
    const res = await toggleTrafficControl('member2', true);
    expect(outcomes(res)).toEqual(['multiclusteringress default/minimal-ingress updated']);
    expect((await getMci())?.status?.trafficBlockClusters).toEqual(['member2']);
    expect(fake.callNames()).toEqual(['get', 'update']);
    // the provider got the MCI carrying the blocked cluster
    expect((await storedMci())?.status?.trafficBlockClusters).toEqual(['member2']);

    fake.clearCalls();
    await toggleTrafficControl('member2', false);
    expect((await getMci())?.status?.trafficBlockClusters).toBeUndefined();
    expect(fake.callNames()).toEqual(['get', 'update']);
    expect((await storedMci())?.status?.trafficBlockClusters).toBeUndefined();
  });

  it('only clusters the MCI is located in are blocked, sorted', async () => {
    await h.seed([cluster('member3', true), cluster('member0', true)]);
    const [old, now] = await edit<Cluster>(
      h,
      Resources.Cluster,
      undefined,
      'member1',
      (c) => {
        c.status = { remedyActions: ['TrafficControl'] };
      },
      'status',
    );
    await h.deliver(notifyChange('modified', now, old));
    await toggleTrafficControl('member2', true);
    expect((await getMci())?.status?.trafficBlockClusters).toEqual(['member1', 'member2']);
  });

  it('a cluster update that does not toggle TrafficControl triggers nothing', async () => {
    const [old, now] = await edit<Cluster>(h, Resources.Cluster, undefined, 'member2', (c) => {
      c.metadata.labels = { region: 'eu' };
    });
    expect(ran(await h.deliver(notifyChange('modified', now, old)))).toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it('a toggle on a cluster the MCI is not located in re-reconciles nothing', async () => {
    await h.seed([cluster('member3')]);
    const res = await toggleTrafficControl('member3', true);
    expect(ran(res)).toEqual([]);
  });

  it('an empty list and an absent one are the same: no status write', async () => {
    await h.deliver(notify(mciRef)); // status and condition settle
    const mci = (await getMci())!;
    await h.kube.updateStatus(MCI, { ...mci, status: { ...mci.status, trafficBlockClusters: [] } });
    h.api.requests.reset();
    await h.deliver(notify(mciRef));
    expect(h.api.requests.count('PUT', '/apis/networking.karmada.io')).toBe(0);
  });

  it('new service locations re-run the load balancer (upstream ignores status-only updates)', async () => {
    const [old, now] = await edit<MultiClusterIngress>(
      h,
      MCI,
      'default',
      'minimal-ingress',
      (m) => {
        m.status!.serviceLocations = [{ name: 'serve', clusters: ['member1'] }];
      },
      'status',
    );
    expect(ran(await h.deliver(notifyChange('modified', now, old)))).toEqual([
      'multiclusteringress default/minimal-ingress',
    ]);
    // our own load-balancer status write is not a reason to run again
    const [o2, n2] = await edit<MultiClusterIngress>(
      h,
      MCI,
      'default',
      'minimal-ingress',
      (m) => {
        m.status!.loadBalancer = { ingress: [{ ip: '9.9.9.9' }] };
      },
      'status',
    );
    expect(ran(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([]);
  });
});

describe('triggers on the objects a MultiClusterIngress depends on', () => {
  it('an EndpointSlice change for derived-serve re-reconciles the MCI that routes to serve', async () => {
    const [old, now] = await edit<EndpointSlice>(
      h,
      Resources.EndpointSlice,
      'default',
      'imported-member1-serve-abcde',
      (s) => {
        s.endpoints = [{ addresses: ['10.1.0.9'], conditions: { ready: true } }];
      },
    );
    const res = await h.deliver(notifyChange('modified', now, old));
    expect(outcomes(res)).toEqual([
      'multiclusteringress default/minimal-ingress updated',
      // upstream maps every slice to the same-named MultiClusterService too; there is none
      'multiclusterservice default/serve gone',
    ]);
    expect(fake.callNames()).toEqual(['get', 'update']);
  });

  it('an EndpointSlice deletion (reference only) still finds the MCI via the last copy', async () => {
    const slice = collectedSlice('member2', ['10.2.0.1']);
    await h.kube.delete(Resources.EndpointSlice, 'default', slice.metadata.name ?? '');
    const res = await h.deliver({ ...notify(slice, 'deleted'), oldObject: slice });
    expect(ran(res)).toContain('multiclusteringress default/minimal-ingress');
  });

  it('an EndpointSlice without the service-name label is ignored with a warning', async () => {
    const slice = {
      ...collectedSlice('member1', ['10.1.0.1'], 'other'),
      metadata: { name: 'stray', namespace: 'default' },
    };
    const res = await h.deliver(notifyChange('added', slice as KubeObject));
    expect(res[0]).toMatchObject({ ok: true, results: [] });
    expect(h.logger.lines.some((e) => e.message.includes('has no kubernetes.io/service-name label'))).toBe(
      true,
    );
  });

  it('a Service update matters only if annotations, spec or deletion state changed', async () => {
    const [o1, n1] = await edit<Service>(
      h,
      Resources.Service,
      'default',
      'serve',
      (s) => {
        s.status = { loadBalancer: {}, conditions: [{ type: 'x', status: 'True' }] };
      },
      'status',
    );
    expect(ran(await h.deliver(notifyChange('modified', n1, o1)))).toEqual([]);
    const [o2, n2] = await edit<Service>(h, Resources.Service, 'default', 'serve', (s) => {
      s.metadata.annotations = { touched: 'yes' };
    });
    expect(ran(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([
      'multiclusteringress default/minimal-ingress',
      'multiclusterservice default/serve',
    ]);
  });

  it('a Secret named by spec.tls re-reconciles the MCI (via the tls label index)', async () => {
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.spec!.tls = [{ hosts: ['a.example.com'], secretName: 'tls-a' }];
    });
    await h.deliver(notify(mciRef));
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls-a', namespace: 'default' } };
    expect(ran(await h.deliver(notify(secret, 'added')))).toEqual([
      'multiclusteringress default/minimal-ingress',
    ]);
    const other = { ...secret, metadata: { name: 'unrelated', namespace: 'default' } };
    expect(ran(await h.deliver(notify(other, 'added')))).toEqual([]);
  });

  it('the OIDC Secret its auth-idp-oidc names re-reconciles the MCI (the same label index)', async () => {
    await edit<MultiClusterIngress>(h, MCI, 'default', 'minimal-ingress', (m) => {
      m.metadata.annotations = {
        ...m.metadata.annotations,
        'alb.ingress.kubernetes.io/auth-type': 'oidc',
        'alb.ingress.kubernetes.io/auth-idp-oidc': '{"issuer":"https://idp","SecretName":"oidc-client"}',
      };
    });
    await h.deliver(notify(mciRef));
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'oidc-client', namespace: 'default' },
    };
    expect(ran(await h.deliver(notify(secret, 'modified')))).toEqual([
      'multiclusteringress default/minimal-ingress',
    ]);
    const other = { ...secret, metadata: { name: 'unrelated', namespace: 'default' } };
    expect(ran(await h.deliver(notify(other, 'modified')))).toEqual([]);
  });

  it('an IngressClass change re-reconciles every MultiClusterIngress (and re-decides exports)', async () => {
    const [old, now] = await edit<KubeObject & { spec: { controller: string } }>(
      h,
      Resources.IngressClass,
      undefined,
      'fake',
      (c) => {
        c.spec.controller = 'k8s.io/other';
      },
    );
    const res = await h.deliver(notifyChange('modified', now, old));
    expect(outcomes(res)).toEqual([
      'multiclusteringress default/minimal-ingress deleted',
      'serviceexport-propagation default/serve deleted',
    ]);
    // an annotation-only change to an IngressClass is not a reason (upstream filter)
    await h.seed([ingressClass('spare', 'k8s.io/other', false)]);
    const [o2, n2] = await edit<KubeObject>(h, Resources.IngressClass, undefined, 'spare', (c) => {
      c.metadata.labels = { x: 'y' };
    });
    expect(ran(await h.deliver(notifyChange('modified', n2, o2)))).toEqual([]);
  });
});

describe('upstream bugs', () => {
  it('upstream bug 3: the provider keeps the updated MultiClusterIngress (trafficBlockClusters included)', async () => {
    await toggleTrafficControl('member1', true);
    // upstream's fake updates a copy of its map entry, so the stored object would not carry it
    expect((await storedMci())?.status?.trafficBlockClusters).toEqual(['member1']);
  });

  it('upstream bug 4: a provider that reports no status does not crash the reconcile', async () => {
    vi.spyOn(fake.loadBalancer(), 'update').mockResolvedValue(undefined);
    const [res] = await h.deliver(notify(mciRef));
    expect(res?.ok).toBe(true);
    expect(res?.results.find((r) => r.controller === 'multiclusteringress')).toMatchObject({
      outcome: 'updated',
      detail: 'provider reported no status',
    });
    expect((await getMci())?.status?.loadBalancer).toEqual({ ingress: [{ ip: '1.2.3.4' }] });
  });

  it('upstream bug 9: the multiclusteringress controller records Events (upstream never does)', async () => {
    const events = await h.kube.list<KubeObject & { reason: string }>(Resources.Event, {
      namespace: 'default',
    });
    expect(events.items.map((e) => e.reason)).toContain('EnsuredLoadBalancer');
  });
});

describe('cost of one EndpointSlice change', () => {
  it('counts the Kubernetes API calls (the README quotes this)', async () => {
    const slice = async (ip: string) => {
      const [old, now] = await edit<EndpointSlice>(
        h,
        Resources.EndpointSlice,
        'default',
        'imported-member1-serve-abcde',
        (s) => {
          s.endpoints = [{ addresses: [ip], conditions: { ready: true } }];
        },
      );
      return notifyChange('modified', now, old);
    };
    await h.deliver(await slice('10.1.0.8')); // settles status and condition
    const change = await slice('10.1.0.9');
    h.api.requests.reset();
    const res = await h.deliver(change);
    expect(ran(res)).toEqual([
      'multiclusteringress default/minimal-ingress',
      'multiclusterservice default/serve',
    ]);
    const calls = h.api.requests.entries.map((e) => `${e.method} ${e.path}${e.query}`);
    const leases = calls.filter((c) => c.includes('/leases'));
    const mapping = calls.filter((c) => c.startsWith('GET') && c.includes('labelSelector='));
    console.log(`one EndpointSlice change: ${calls.length} API calls\n  ${calls.join('\n  ')}`);
    // the mapping: one label-selected LIST in the slice's namespace, never a cluster-wide MCI LIST
    expect(mapping).toEqual([
      expect.stringContaining(
        'GET /apis/networking.karmada.io/v1alpha1/namespaces/default/multiclusteringresses?labelSelector=backend.multicluster.karmada.io%2Fserve',
      ),
    ]);
    expect(
      calls.filter((c) => c.includes('/apis/networking.karmada.io/v1alpha1/multiclusteringresses')),
    ).toEqual([]);
    // two reconciles, each under a lock Lease (create + delete)
    expect(leases).toHaveLength(4);
    // MCS `serve` does not exist: one GET
    expect(calls.filter((c) => c.includes('/multiclusterservices/'))).toHaveLength(1);
    // measured: 9 = 1 (mapping) + 5 (MCI: lock 2, GET, IngressClass LIST, Cluster LIST) + 3 (MCS: lock 2,
    // GET); the fake provider's load balancer holds no targets, so it changed nothing: no Event
    expect(calls.filter((c) => c.includes('/events'))).toEqual([]);
    expect(calls.length).toBeLessThanOrEqual(9);
  });
});
