/**
 * Two deployments in one AWS account and Region (one ELBv2 simulator) serving two Karmadas (two
 * Kubernetes API stand-ins, each with its own kube-system namespace and so its own instance UID).
 * Whatever one does, reconciles and the orphan sweep included, the other's resources stay exactly
 * as they were: with their own owner IDs, and with the same owner ID given to both by mistake (the
 * second is refused by the claim; and even with the claim gone, the instance tag keeps them apart).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { AWS_IN_PROCESS, registerInProcessAws } from '../support/aws-in-process.js';
import { awsConfigFor, seed } from '../../dev/local/pipeline.js';
import {
  INGRESS_CLASS_CONTROLLER,
  minimalIngress,
  serveMultiClusterService,
  upstreamScenario,
} from '../../dev/local/scenario.js';
import { checkRequiredParams } from '../../infra/serverless/package-checks.js';
import { makeNotification } from '../../lib/forwarder/notify.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources, resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { sweepOrphans, type SweepResult } from '../../lib/maintenance/sweep.js';
import { deploymentIdentity } from '../../lib/providers/aws/instance.js';
import { claimName } from '../../lib/providers/aws/owner-claim.js';
import { CLAIM_TAG, INSTANCE_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { registerBuiltinProviders } from '../../lib/providers/builtin.js';
import { processBatch, type ItemResult } from '../../lib/runtime/process.js';
import { createRuntimeWith, type Runtime } from '../../lib/runtime/runtime.js';

interface Deployment {
  api: KubeApiServer;
  kube: KubeClient;
  runtime: Runtime;
  instanceId: string;
  reconcile(...objects: KubeObject[]): Promise<ItemResult[]>;
  sweep(): Promise<SweepResult>;
}

let sim: Elbv2Simulator;
const deployments: Deployment[] = [];

/** One Karmada and the functions deployed for it, against the shared account. */
async function deploy(ownerId: string): Promise<Deployment> {
  const dir = await mkdtemp(join(tmpdir(), `two-${ownerId}-`));
  const api = await startKubeApiServer({
    inProcess: true,
    namespaces: ['default', 'karmada-system', 'kube-system'],
  });
  const kube = createKubeClient(loadKubeConfig({ file: api.writeKubeconfig(join(dir, 'kubeconfig')) }), {
    transport: api.transport!,
  });
  await seed(kube, upstreamScenario());
  await writeFile(join(dir, 'aws.json'), awsConfigFor(sim, { ownerId }));
  const logger = new MemoryLogger();
  const runtime = await createRuntimeWith(
    {
      // The AWS provider as its factory builds it, its clients reaching the simulator in process.
      provider: AWS_IN_PROCESS,
      providerIngressClass: INGRESS_CLASS_CONTROLLER,
      cloudConfigPath: join(dir, 'aws.json'),
      lockNamespace: 'karmada-system',
      timeoutSeconds: 30,
    },
    kube,
    logger,
  );
  const ns = await kube.get(Resources.Namespace, undefined, 'kube-system');
  const signal = new AbortController().signal;
  const d: Deployment = {
    api,
    kube,
    runtime,
    instanceId: ns?.metadata.uid ?? '',
    reconcile: (...objects) =>
      processBatch(
        runtime,
        objects.map((o, i) => ({
          id: String(i),
          notifications: () => [
            {
              ...makeNotification('added', resourceFor(o.apiVersion!, o.kind!)!, o),
              source: 'native' as const,
            },
          ],
        })),
        { signal, holder: ownerId },
      ),
    sweep: () => sweepOrphans(kube, runtime.provider, { graceSeconds: 0, signal, logger }),
  };
  deployments.push(d);
  return d;
}

/** Gone from Karmada without its cleanup (the finalizer removed by hand): its stack is an orphan. */
async function vanish(d: Deployment, type: ResourceType, name: string): Promise<void> {
  const obj = await d.kube.get<KubeObject>(type, 'default', name);
  if (!obj) return;
  await d.kube.update(type, { ...obj, metadata: { ...obj.metadata, finalizers: [] } });
  await d.kube.delete(type, 'default', name);
}

