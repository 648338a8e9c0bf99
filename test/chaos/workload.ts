/**
 * The seeded workload: what a busy team does to MultiClusterIngresses and MultiClusterServices
 * (create, edit rules/paths/ports/backends/annotations, switch ingress class, delete, delete and
 * recreate under the same name, now and then a delete after stripping the finalizers by hand, join,
 * leave and move between IngressGroups, move traffic between clusters with cluster weights) while Karmada changes what they depend on (collected endpoints,
 * TrafficControl on member clusters). The generator keeps its own picture of each object and
 * applies one operation at a time (a recreation waits for the old object's finalizers), so the
 * operation sequence depends on the seed only, never on timing.
 */
import type { KubeClient } from '../../lib/kube/client.js';
import { isAlreadyExists, isNotFound } from '../../lib/kube/client.js';
import { retryOnConflict } from '../../lib/kube/conflict.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { Rng } from './prng.js';
import { SIM_NETWORK } from '../../dev/elbv2-sim/index.js';
import { GA_KEYS } from '../../lib/providers/aws/accelerator/keys.js';
import {
  CLUSTERS,
  collectedSlice,
  FOREIGN_CLASS,
  ingressName,
  NAMESPACE,
  OUR_CLASS,
  randomEndpoints,
  serviceName,
  sliceName,
} from './world.js';

export type OpKind =
  | 'create'
  | 'changeRules'
  | 'changePort'
  | 'changeBackend'
  | 'changeAnnotations'
  | 'changeWeights'
  | 'changeClass'
  | 'changeMcsType'
  | 'changeMcsPorts'
  | 'changeEndpoints'
  | 'toggleTrafficControl'
  | 'delete'
  | 'forceDelete'
  | 'recreate'
  | 'joinGroup'
  | 'leaveGroup'
  | 'moveGroup';

export interface Op {
  n: number;
  kind: OpKind;
  /** `mci/<name>`, `mcs/<name>`, `slice/<cluster>/<svc>` or `cluster/<name>`. */
  target: string;
  /** What the object became, where it matters to a reader of a failure (class, types). */
  detail?: string;
}

interface Path {
  path: string;
  pathType: 'Prefix' | 'Exact';
  backend: { service: { name: string; port: { name: string } | { number: number } } };
}
interface IngressDesired {
  rules: Array<{ host?: string; paths: Path[] }>;
  defaultBackend?: Path['backend'];
  ingressClassName?: string;
  annotations: Record<string, string>;
}
interface ServiceDesired {
  types: Array<'LoadBalancer' | 'CrossCluster'>;
  ports: Array<{ port: number }>;
}
interface Slot<D> {
  kind: 'mci' | 'mcs';
  name: string;
  /** Whether the workload means the object to exist: the only state its choices depend on. */
  exists: boolean;
  /**
   * Whether the last creation really happened. A creation that gave up waiting for the previous
   * object to go (timing-dependent) leaves this false, without changing what the workload chooses
   * next, so the operation sequence stays a function of the seed alone.
   */
  materialized: boolean;
  desired: D;
}

const PORTS = [{ name: 'http' }, { number: 80 }, { number: 8081 }, { name: 'admin' }] as const;
const ALB = 'alb.ingress.kubernetes.io/';
const GROUP_NAME = `${ALB}group.name`;
/** The VPC's default group: what a stack names when it does not get a managed one of its own. */
export const NAMED_SECURITY_GROUP = SIM_NETWORK.defaultSecurityGroupId;
const MCS_SECURITY_GROUPS = 'service.beta.kubernetes.io/aws-load-balancer-security-groups';

/**
 * Whether a stack names its security groups (else it gets a managed one): decided by the object's
 * name (its last digit even) or its IngressGroup (g1 names, g2 does not, so members agree), not by
 * the dice, so that a seed's operations stay what they were before security groups joined the run.
 */
export function namesSecurityGroups(name: string, group?: string): boolean {
  if (group !== undefined) return group === GROUPS[0];
  return Number(name.slice(-1)) % 2 === 0;
}
/**
 * Whether a stack asks for Global Accelerator in front (GA_KEYS.enabled "true"): decided by name
 * (its last digit 1, 4 or 7) or IngressGroup (g2 does, g1 does not, so members agree), not by the
 * dice, as the security groups are, so a seed's operations stay what they were before GA joined.
 */
