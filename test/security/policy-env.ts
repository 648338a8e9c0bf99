/**
 * One deployment as the functions run it (the harness: processBatch, every controller, the AWS
 * provider built from its configuration file) against the ELBv2, EC2 and GA simulators, for the
 * tenant-policy security tests: each starts one with the configuration it is about, reconciles an
 * object and reads what the object was told (its condition, its Events) and what AWS got.
 */
import { startElbv2Simulator, SIM_NETWORK, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { endpointsIn, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { minimalIngress, upstreamScenario } from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

export const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
export const N = (k: string) => `service.beta.kubernetes.io/aws-load-balancer-${k}`;
export const GA = 'multicluster.karmada.io/global-accelerator';
export const PRIVATE = SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId);
export const PUBLIC = SIM_NETWORK.subnets.filter((s) => s.public).map((s) => s.subnetId);
export const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/shop-1111';

export interface PolicyEnv {
  sim: Elbv2Simulator;
  ec2: Ec2Simulator;
  ga: GaSimulator;
  h: Harness;
  /** The mutating ELBv2, EC2 and GA calls since the last reconcile began. */
  mutating(): string[];
  reconcile(obj: KubeObject): Promise<Reconciled>;
  close(): Promise<void>;
}

export interface Reconciled {
  outcome: string | undefined;
  condition: { status?: string; reason?: string; message?: string };
  warnings: Array<{ reason?: string; message?: string }>;
}

const MUTATING =
  /^(Create|Delete|Modify|Set|Add|Remove|Register|Deregister|Update|Authorize|Revoke|Tag|Untag|Associate|Disassociate)/;

/**
 * `config`: the configuration file's fields over the simulators' (`securityGroups: null` leaves
 * the configured groups out, for managed ones). `gaConfigured`: whether the file has
 * `globalAccelerator` (the GA simulator runs either way; without it, the SDK's own endpoint
 * resolution is pointed at the simulator, so nothing leaves the machine whatever the code does).
 */
export async function startPolicyEnv(
  config: Record<string, unknown>,
  o: { gaConfigured?: boolean; objects?: KubeObject[] } = {},
): Promise<PolicyEnv> {
  process.env.AWS_ACCESS_KEY_ID ??= 'tenant';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'tenant';
  const gaCalls: string[] = [];
  const sim = await startElbv2Simulator({ inProcess: true });
  const ec2 = await startEc2Simulator({ inProcess: true, elbv2: sim });
  const ga = await startGaSimulator({
    inProcess: true,
    endpoints: endpointsIn([sim]),
    afterCall: (a) => gaCalls.push(a),
  });
  const counted = (service: string, all: Record<string, { calls: number }>) =>
    Object.entries(all)
      .filter(([action, c]) => MUTATING.test(action) && c.calls > 0)
      .map(([action]) => `${service}:${action}`);
  const before = process.env.AWS_ENDPOINT_URL_GLOBAL_ACCELERATOR;
  process.env.AWS_ENDPOINT_URL_GLOBAL_ACCELERATOR = ga.url;
  const file = JSON.parse(
    awsConfigFor(sim, {}, ec2, undefined, o.gaConfigured === false ? undefined : ga),
  ) as Record<string, unknown>;
  for (const [k, v] of Object.entries(config)) {
    if (v === null) delete file[k];
    // The simulator's endpoint stays: a test sets what the operator would.
    else if (k === 'globalAccelerator') file[k] = { ...(file[k] as object | undefined), ...(v as object) };
    else file[k] = v;
  }
  const h = await startHarness({ inProcess: true, provider: 'aws', providerConfig: JSON.stringify(file) });
  await h.seed([
    ...upstreamScenario().filter((x) => x.kind !== 'MultiClusterIngress' && x.kind !== 'MultiClusterService'),
    ...(o.objects ?? []),
  ]);
  return {
    sim,
    ec2,
    ga,
    h,
    mutating: () => [
      ...counted('elbv2', sim.calls.all()),
      ...counted('ec2', ec2.calls.all()),
      ...gaCalls.filter((a) => MUTATING.test(a)).map((a) => `ga:${a}`),
    ],
    async reconcile(obj) {
      sim.calls.reset();
      ec2.calls.reset();
      gaCalls.length = 0;
      const isMcs = obj.kind === 'MultiClusterService';
      const type = isMcs ? Resources.MultiClusterService : Resources.MultiClusterIngress;
      const existing = await h.kube.get<KubeObject>(type, obj.metadata.namespace, obj.metadata.name ?? '');
      if (existing) {
        await h.kube.update(type, {
          ...existing,
          metadata: { ...existing.metadata, annotations: obj.metadata.annotations },
        } as KubeObject);
      } else await h.seed([obj]);
      const [item] = await h.deliver(notify(obj, existing ? 'modified' : 'added'));
      const stored = await h.kube.get<KubeObject & { status?: { conditions?: Reconciled['condition'][] } }>(
        type,
        obj.metadata.namespace,
        obj.metadata.name ?? '',
      );
      const condition = isMcs
        ? (stored?.status?.conditions?.find((c) => (c as { type?: string }).type === 'LoadBalancerReady') ??
          {})
        : (JSON.parse(
            stored?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '{}',
          ) as Reconciled['condition']);
      const events = (
        await h.kube.list<KubeObject & { reason?: string; message?: string; type?: string }>(
          Resources.Event,
          {
            namespace: obj.metadata.namespace,
          },
        )
      ).items.filter(
        (e) =>
          (e as { involvedObject?: { name?: string } }).involvedObject?.name === obj.metadata.name &&
          e.type === 'Warning',
      );
      const outcome = item?.results.find(
        (r) => r.controller === (isMcs ? 'multiclusterservice' : 'multiclusteringress'),
      )?.outcome;
      return { outcome, condition, warnings: events };
    },
    async close() {
      if (before === undefined) delete process.env.AWS_ENDPOINT_URL_GLOBAL_ACCELERATOR;
      else process.env.AWS_ENDPOINT_URL_GLOBAL_ACCELERATOR = before;
      await h.close();
      await ga.close();
      await ec2.close();
      await sim.close();
    },
  };
}

/** A MultiClusterIngress routing `/` to the scenario's Service, with these annotations. */
export function mci(
  name: string,
  annotations: Record<string, string>,
  extra: Partial<{ host: string; namespace: string }> = {},
): KubeObject {
  const base = minimalIngress(name) as KubeObject & { spec: { rules: Array<{ host?: string }> } };
  const spec = structuredClone(base.spec);
  if (extra.host) spec.rules[0]!.host = extra.host;
  return {
    ...base,
    metadata: { ...base.metadata, namespace: extra.namespace ?? 'default', annotations },
    spec,
  } as KubeObject;
}

/** The scenario's MultiClusterService (its Service `serve`), with these annotations. */
export function mcs(name: string, annotations: Record<string, string>): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterService',
    metadata: { name, namespace: 'default', annotations },
    spec: { types: ['LoadBalancer'] },
  } as KubeObject;
}