/** Everything in the account that carries `instanceId`, with every attribute AWS reports. */
function resourcesOf(instanceId: string): unknown {
  const snap = sim.snapshot();
  // The claim (owner-claim.ts) is the deployment's bookkeeping, not a load balancer's resource.
  const arns = new Set(
    snap.tags
      .filter((t) => t.Tags[INSTANCE_TAG] === instanceId && t.Tags[CLAIM_TAG] === undefined)
      .map((t) => t.ResourceArn),
  );
  const tgArns = new Set(
    snap.targetGroups.filter((tg) => arns.has(tg.TargetGroupArn ?? '')).map((tg) => tg.TargetGroupArn),
  );
  return {
    loadBalancers: snap.loadBalancers.filter((lb) => arns.has(lb.LoadBalancerArn ?? '')),
    targetGroups: snap.targetGroups.filter((tg) => arns.has(tg.TargetGroupArn ?? '')),
    listeners: snap.listeners.filter((l) => arns.has(l.ListenerArn ?? '')),
    rules: snap.rules.filter((r) => arns.has(r.RuleArn ?? '')),
    targets: snap.targets.filter((t) => tgArns.has((t as { TargetGroupArn?: string }).TargetGroupArn)),
    tags: snap.tags.filter((t) => arns.has(t.ResourceArn)),
  };
}

const count = (instanceId: string) =>
  (resourcesOf(instanceId) as { loadBalancers: unknown[] }).loadBalancers.length;

beforeAll(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'two';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'two';
  sim = await startElbv2Simulator({ inProcess: true });
  // As each entry point does: the providers it can run are registered before a runtime is made.
  registerBuiltinProviders();
  registerInProcessAws();
});
afterAll(async () => {
  for (const d of deployments) await d.api.close();
  await sim?.close();
});

describe('Two deployments in one account never touch each other', () => {
  it('with their own owner IDs: neither reconcile nor sweep changes the other’s resources', async () => {
    const a = await deploy('karmada-a');
    const b = await deploy('karmada-b');
    expect(a.instanceId).not.toBe(b.instanceId);
    // The same objects, names and namespaces in both Karmadas.
    for (const d of [a, b]) {
      const results = await d.reconcile(minimalIngress(), serveMultiClusterService());
      expect(results.map((r) => r.ok)).toEqual([true, true]);
    }
    expect(count(a.instanceId)).toBe(2);
    expect(count(b.instanceId)).toBe(2);
    const before = structuredClone(resourcesOf(a.instanceId));

    // B's objects vanish: B's sweep deletes B's stacks, and only those.
    await vanish(b, Resources.MultiClusterIngress, 'minimal-ingress');
    await vanish(b, Resources.MultiClusterService, 'serve');
    const swept = await b.sweep();
    expect(swept.deleted.sort()).toEqual(['mci/default/minimal-ingress', 'mcs/default/serve']);
    expect(count(b.instanceId)).toBe(0);
    expect(resourcesOf(a.instanceId)).toEqual(before);

    // An object only B has: A's sweep (its Karmada has no such object) leaves B's stack alone.
    await seed(b.kube, [minimalIngress('only-in-b')]);
    expect((await b.reconcile(minimalIngress('only-in-b')))[0]?.ok).toBe(true);
    const bBefore = structuredClone(resourcesOf(b.instanceId));
    const aSwept = await a.sweep();
    expect(aSwept.deleted).toEqual([]);
    expect(aSwept.owned).toBe(2);
    expect(resourcesOf(b.instanceId)).toEqual(bBefore);
    expect(resourcesOf(a.instanceId)).toEqual(before);
  }, 120_000);

  it('with one owner ID given to both by mistake: the second refuses to run, and cannot touch the first even without the claim', async () => {
    const first = await deploy('karmada-dev');
    expect((await first.reconcile(minimalIngress(), serveMultiClusterService())).map((r) => r.ok)).toEqual([
      true,
      true,
    ]);
    const before = structuredClone(resourcesOf(first.instanceId));
    const claim = sim.snapshot().targetGroups.find((tg) => tg.TargetGroupName === claimName('karmada-dev'));
    expect(claim).toBeDefined();
    const claimTags = sim.snapshot().tags.find((t) => t.ResourceArn === claim?.TargetGroupArn)?.Tags;
    expect(claimTags).toMatchObject({ [OWNER_TAG]: 'karmada-dev', [INSTANCE_TAG]: first.instanceId });

    // The second Karmada: same ownerId, same object names. Its first AWS call is refused.
    const second = await deploy('karmada-dev');
    const [refused] = await second.reconcile(minimalIngress());
    expect(refused?.ok).toBe(false);
    expect(refused?.error).toMatch(/owner ID "karmada-dev" is held by another Karmada/);
    await vanish(second, Resources.MultiClusterIngress, 'minimal-ingress');
    await expect(second.sweep()).rejects.toThrow(/held by another Karmada/);
    expect(resourcesOf(first.instanceId)).toEqual(before);

    // Someone deletes the claim: the second now claims the owner ID, yet the first's resources are
    // not its own (another instance), so neither its reconcile nor its sweep changes them.
    sim.state.deleteTargetGroup({ TargetGroupArn: claim?.TargetGroupArn });
    await seed(second.kube, [minimalIngress()]);
    const [conflict] = await second.reconcile(minimalIngress());
    // Reported on the object and not retried (an ownership conflict is permanent).
    expect(conflict?.results.find((r) => r.controller === 'multiclusteringress')).toMatchObject({
      outcome: 'invalid',
      reason: 'OwnershipConflict',
    });
    expect(conflict?.results.find((r) => r.controller === 'multiclusteringress')?.detail).toMatch(
      /is not owned by this deployment/,
    );
    await vanish(second, Resources.MultiClusterIngress, 'minimal-ingress');
    await vanish(second, Resources.MultiClusterService, 'serve');
    const swept = await second.sweep();
    expect(swept.owned).toBe(0);
    expect(swept.deleted).toEqual([]);
    expect(resourcesOf(first.instanceId)).toEqual(before);
  }, 120_000);
});

