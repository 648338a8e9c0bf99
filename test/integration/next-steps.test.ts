/**
 * What an operator reads when something goes wrong: the Warning Event and the LoadBalancerReady=False
 * condition (an annotation on a MultiClusterIngress, status.conditions on a MultiClusterService)
 * both say what failed and then what to do next, through the functions' own code path.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { SIM_NETWORK, startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  minimalIngress,
  resourceBinding,
  serveMultiClusterService,
  serveService,
} from '../../dev/local/scenario.js';
import type { Condition, MultiClusterIngress, MultiClusterService } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { buildIngressStack, parseAwsConfig } from '../../lib/providers/aws/index.js';
import { readIngressInputs } from '../../lib/providers/aws/inputs.js';
import type { FakeProvider } from '../../lib/providers/fake/provider.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { NEXT_STEPS } from '../../lib/reconcile/next-steps.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const MCI = Resources.MultiClusterIngress;
const MCS = Resources.MultiClusterService;

let h: Harness | undefined;
let sim: Elbv2Simulator | undefined;
afterEach(async () => {
  await h?.close();
  await sim?.close();
  h = sim = undefined;
});

async function warnings(harness: Harness, name: string) {
  const list = await harness.kube.list<
    KubeObject & { involvedObject: { name: string }; reason: string; message: string; type: string }
  >(Resources.Event, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject.name === name && e.type === 'Warning')
    .map((e) => ({ reason: e.reason, message: e.message }));
}

async function mciCondition(harness: Harness): Promise<Condition> {
  const mci = await harness.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress');
  return JSON.parse(mci!.metadata.annotations![CONDITION_ANNOTATION]!) as Condition;
}

async function startAws(): Promise<Harness> {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  // What these tests annotate (a scheme change among them) is allowed.
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, { tenantPolicy: ALLOW_ALL }),
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    resourceBinding(),
    collectedSlice('member1', ['10.1.0.11']),
  ]);
  return h;
}

describe('with the fake provider', () => {
  it('an invalid spec: the Event and the annotation condition say which field and what to do', async () => {
    h = await startHarness({ inProcess: true, controllers: ['multiclusteringress'] });
    const bad = {
      ...minimalIngress(),
      spec: { rules: [{ http: { paths: [{ path: '/x', pathType: 'Prefix', backend: {} }] } }] },
    };
    await h.seed([ingressClass(), bad as KubeObject]);
    await h.deliver(notify(minimalIngress(), 'added'));
    const [event] = await warnings(h, 'minimal-ingress');
    expect(event?.reason).toBe('InvalidSpec');
    expect(event?.message).toMatch(
      new RegExp(`spec\\.rules\\[0\\]\\.http\\.paths\\[0\\]\\.backend.*\\. Next: fix the field named above`),
    );
    const condition = await mciCondition(h);
    expect(condition).toMatchObject({ status: 'False', reason: 'InvalidSpec', message: event!.message });
  });

  it('a failed create and a failed delete say they are retried and where the full error is', async () => {
    h = await startHarness({ inProcess: true, controllers: ['multiclusteringress'] });
    const fake = h.runtime.provider as FakeProvider;
    await h.seed([ingressClass(), cluster('member1'), serveService(), minimalIngress()]);
    fake.failNext('create');
    await h.deliver(notify(minimalIngress(), 'added'));
    const [failed] = await warnings(h, 'minimal-ingress');
    expect(failed).toMatchObject({ reason: 'SyncLoadBalancerFailed' });
    expect(failed!.message).toMatch(
      /^Failed to ensure load balancer: .*injected failure of create.*\. Next: it is retried automatically with backoff; .*dead-letter queue\.$/,
    );
    expect((await mciCondition(h)).message).toBe(failed!.message);

    await h.deliver(notify(minimalIngress(), 'added'));
    fake.failNext('delete');
    await h.kube.delete(MCI, 'default', 'minimal-ingress');
    await h.deliver(notify(minimalIngress(), 'deleted'));
    const deleteFailed = (await warnings(h, 'minimal-ingress')).find(
      (e) => e.reason === 'DeleteLoadBalancerFailed',
    );
    expect(deleteFailed?.message).toMatch(/^Failed to delete load balancer: .*\. Next: it is retried/);
  });
});

describe('with the AWS provider', () => {
  it('a missing backend Service: create it', async () => {
    const harness = await startAws();
    await harness.seed([minimalIngress()]);
    await harness.deliver(notify(minimalIngress(), 'added'));
    const [event] = await warnings(harness, 'minimal-ingress');
    expect(event).toEqual({
      reason: 'ServiceNotFound',
      message: expect.stringMatching(/Service "serve" does not exist\. Next: create the Service/),
    });
    expect((await mciCondition(harness)).message).toBe(event!.message);
  });

  it('a MultiClusterService keeps the same actionable condition in status.conditions', async () => {
    const harness = await startAws();
    await harness.seed([serveMultiClusterService()]);
    await harness.deliver(notify(serveMultiClusterService(), 'added'));
    const mcs = await harness.kube.get<MultiClusterService>(MCS, 'default', 'serve');
    const condition = mcs!.status!.conditions!.find((c) => c.type === 'LoadBalancerReady');
    expect(condition).toMatchObject({ status: 'False', reason: 'ServiceNotFound' });
    expect(condition!.message).toContain(`Next: ${NEXT_STEPS.ServiceNotFound}.`);
  });

  it('a load balancer name taken by someone else: how to get out of the conflict', async () => {
    const harness = await startAws();
    await harness.seed([serveService(), minimalIngress()]);
    const mci = (await harness.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress'))!;
    const config = await parseAwsConfig(awsConfigFor(sim!));
    const stack = buildIngressStack({ mci, ...(await readIngressInputs(harness.kube, mci)), config });
    const lb = stack.resources.find((r) => r.type === 'AWS::ElasticLoadBalancingV2::LoadBalancer')!;
    sim!.state.createLoadBalancer({
      Name: (lb.spec as { name: string }).name,
      Subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
      Type: 'application',
      Scheme: 'internal',
    });
    await harness.deliver(notify(mci, 'added'));
    const [event] = await warnings(harness, 'minimal-ingress');
    expect(event?.reason).toBe('OwnershipConflict');
    expect(event?.message).toMatch(
      /Next: a resource under the name this object needs .* load-balancer-name annotation .* at each resync\.$/,
    );
  });

  it('a replacement is announced with what changes for clients', async () => {
    const harness = await startAws();
    await harness.seed([serveService(), minimalIngress()]);
    await harness.deliver(notify(minimalIngress(), 'added'));
    const mci = (await harness.kube.get<MultiClusterIngress>(MCI, 'default', 'minimal-ingress'))!;
    mci.metadata.annotations = {
      ...mci.metadata.annotations,
      'alb.ingress.kubernetes.io/scheme': 'internet-facing',
    };
    await harness.kube.update(MCI, mci);
    await harness.deliver(notify(mci, 'modified'));
    const replacing = (await warnings(harness, 'minimal-ingress')).find(
      (e) => e.reason === 'ReplacingLoadBalancer',
    );
    expect(replacing?.message).toMatch(/its DNS name changes.*Next: .*point DNS records and clients/);
  });
});
