/**
 * Only EndpointSlices Karmada imported from a member cluster become targets. Someone who may write
 * EndpointSlices in the Karmada control plane can label one `derived-<svc>`; without this check the
 * load balancer would send traffic to whatever private address it lists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed } from '../../dev/local/pipeline.js';
import {
  collectedSlice,
  minimalIngress,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { readIngressInputs, readServiceInputs } from '../../lib/providers/aws/inputs.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let api: KubeApiServer;
let kube: KubeClient;

/** A slice with the label the readers select on, but not written by Karmada's collector. */
function forged(name: string, address: string, annotations?: Record<string, string>): KubeObject {
  const slice = collectedSlice('member1', [address]) as KubeObject & { metadata: Record<string, unknown> };
  return { ...slice, metadata: { ...slice.metadata, name, annotations: annotations ?? {} } } as KubeObject;
}

beforeAll(async () => {
  api = await startKubeApiServer({ inProcess: true });
  kube = createKubeClient(
    loadKubeConfig({ file: api.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'eps-')), 'k')) }),
    { transport: api.transport! },
  );
  await seed(kube, [
    serveService(),
    collectedSlice('member1', ['10.1.0.11']),
    // Not `imported-*`, though it claims an execution space.
    forged('serve-handmade', '10.9.9.1', { 'work.karmada.io/namespace': 'karmada-es-member1' }),
    // `imported-*`, but without the annotation Karmada writes.
    forged('imported-member1-serve-xyz', '10.9.9.2'),
    // Name and annotation disagree on the cluster.
    forged('imported-member2-serve-xyz', '10.9.9.3', { 'work.karmada.io/namespace': 'karmada-es-member1' }),
  ]);
});
afterAll(async () => api?.close());

describe('Targets come only from imported EndpointSlices', () => {
  const addresses = (slices: Array<{ endpoints?: Array<{ addresses: string[] }> }>) =>
    slices.flatMap((s) => (s.endpoints ?? []).flatMap((e) => e.addresses)).sort();

  it('only imported EndpointSlices (imported-* with the work.karmada.io/namespace annotation) are read as targets', async () => {
    const mcs = await readServiceInputs(kube, serveMultiClusterService() as MultiClusterService);
    expect(addresses(mcs.endpointSlices)).toEqual(['10.1.0.11']);
    const mci = {
      ...minimalIngress(),
      spec: { defaultBackend: { service: { name: 'serve', port: { number: 80 } } } },
    };
    const ingress = await readIngressInputs(kube, mci as unknown as MultiClusterIngress);
    expect(addresses(ingress.endpointSlices)).toEqual(['10.1.0.11']);
  });
});
