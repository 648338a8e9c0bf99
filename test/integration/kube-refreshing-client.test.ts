/**
 * RefreshingKubeClient against the API stand-in (in process) with authentication on: a request
 * the API server answers 401 is repeated once with the newer credential, concurrent 401s wait for
 * the same renewal, and without a newer credential the 401 is the answer.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { KubeApiError, type KubeClient } from '../../lib/kube/client.js';
import { createKubeClient } from '../../lib/kube/client-node.js';
import { RefreshingKubeClient } from '../../lib/kube/refreshing-client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';

const ADMIN = 'admin-token';
let api: KubeApiServer;

beforeEach(async () => {
  api = await startKubeApiServer({ inProcess: true, acceptAnyToken: false, token: ADMIN });
});
afterEach(() => api.close());

function clientWith(token: string): KubeClient {
  const config = new KubeConfig();
  config.loadFromString(api.kubeConfigWithToken(token));
  return createKubeClient(config, { transport: api.transport! });
}

describe('RefreshingKubeClient', () => {
  it('repeats a 401 once with the newer credential, and sends later requests with it', async () => {
    const expired = clientWith('expired');
    const renewed = clientWith(ADMIN);
    let renewals = 0;
    const kube = new RefreshingKubeClient(expired, async () => {
      renewals++;
      return renewed;
    });
    const made = await kube.create<KubeObject>(Resources.ConfigMap, {
      metadata: { name: 'a', namespace: 'default' },
    });
    expect(made.metadata.uid).toBeDefined();
    expect(kube.current).toBe(renewed);
    expect((await kube.list(Resources.ConfigMap, { namespace: 'default' })).items).toHaveLength(1);
    expect(renewals).toBe(1);
    const seen = api.requests.entries.map((r) => `${r.method} ${r.status}`);
    expect(seen).toEqual(['POST 401', 'POST 201', 'GET 200']);
  });

  it('concurrent 401s wait for one renewal', async () => {
    let renewals = 0;
    const kube = new RefreshingKubeClient(clientWith('expired'), async () => {
      renewals++;
      await new Promise((r) => setTimeout(r, 10));
      return clientWith(ADMIN);
    });
    const reads = await Promise.all(
      ['default', 'karmada-system', 'default'].map((ns) => kube.get(Resources.Namespace, undefined, ns)),
    );
    expect(reads.map((n) => n?.metadata.name)).toEqual(['default', 'karmada-system', 'default']);
    expect(renewals).toBe(1);
  });

  it('without a newer credential the 401 is the answer; other errors are not a reason to renew', async () => {
    let renewals = 0;
    const none = new RefreshingKubeClient(clientWith('expired'), async () => {
      renewals++;
      return undefined;
    });
    await expect(none.get(Resources.Namespace, undefined, 'default')).rejects.toMatchObject({ code: 401 });
    expect(renewals).toBe(1);

    const admin = clientWith(ADMIN);
    const kube = new RefreshingKubeClient(admin, async () => {
      renewals++;
      return clientWith(ADMIN);
    });
    const err = await kube
      .create(Resources.Namespace, { metadata: { name: 'default' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect((err as KubeApiError).code).toBe(409);
    expect(renewals).toBe(1);
    expect(kube.current).toBe(admin);
  });
});
