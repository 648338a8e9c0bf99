/**
 * The fake provider: upstream's test double (karmada-io/multicluster-cloud-provider fake/fake.go),
 * registered as `fake`. Create answers ip 1.2.3.4; create-when-exists and update-when-missing
 * fail with upstream's messages; delete is idempotent; every call is logged. Beyond upstream:
 * a load balancer keeps the address it was created with (upstream's update answers 1.2.3.5, so
 * the status changed at the first update of every object, with nothing changed), an update that
 * changes nothing says so (no UpdatedLoadBalancer Event), update persists the new object,
 * failures can be injected, and state can live in a file shared by separate local invocations.
 */
import { objectKey, type KubeObject } from '../../kube/types.js';
import type {
  GetResult,
  LoadBalancer,
  MCSLoadBalancer,
  MultiClusterProvider,
  OwnedStack,
  ProviderContext,
  ProviderFactory,
  StackInventory,
  TargetGroupInventory,
  FingerprintSource,
} from '../../provider/contract.js';
import { parseStackId, stackId, type StackKind } from '../../provider/stack-id.js';
import type {
  IngressLoadBalancerStatus,
  LoadBalancerStatus,
  MultiClusterIngress,
  MultiClusterService,
} from '../../karmada/types.js';
import { serviceRefs } from '../../karmada/refs.js';
import { seededRandom } from '../../util/random.js';
import { semanticEqual } from '../../util/equal.js';
import { sleep } from '../../util/sleep.js';
import { CONDITION_ANNOTATION } from '../../reconcile/conditions.js';
import { parseFakeConfig, type FakeConfig, type FakeMethod } from './config.js';
import { fileStore, memoryStore, type FakeState, type StateStore } from './state.js';

export const FAKE_PROVIDER_NAME = 'fake';
export const CREATED_IP = '1.2.3.4';
export const ALREADY_EXISTS_MESSAGE = 'there already exist a LoadBalancer';
export const NOT_EXISTS_MESSAGE = 'there not exist a LoadBalancer';

export interface FakeCall {
  method: FakeMethod;
  kind: StackKind;
  key: string;
}

export class InjectedFailureError extends Error {
  override name = 'InjectedFailureError';
}

type Table = keyof FakeState;

export class FakeProvider implements MultiClusterProvider {
  readonly calls: FakeCall[] = [];
  private readonly store: StateStore;
  private readonly random: () => number;
  private readonly remainingFailures = new Map<FakeMethod, number>();
  /** Serialises state access inside one process; the file store is for separate processes. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly config: FakeConfig = {}) {
    this.store = config.stateFile ? fileStore(config.stateFile) : memoryStore();
    this.random = seededRandom(config.seed ?? 1);
    for (const [method, rule] of Object.entries(config.failures ?? {})) {
      if (rule?.next) this.remainingFailures.set(method as FakeMethod, rule.next);
    }
  }

  providerName(): string {
    return FAKE_PROVIDER_NAME;
  }
  loadBalancer(): LoadBalancer {
    return this.mci;
  }
  mcsLoadBalancer(): MCSLoadBalancer {
    return this.mcs;
  }
  /** The orphan sweep's view of the state: every record is a stack. */
  inventory(): StackInventory {
    return this.stacks;
  }
  /** A record has no parts that could leak on their own. */
  targetGroupInventory(): TargetGroupInventory | undefined {
    return undefined;
  }
  /** Nothing to save: a resync reconciles every object (it costs no cloud calls here). */
  fingerprints(): FingerprintSource | undefined {
    return undefined;
  }

  /** Upstream's call log, as plain method names. */
  callNames(): string[] {
    return this.calls.map((c) => c.method);
  }
  clearCalls(): void {
    this.calls.length = 0;
  }
  /** Fail the next `count` calls of `method` (tests and local experiments). */
  failNext(method: FakeMethod, count = 1): void {
    this.remainingFailures.set(method, (this.remainingFailures.get(method) ?? 0) + count);
  }
  /** A copy of the current state. */
  snapshot(): Promise<FakeState> {
    return this.store.read();
  }

  private readonly mci = {
    get: (ctx: ProviderContext, o: Readonly<MultiClusterIngress>) =>
      this.get<IngressLoadBalancerStatus>(ctx, 'mci', o),
    ensure: (ctx: ProviderContext, o: Readonly<MultiClusterIngress>) =>
      this.create<IngressLoadBalancerStatus>(ctx, 'mci', o, serviceRefs(o)),
    update: (ctx: ProviderContext, o: Readonly<MultiClusterIngress>) =>
      this.update<IngressLoadBalancerStatus>(ctx, 'mci', o, serviceRefs(o)),
    ensureDeleted: (ctx: ProviderContext, o: Readonly<MultiClusterIngress>) => this.remove(ctx, 'mci', o),
  } satisfies LoadBalancer;

  private readonly mcs = {
    get: (ctx: ProviderContext, o: Readonly<MultiClusterService>) =>
      this.get<LoadBalancerStatus>(ctx, 'mcs', o),
    ensure: (ctx: ProviderContext, o: Readonly<MultiClusterService>) =>
      this.create<LoadBalancerStatus>(ctx, 'mcs', o),
    update: (ctx: ProviderContext, o: Readonly<MultiClusterService>) =>
      this.update<LoadBalancerStatus>(ctx, 'mcs', o),
    ensureDeleted: (ctx: ProviderContext, o: Readonly<MultiClusterService>) => this.remove(ctx, 'mcs', o),
  } satisfies MCSLoadBalancer;