describe('A deployment checks what it was deployed for before it runs', () => {
  it('the provider configuration’s ownerId must equal the deployed awsOwnerId', async () => {
    const d = deployments[0]!;
    await expect(deploymentIdentity('karmada-a', d.kube, { ownerId: 'karmada-prod' })).rejects.toThrow(
      /ownerId "karmada-a" is not the deployed awsOwnerId "karmada-prod"/,
    );
    await expect(deploymentIdentity('karmada-a', d.kube, { ownerId: 'karmada-a' })).resolves.toEqual({
      ownerId: 'karmada-a',
      instanceId: d.instanceId,
    });
  });

  it('a deployment refuses a kubeconfig that reaches another Karmada instance', async () => {
    const [a, b] = deployments;
    await expect(
      deploymentIdentity('karmada-a', b!.kube, { ownerId: 'karmada-a', instanceId: a!.instanceId }),
    ).rejects.toThrow(/deployed for the Karmada instance .* but its kubeconfig reaches the instance/);
  });

  it('serverless.yml has no usable default ownerId (nor instance): a deployment must name both', () => {
    const sls = parse(readFileSync(join(import.meta.dirname, '../../serverless.yml'), 'utf8'), {
      customTags: ['!Ref', '!GetAtt', '!Sub'].map((tag) => ({ tag, resolve: (v: string) => v })),
    }) as { params: { default: Record<string, unknown> }; provider: { environment: Record<string, string> } };
    // Empty defaults, so that `osls package` resolves its variables and then stops on its own
    // check, naming the parameter (a missing variable would stop it with pages of internals).
    const named = {
      awsOwnerId: 'karmada-a',
      karmadaInstanceId: 'instance-a',
      forwarderClusterArn: 'arn:aws:eks:eu-west-1:123456789012:cluster/host',
    };
    for (const key of ['awsOwnerId', 'karmadaInstanceId'] as const) {
      expect(sls.params.default[key], key).toBe('');
      expect(() => checkRequiredParams({ ...named, [key]: sls.params.default[key] }), key).toThrow(
        new RegExp(`^${key} is not set`),
      );
    }
    expect(sls.provider.environment.AWS_OWNER_ID).toBe('${param:awsOwnerId}');
    expect(sls.provider.environment.KARMADA_INSTANCE_ID).toBe('${param:karmadaInstanceId}');
  });
});