export function wantsAccelerator(name: string, group?: string): boolean {
  if (group !== undefined) return group === GROUPS[1];
  return Number(name.slice(-1)) % 3 === 1;
}
const GROUP_ORDER = `${ALB}group.order`;
/**
 * The IngressGroups MCIs join, leave and move between. Members never conflict (no tag with two
 * values, no second default backend): a conflict is a reported refusal, covered by the
 * integration test; here every member must be on its group's ALB.
 */
export const GROUPS = ['g1', 'g2'] as const;
/** Annotations the AWS provider reads on a MultiClusterIngress, with values it accepts. */
const ANNOTATION_CHOICES: Record<string, string[]> = {
  [`${ALB}healthcheck-path`]: ['/healthz', '/ready'],
  [`${ALB}success-codes`]: ['200', '200-399'],
  // One value per tag key: members of one group merge their tags.
  [`${ALB}tags`]: ['team=a', 'team=a,env=chaos'],
  [`${ALB}healthcheck-interval-seconds`]: ['10', '30'],
  // The web ACL `npm start`'s WAFv2 simulator has (dev/local/pipeline.ts): associated, and
  // disassociated when the annotation goes. One value: group members never conflict on it.
  [`${ALB}wafv2-acl-name`]: ['local-web-acl'],
};

/** Per-cluster mode (README, "Per-cluster traffic control"): weights over the members, never all 0. */
export const CLUSTER_WEIGHTS = 'multicluster.karmada.io/cluster-weights';
const WEIGHT_CHOICES = [
  'member1=95,*=5',
  '*=1',
  'member1=0,*=1',
  'member2=3,member3=1',
  'member1=1,member2=1,member3=0',
];
const TG_ATTRIBUTES = `${ALB}target-group-attributes`;

export interface WorkloadStats {
  operations: number;
  byKind: Partial<Record<OpKind, number>>;
  /** 409s the workload's own writes met (injected conflicts, or a reconcile writing at the same time). */
  conflictRetries: number;
  /** Recreations that found the old object still terminating after the wait. */
  recreateTimeouts: number;
}

function describeSlot(slot: Slot<IngressDesired> | Slot<ServiceDesired>): string {
  if (slot.kind === 'mcs') return (slot.desired as ServiceDesired).types.join('+');
  return `class ${(slot.desired as IngressDesired).ingressClassName ?? '(default)'}`;
}

export class Workload {
  readonly ingresses: Array<Slot<IngressDesired>>;
  readonly services: Array<Slot<ServiceDesired>>;
  private readonly trafficControl = new Map<string, boolean>(CLUSTERS.map((c) => [c, false]));
  readonly stats: WorkloadStats = { operations: 0, byKind: {}, conflictRetries: 0, recreateTimeouts: 0 };
  readonly log: Op[] = [];

  constructor(
    private readonly rng: Rng,
    private readonly kube: KubeClient,
    private readonly sizes: { ingresses: number; services: number; recreateWaitMs: number },
  ) {
    this.services = Array.from({ length: sizes.services }, (_, i) => ({
      kind: 'mcs' as const,
      name: serviceName(i),
      exists: false,
      materialized: false,
      desired: this.randomService(),
    }));
    this.ingresses = Array.from({ length: sizes.ingresses }, (_, i) => ({
      kind: 'mci' as const,
      name: ingressName(i),
      exists: false,
      materialized: false,
      desired: this.randomIngress(),
    }));
  }

  /** Picks and applies the next operation. */
  async step(): Promise<Op> {
    const op = this.choose();
    this.stats.operations++;
    this.stats.byKind[op.kind] = (this.stats.byKind[op.kind] ?? 0) + 1;
    this.log.push(op);
    await op.apply();
    return { n: op.n, kind: op.kind, target: op.target, ...(op.detail ? { detail: op.detail } : {}) };
  }

  /** Names that must exist / must be gone at the end, for the invariant checker. */
  expectation(): { present: Set<string>; absent: Set<string> } {
    const present = new Set<string>();
    const absent = new Set<string>();
    for (const s of [...this.ingresses, ...this.services])
      if (!s.exists) absent.add(`${s.kind}/${s.name}`);
      else if (s.materialized) present.add(`${s.kind}/${s.name}`);
    return { present, absent };
  }