  private async begin(
    ctx: ProviderContext,
    method: FakeMethod,
    kind: Table,
    obj: KubeObject,
  ): Promise<string> {
    const key = objectKey(obj.metadata);
    this.calls.push({ method, kind, key });
    ctx.logger.debug('fake provider call', { method, kind, key });
    if (this.config.requestDelayMs) await sleep(this.config.requestDelayMs, ctx.signal);
    const rule = this.config.failures?.[method];
    if (rule?.object !== undefined && rule.object !== key) return key;
    const left = this.remainingFailures.get(method) ?? 0;
    if (left > 0) {
      this.remainingFailures.set(method, left - 1);
      throw new InjectedFailureError(rule?.message ?? `injected failure of ${method} for ${kind} ${key}`);
    }
    if (rule?.probability && this.random() < rule.probability) {
      throw new InjectedFailureError(rule.message ?? `injected failure of ${method} for ${kind} ${key}`);
    }
    return key;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private readonly stacks = {
    listOwnedStacks: async (_ctx: ProviderContext): Promise<OwnedStack[]> => {
      const state = await this.store.read();
      return (['mci', 'mcs'] as const).flatMap((kind) =>
        Object.values(state[kind]).map((rec) => ({
          kind,
          namespace: rec.namespace,
          name: rec.name,
          stackId: stackId(kind, rec.namespace, rec.name),
          ...(rec.createdAt ? { createdAt: new Date(rec.createdAt) } : {}),
        })),
      );
    },
    deleteOwnedStack: async (_ctx: ProviderContext, id: string): Promise<void> => {
      const stack = parseStackId(id);
      // The fake provider keeps no IngressGroups: a group's stack is never one of its own.
      if (!stack || stack.kind === 'mci-group') throw new Error(`not a fake provider stack id: "${id}"`);
      const kind = stack.kind;
      await this.exclusive(async () => {
        const state = await this.store.read();
        delete state[kind][objectKey(stack)];
        await this.store.write(state);
      });
    },
  } satisfies StackInventory;

  private async get<S>(ctx: ProviderContext, kind: Table, obj: KubeObject): Promise<GetResult<S>> {
    const key = await this.begin(ctx, 'get', kind, obj);
    const state = await this.exclusive(() => this.store.read());
    return state[kind][key] ? { exists: true, status: {} as S } : { exists: false };
  }

  private async create<S>(
    ctx: ProviderContext,
    kind: Table,
    obj: KubeObject,
    services?: string[],
  ): Promise<S> {
    const key = await this.begin(ctx, 'create', kind, obj);
    await this.exclusive(async () => {
      const state = await this.store.read();
      if (state[kind][key]) throw new Error(ALREADY_EXISTS_MESSAGE);
      state[kind][key] = {
        ...record(obj, services),
        address: CREATED_IP,
        createdAt: new Date().toISOString(),
      };
      await this.store.write(state);
    });
    return { ingress: [{ ip: CREATED_IP }] } as S;
  }

  private async update<S>(
    ctx: ProviderContext,
    kind: Table,
    obj: KubeObject,
    services?: string[],
  ): Promise<S> {
    const key = await this.begin(ctx, 'update', kind, obj);
    const address = await this.exclusive(async () => {
      const state = await this.store.read();
      const existing = state[kind][key];
      if (!existing) throw new Error(NOT_EXISTS_MESSAGE);
      if (sameBalancer(existing.object, obj)) ctx.unchanged?.();
      state[kind][key] = {
        ...record(obj, services),
        // A record from before addresses were kept was created with upstream's one address.
        address: existing.address ?? CREATED_IP,
        ...(existing.createdAt ? { createdAt: existing.createdAt } : {}),
      };
      await this.store.write(state);
      return existing.address ?? CREATED_IP;
    });
    return { ingress: [{ ip: address }] } as S;
  }

  private async remove(ctx: ProviderContext, kind: Table, obj: KubeObject): Promise<void> {
    const key = await this.begin(ctx, 'delete', kind, obj);
    await this.exclusive(async () => {
      const state = await this.store.read();
      if (!state[kind][key]) return;
      delete state[kind][key];
      await this.store.write(state);
    });
  }
}

/**
 * Whether the object asks for the load balancer `recorded` was made from: the same spec and
 * annotations, leaving out the condition the lifecycle itself writes there (its write triggers a
 * reconcile that must change nothing).
 */
function sameBalancer(recorded: unknown, obj: KubeObject): boolean {
  const served = (o: unknown) => {
    const { [CONDITION_ANNOTATION]: _condition, ...annotations } =
      (o as KubeObject | undefined)?.metadata?.annotations ?? {};
    return { spec: (o as { spec?: unknown } | undefined)?.spec, annotations };
  };
  return semanticEqual(served(recorded), served(obj));
}

function record(obj: KubeObject, services?: string[]) {
  return {
    name: obj.metadata.name ?? '',
    namespace: obj.metadata.namespace ?? '',
    object: structuredClone(obj),
    ...(services ? { services } : {}),
  };
}

export const createFakeProvider: ProviderFactory = (config) => new FakeProvider(parseFakeConfig(config));
