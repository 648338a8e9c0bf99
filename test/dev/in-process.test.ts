/**
 * The simulators' in-process transport (dev/shared/in-process.ts), which the component tier's
 * provider tests run on: the same SDK calls give the same answers and the same errors as over
 * HTTP, and a dropped connection is one the SDK retries.
 */
import { DescribeCertificateCommand, ResourceNotFoundException } from '@aws-sdk/client-acm';
import { DescribeSubnetsCommand } from '@aws-sdk/client-ec2';
import {
  CreateLoadBalancerCommand,
  DescribeLoadBalancersCommand,
  LoadBalancerNotFoundException,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetResourcesCommand } from '@aws-sdk/client-resource-groups-tagging-api';
import { afterEach, describe, expect, it } from 'vitest';
import { startKubeApiServer } from '../../dev/kube-apiserver/index.js';
import { KubeApiError } from '../../lib/kube/client.js';
import { createKubeClient } from '../../lib/kube/client-node.js';
import { Resources } from '../../lib/kube/resources.js';
import { KubeConfig } from '@kubernetes/client-node';
import { acmClientFor, startAcmSimulator } from '../../dev/acm-sim/index.js';
import { ec2ClientFor, startEc2Simulator } from '../../dev/ec2-sim/index.js';
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  taggingClientFor,
  type Elbv2Simulator,
} from '../../dev/elbv2-sim/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function both(): Promise<{ http: Elbv2Simulator; local: Elbv2Simulator }> {
  const http = await startElbv2Simulator();
  const local = await startElbv2Simulator({ inProcess: true });
  closers.push(
    () => http.close(),
    () => local.close(),
  );
  return { http, local };
}

const create = (sim: Elbv2Simulator, maxAttempts = 3) =>
  elbv2ClientFor(sim, { maxAttempts }).send(
    new CreateLoadBalancerCommand({
      Name: 'web',
      Subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
      Scheme: 'internal',
      Tags: [{ Key: 'team', Value: 'platform' }],
    }),
  );

describe('simulators in process', () => {
  it('ELBv2 and the Tagging API answer as over HTTP, with no port', async () => {
    const { http, local } = await both();
    expect(local.port).toBe(0);
    const [overHttp, inProcess] = [await create(http), await create(local)];
    // Same seed, same IDs: all but the creation time is the same answer.
    expect({ ...inProcess.LoadBalancers?.[0], CreatedTime: 0 }).toEqual({
      ...overHttp.LoadBalancers?.[0],
      CreatedTime: 0,
    });
    const tagged = await taggingClientFor(local).send(
      new GetResourcesCommand({ TagFilters: [{ Key: 'team', Values: ['platform'] }] }),
    );
    expect(tagged.ResourceTagMappingList?.map((m) => m.ResourceARN)).toEqual([
      inProcess.LoadBalancers?.[0]?.LoadBalancerArn,
    ]);
    expect(local.calls.get('CreateLoadBalancer').ok).toBe(1);
    expect(local.taggingCalls.get('GetResources').ok).toBe(1);
  });

  it("an error is the SDK's exception, as over HTTP", async () => {
    const { local } = await both();
    await expect(
      elbv2ClientFor(local).send(new DescribeLoadBalancersCommand({ Names: ['missing'] })),
    ).rejects.toBeInstanceOf(LoadBalancerNotFoundException);
  });

  it('a dropped connection is an ECONNRESET the SDK retries; dropped after the commit, the call took effect', async () => {
    const { local } = await both();
    local.faults.failNext('DescribeLoadBalancers', 1, { drop: true });
    const described = await elbv2ClientFor(local, { maxAttempts: 2, retryDelayMs: 1 }).send(
      new DescribeLoadBalancersCommand({}),
    );
    expect(described.LoadBalancers).toEqual([]);
    expect(local.calls.get('DescribeLoadBalancers')).toMatchObject({ calls: 2, ok: 1 });

    local.faults.failNext('CreateLoadBalancer', 1, { dropAfterCommit: true });
    await expect(create(local, 1)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(local.snapshot().loadBalancers.map((l) => l.LoadBalancerName)).toEqual(['web']);
  });

  it('EC2 and the JSON services (ACM) serve in process too', async () => {
    const elbv2 = await startElbv2Simulator({ inProcess: true });
    const ec2 = await startEc2Simulator({ elbv2, inProcess: true });
    const acm = await startAcmSimulator({ inProcess: true });
    closers.push(
      () => elbv2.close(),
      () => ec2.close(),
      () => acm.close(),
    );
    const subnets = await ec2ClientFor(ec2).send(
      new DescribeSubnetsCommand({
        Filters: [{ Name: 'tag:kubernetes.io/role/internal-elb', Values: ['1'] }],
      }),
    );
    expect(subnets.Subnets?.map((s) => s.SubnetId)).toEqual(
      SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    );
    const cert = acm.state.addCertificate('app.example.com');
    const described = await acmClientFor(acm).send(
      new DescribeCertificateCommand({ CertificateArn: cert.CertificateArn }),
    );
    expect(described.Certificate?.DomainName).toBe('app.example.com');
    await expect(
      acmClientFor(acm).send(new DescribeCertificateCommand({ CertificateArn: `${cert.CertificateArn}0` })),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });
});

describe('the Kubernetes API stand-in in process', () => {
  async function kubeOf(inProcess: boolean) {
    const api = await startKubeApiServer({ inProcess });
    closers.push(() => api.close());
    const config = new KubeConfig();
    config.loadFromString(api.kubeConfig());
    return { api, kube: createKubeClient(config, api.transport ? { transport: api.transport } : {}) };
  }

  it('answers the KubeClient as over HTTP: writes, reads, paged lists, patches and Status errors', async () => {
    const answers = [];
    for (const inProcess of [false, true]) {
      const { api, kube } = await kubeOf(inProcess);
      expect(api.port === 0).toBe(inProcess);
      const made = [];
      for (const name of ['a', 'b', 'c']) {
        made.push(
          await kube.create(Resources.ConfigMap, {
            metadata: { name, namespace: 'default', labels: { app: 'web' } },
            data: { k: name },
          }),
        );
      }
      const patched = await kube.patch(Resources.ConfigMap, 'default', 'a', { data: { k: 'patched' } });
      const page = await kube.list(Resources.ConfigMap, { namespace: 'default', limit: 2 });
      const all = await kube.list(Resources.ConfigMap, { namespace: 'default', labelSelector: 'app=web' });
      const conflict = await kube
        .update(Resources.ConfigMap, {
          ...made[1]!,
          metadata: { ...made[1]!.metadata, resourceVersion: '1' },
        })
        .catch((e: unknown) => e);
      await kube.delete(Resources.ConfigMap, 'default', 'c');
      answers.push({
        patched: (patched as { data?: unknown }).data,
        page: page.items.map((i) => i.metadata.name),
        more: Boolean(page.metadata?.continue),
        all: all.items.map((i) => i.metadata.name),
        conflict: conflict instanceof KubeApiError ? [conflict.code, conflict.reason] : conflict,
        gone: await kube.get(Resources.ConfigMap, 'default', 'c'),
        seen: api.requests.entries.map((r) => `${r.method} ${r.status}`),
      });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]).toMatchObject({
      patched: { k: 'patched' },
      page: ['a', 'b'],
      more: true,
      all: ['a', 'b', 'c'],
      conflict: [409, 'Conflict'],
      gone: undefined,
    });
  });
});