  // ---- choosing ----

  private choose(): Op & { apply: () => Promise<void> } {
    const n = this.stats.operations + 1;
    const rng = this.rng;
    for (;;) {
      const kind = rng.weighted<OpKind>({
        create: 14,
        changeRules: 12,
        changePort: 5,
        changeBackend: 6,
        changeAnnotations: 6,
        changeWeights: 5,
        changeClass: 5,
        changeMcsType: 4,
        changeMcsPorts: 3,
        changeEndpoints: 14,
        toggleTrafficControl: 4,
        delete: 7,
        forceDelete: 1,
        recreate: 5,
        joinGroup: 4,
        leaveGroup: 2,
        moveGroup: 2,
      });
      const op = this.opOf(kind, n);
      if (op) return op;
    }
  }

  private opOf(kind: OpKind, n: number): (Op & { apply: () => Promise<void> }) | undefined {
    const rng = this.rng;
    const idle = <D>(slots: Array<Slot<D>>, exists: boolean) => slots.filter((s) => s.exists === exists);
    const anySlot = (exists: boolean) => {
      const mcs = idle(this.services, exists);
      const mci = idle(this.ingresses, exists);
      // MCIs are the bulk of the work; MCSs still get a fair share of lifecycle operations.
      const pool = rng.chance(0.25) && mcs.length ? mcs : mci.length ? mci : mcs;
      return pool.length
        ? (rng.pick(pool as Array<Slot<unknown>>) as Slot<IngressDesired> | Slot<ServiceDesired>)
        : undefined;
    };
    const op = (
      target: string,
      apply: () => Promise<void>,
      slot?: Slot<IngressDesired> | Slot<ServiceDesired>,
    ) => ({
      n,
      kind,
      target,
      ...(slot ? { detail: describeSlot(slot) } : {}),
      apply,
    });
    switch (kind) {
      case 'create': {
        const slot = anySlot(false);
        if (!slot) return undefined;
        slot.desired = slot.kind === 'mci' ? this.randomIngress() : this.randomService();
        slot.exists = true;
        return op(`${slot.kind}/${slot.name}`, () => this.create(slot), slot);
      }
      case 'delete': {
        const slot = anySlot(true);
        if (!slot) return undefined;
        slot.exists = false;
        return op(`${slot.kind}/${slot.name}`, () => this.remove(slot));
      }
      case 'forceDelete': {
        // Someone strips the finalizers by hand and deletes: the stack is orphaned, the sweep's job.
        const slot = anySlot(true);
        if (!slot) return undefined;
        slot.exists = false;
        return op(`${slot.kind}/${slot.name}`, async () => {
          await this.mutate(this.typeOf(slot), slot.name, (o) => ({
            ...o,
            metadata: { ...o.metadata, finalizers: [] },
          }));
          await this.remove(slot);
        });
      }
      case 'recreate': {
        const slot = anySlot(true);
        if (!slot) return undefined;
        slot.desired = slot.kind === 'mci' ? this.randomIngress() : this.randomService();
        return op(
          `${slot.kind}/${slot.name}`,
          async () => {
            await this.remove(slot);
            await this.createWhenGone(slot);
          },
          slot,
        );
      }
      case 'changeMcsType':
      case 'changeMcsPorts': {
        const slots = idle(this.services, true);
        if (!slots.length) return undefined;
        const slot = rng.pick(slots);
        if (kind === 'changeMcsType') slot.desired.types = this.randomTypes();
        else slot.desired.ports = this.randomServicePorts();
        return op(`mcs/${slot.name}`, () => this.writeService(slot), slot);
      }
      case 'changeEndpoints': {
        if (!this.services.length) return undefined;
        const svcIndex = rng.int(0, this.services.length - 1);
        const clusterName = rng.pick(CLUSTERS);
        const endpoints = randomEndpoints(rng, clusterName, svcIndex);
        const svc = serviceName(svcIndex);
        return op(`slice/${clusterName}/${svc}`, () =>
          this.mutate(Resources.EndpointSlice, sliceName(clusterName, svc), (o) => ({
            ...o,
            endpoints: (collectedSlice(clusterName, svc, endpoints) as KubeObject & { endpoints: unknown })
              .endpoints,
          })),
        );
      }
      case 'toggleTrafficControl': {
        const clusterName = rng.pick(CLUSTERS);
        const on = !this.trafficControl.get(clusterName);
        this.trafficControl.set(clusterName, on);
        return op(`cluster/${clusterName}`, () =>
          this.mutate(
            Resources.Cluster,
            clusterName,
            (o) => ({ ...o, status: on ? { remedyActions: ['TrafficControl'] } : {} }) as KubeObject,
            'status',
          ),
        );
      }
      default: {
        const slots = idle(this.ingresses, true);
        if (!slots.length) return undefined;
        const slot = rng.pick(slots);
        if (!this.editIngress(kind, slot.desired)) return undefined;
        return op(
          `mci/${slot.name}`,
          () => this.writeIngress(slot),
          kind === 'changeClass' ? slot : undefined,
        );
      }
    }
  }

  /** Changes `d` in place the way `kind` says; false when this ingress offers nothing to change. */
  private editIngress(kind: OpKind, d: IngressDesired): boolean {
    const rng = this.rng;
    const paths = d.rules.flatMap((r) => r.paths);
    switch (kind) {
      case 'changeRules': {
        const rule = rng.pick(d.rules);
        const what = rng.weighted({ add: 3, remove: 2, reorder: 2, repath: 2, retype: 1, host: 1 });
        if (what === 'add' || rule.paths.length === 0) rule.paths.push(this.randomPath(rule.paths));
        else if (what === 'remove' && rule.paths.length > 1)
          rule.paths.splice(rng.int(0, rule.paths.length - 1), 1);
        else if (what === 'reorder') rule.paths = rng.shuffle(rule.paths);
        else if (what === 'repath') {
          const p = rng.pick(rule.paths);
          const fresh = this.randomPath(rule.paths);
          p.path = fresh.path;
        } else if (what === 'retype') {
          const p = rng.pick(rule.paths);
          p.pathType = p.pathType === 'Prefix' ? 'Exact' : 'Prefix';
        } else {
          if (rule.host) delete rule.host;
          else rule.host = `h${rng.int(1, 4)}.example.com`;
        }
        return true;
      }
      case 'changePort': {
        if (!paths.length) return false;
        rng.pick(paths).backend.service.port = { ...rng.pick(PORTS) };
        return true;
      }
      case 'changeBackend': {
        if (rng.chance(0.25) && d.annotations[GROUP_NAME] === undefined) {
          if (d.defaultBackend) delete d.defaultBackend;
          else d.defaultBackend = this.randomBackend();
          return true;
        }
        if (!paths.length) return false;
        rng.pick(paths).backend = this.randomBackend();
        return true;
      }
      case 'changeAnnotations': {
        const key = rng.pick(Object.keys(ANNOTATION_CHOICES));
        if (d.annotations[key] !== undefined && rng.chance(0.4)) delete d.annotations[key];
        else d.annotations[key] = rng.pick(ANNOTATION_CHOICES[key] ?? ['']);
        return true;
      }
      case 'changeWeights': {
        // Into, within and out of per-cluster mode: weights moved, clusters drained and restored.
        const current = d.annotations[CLUSTER_WEIGHTS];
        if (current !== undefined && rng.chance(0.3)) {
          delete d.annotations[CLUSTER_WEIGHTS];
          delete d.annotations[TG_ATTRIBUTES];
        } else {
          d.annotations[CLUSTER_WEIGHTS] = rng.pick(WEIGHT_CHOICES.filter((w) => w !== current));
          // A drain with no delay ends in the deploy that starts it: the end state does not
          // depend on how long the run took (the e2e tests cover a drain that waits).
          d.annotations[TG_ATTRIBUTES] = 'deregistration_delay.timeout_seconds=0';
        }
        return true;
      }
      case 'joinGroup':
      case 'moveGroup': {
        const current = d.annotations[GROUP_NAME];
        if ((kind === 'joinGroup') !== (current === undefined)) return false;
        d.annotations[GROUP_NAME] = rng.pick(GROUPS.filter((g) => g !== current));
        if (rng.chance(0.5)) d.annotations[GROUP_ORDER] = String(rng.int(-3, 3));
        else delete d.annotations[GROUP_ORDER];
        // A group has at most one default backend: members here have none.
        delete d.defaultBackend;
        return true;
      }
      case 'leaveGroup': {
        if (d.annotations[GROUP_NAME] === undefined) return false;
        delete d.annotations[GROUP_NAME];
        delete d.annotations[GROUP_ORDER];
        return true;
      }
      case 'changeClass': {
        const options = [undefined, OUR_CLASS, FOREIGN_CLASS].filter((c) => c !== d.ingressClassName);
        const next = rng.pick(options);
        if (next === undefined) delete d.ingressClassName;
        else d.ingressClassName = next;
        return true;
      }
      default:
        return false;
    }
  }

  // ---- random objects ----

  private randomBackend(): Path['backend'] {
    const rng = this.rng;
    return {
      service: { name: serviceName(rng.int(0, this.services.length - 1)), port: { ...rng.pick(PORTS) } },
    };
  }

  private randomPath(existing: Path[]): Path {
    const rng = this.rng;
    const used = new Set(existing.map((p) => p.path));
    let path = `/p${rng.int(1, 40)}`;
    while (used.has(path)) path = `/p${rng.int(1, 400)}`;
    return { path, pathType: rng.chance(0.7) ? 'Prefix' : 'Exact', backend: this.randomBackend() };
  }

  private randomIngress(): IngressDesired {
    const rng = this.rng;
    const rules: IngressDesired['rules'] = [];
    for (let r = rng.int(1, 2); r > 0; r--) {
      const paths: Path[] = [];
      for (let p = rng.int(1, 3); p > 0; p--) paths.push(this.randomPath(paths));
      rules.push(rng.chance(0.5) ? { host: `h${rng.int(1, 4)}.example.com`, paths } : { paths });
    }
    const annotations: Record<string, string> = {};
    for (const [k, values] of Object.entries(ANNOTATION_CHOICES))
      if (rng.chance(0.2)) annotations[k] = rng.pick(values);
    const cls = rng.weighted({ default: 6, ours: 3, foreign: 1 });
    const grouped = rng.chance(0.25);
    if (grouped) annotations[GROUP_NAME] = rng.pick(GROUPS);
    return {
      rules,
      ...(!grouped && rng.chance(0.3) ? { defaultBackend: this.randomBackend() } : {}),
      ...(cls === 'ours'
        ? { ingressClassName: OUR_CLASS }
        : cls === 'foreign'
          ? { ingressClassName: FOREIGN_CLASS }
          : {}),
      annotations,
    };
  }

  /** One type only: Karmada's webhook refuses an MCS with both (that case belongs to the bad-input corpus). */
  private randomTypes(): ServiceDesired['types'] {
    return this.rng.chance(0.7) ? ['LoadBalancer'] : ['CrossCluster'];
  }

  private randomServicePorts(): ServiceDesired['ports'] {
    return this.rng.pick([[{ port: 80 }], [{ port: 8081 }], [{ port: 80 }, { port: 8081 }], []]);
  }

  private randomService(): ServiceDesired {
    return { types: this.randomTypes(), ports: this.randomServicePorts() };
  }

  // ---- writing ----

  private ingressObject(slot: Slot<IngressDesired>): KubeObject {
    const { annotations, ingressClassName, rules, defaultBackend } = structuredClone(slot.desired);
    if (namesSecurityGroups(slot.name, annotations[GROUP_NAME]))
      annotations[`${ALB}security-groups`] = NAMED_SECURITY_GROUP;
    if (wantsAccelerator(slot.name, annotations[GROUP_NAME])) annotations[GA_KEYS.enabled] = 'true';
    return {
      apiVersion: Resources.MultiClusterIngress.apiVersion,
      kind: Resources.MultiClusterIngress.kind,
      metadata: { name: slot.name, namespace: NAMESPACE, annotations },
      spec: {
        ...(ingressClassName ? { ingressClassName } : {}),
        ...(defaultBackend ? { defaultBackend } : {}),
        rules: rules.map((r) => ({ ...(r.host ? { host: r.host } : {}), http: { paths: r.paths } })),
      },
    } as KubeObject;
  }

  private serviceObject(slot: Slot<ServiceDesired>): KubeObject {
    const { types, ports } = structuredClone(slot.desired);
    return {
      apiVersion: Resources.MultiClusterService.apiVersion,
      kind: Resources.MultiClusterService.kind,
      metadata: {
        name: slot.name,
        namespace: NAMESPACE,
        annotations: {
          ...(namesSecurityGroups(slot.name) ? { [MCS_SECURITY_GROUPS]: NAMED_SECURITY_GROUP } : {}),
          ...(wantsAccelerator(slot.name) ? { [GA_KEYS.enabled]: 'true' } : {}),
        },
      },
      spec: { types, ...(ports.length ? { ports } : {}) },
    } as KubeObject;
  }

  private typeOf(slot: Slot<unknown>): ResourceType {
    return slot.kind === 'mci' ? Resources.MultiClusterIngress : Resources.MultiClusterService;
  }

  private objectOf(slot: Slot<IngressDesired> | Slot<ServiceDesired>): KubeObject {
    return slot.kind === 'mci'
      ? this.ingressObject(slot as Slot<IngressDesired>)
      : this.serviceObject(slot as Slot<ServiceDesired>);
  }

  /** Creates; if the previous object of that name is still terminating, waits for it to go first. */
  private async create(slot: Slot<IngressDesired> | Slot<ServiceDesired>): Promise<void> {
    try {
      await this.kube.create(this.typeOf(slot), this.objectOf(slot));
      slot.materialized = true;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      await this.createWhenGone(slot);
    }
  }

  private async remove(slot: Slot<unknown>): Promise<void> {
    await this.kube.delete(this.typeOf(slot), NAMESPACE, slot.name);
  }

  /** Waits until the old object is really gone (its finalizers done), then creates anew. */
  private async createWhenGone(slot: Slot<IngressDesired> | Slot<ServiceDesired>): Promise<void> {
    const type = this.typeOf(slot);
    // A lost notification of the deletion leaves the object terminating until the final resync:
    // give up on the recreation then, as a person would, rather than stall the whole workload.
    const deadline = Date.now() + this.sizes.recreateWaitMs;
    while (await this.kube.get(type, NAMESPACE, slot.name)) {
      if (Date.now() > deadline) {
        this.stats.recreateTimeouts++;
        slot.materialized = false;
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await this.kube.create(type, this.objectOf(slot));
    slot.materialized = true;
  }

  private writeIngress(slot: Slot<IngressDesired>): Promise<void> {
    const desired = this.ingressObject(slot);
    return this.mutate(Resources.MultiClusterIngress, slot.name, (o) => {
      // Keep annotations we do not manage (the controller's condition annotation).
      const kept = Object.fromEntries(
        Object.entries(o.metadata.annotations ?? {}).filter(
          ([k]) => !k.startsWith(ALB) && !k.startsWith(CLUSTER_WEIGHTS) && !k.startsWith(GA_KEYS.enabled),
        ),
      );
      return {
        ...o,
        metadata: { ...o.metadata, annotations: { ...kept, ...desired.metadata.annotations } },
        spec: (desired as KubeObject & { spec: unknown }).spec,
      } as KubeObject;
    });
  }

  private writeService(slot: Slot<ServiceDesired>): Promise<void> {
    const desired = this.serviceObject(slot) as KubeObject & { spec: unknown };
    return this.mutate(
      Resources.MultiClusterService,
      slot.name,
      (o) => ({ ...o, spec: desired.spec }) as KubeObject,
    );
  }

  /** get → change → update, again on 409, as `kubectl edit` would be retried by a person. */
  private async mutate(
    type: ResourceType,
    name: string,
    change: (o: KubeObject) => KubeObject,
    target: 'update' | 'status' = 'update',
  ): Promise<void> {
    const namespace = type.namespaced ? NAMESPACE : undefined;
    let first = true;
    await retryOnConflict(
      async () => {
        if (!first) this.stats.conflictRetries++;
        first = false;
        const current = await this.kube.get(type, namespace, name);
        if (!current) return;
        const next = change(current);
        try {
          await (target === 'update' ? this.kube.update(type, next) : this.kube.updateStatus(type, next));
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      },
      30,
      5,
    );
  }
}
