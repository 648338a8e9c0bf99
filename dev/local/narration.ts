/**
 * What `npm start` says, decided from what it sees: changes of MultiClusterIngresses and
 * MultiClusterServices, Events, and the functions' change-plan log lines. Pure of I/O (the
 * narrator feeds it), so a test can drive it line by line.
 */
import type { KubeObject } from '../../lib/kube/types.js';
import { objectKey } from '../../lib/kube/types.js';
import { canonical } from '../../lib/util/equal.js';

interface Watched extends KubeObject {
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

export interface CoreEvent extends KubeObject {
  involvedObject?: { kind?: string; namespace?: string; name?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
}

/** How a change was seen: in the first list after a (re)start, or live. */
export type Phase = 'LISTED' | 'ADDED' | 'MODIFIED' | 'DELETED';

const SHORT_KIND: Record<string, string> = {
  MultiClusterIngress: 'mci',
  MultiClusterService: 'mcs',
};

/** The functions' `controller` log key, as the narrator names objects. */
const CONTROLLER_KIND: Record<string, string> = {
  multiclusteringress: 'mci',
  multiclusterservice: 'mcs',
};

/** How a deferred, waiting or failed reconcile is told, by its log line's message. */
const RETRIES: Record<string, (error: { name: string; message: string }) => string> = {
  'reconcile waiting, will retry': () => 'waiting on AWS (the Normal Event tells each step)',
  'reconcile deferred, will retry': (e) => `deferred (${e.name}: ${e.message})`,
  'reconcile failed': (e) => `failed (${e.name}: ${e.message})`,
};

/** Warnings the functions record as Events too: the Event's line tells them. */
const TOLD_AS_EVENTS = new Set(['object is invalid, not reconciled', 'provider rejected the object']);

/** Log fields every line carries, or that name who (told otherwise). */
const PLUMBING = new Set([
  'level',
  'message',
  'timestamp',
  'service',
  'requestId',
  'key',
  'controller',
  'sampling_rate',
  'xray_trace_id',
  'function_name',
  'function_memory_size',
  'function_arn',
  'function_request_id',
  'cold_start',
]);

/** Who a log line is about: the object reconciled, else the forwarder or the functions. */
function who(entry: Record<string, unknown>): string {
  if (typeof entry.key === 'string') {
    const controller = typeof entry.controller === 'string' ? entry.controller : 'reconcile';
    return `${CONTROLLER_KIND[controller] ?? controller} ${entry.key}`;
  }
  return entry.service === 'multicluster-forwarder' ? 'forwarder' : 'functions';
}

/** `mci default/minimal-ingress`, `ClusterPropagationPolicy serviceexportpropagation-policy`. */
export function subject(
  kind: string | undefined,
  namespace: string | undefined,
  name: string | undefined,
): string {
  const short = SHORT_KIND[kind ?? ''];
  return `${short ?? kind ?? '?'} ${objectKey({ ...(namespace ? { namespace } : {}), name: name ?? '' })}`;
}

function addresses(obj: Watched | undefined): string {
  return (obj?.status?.loadBalancer?.ingress ?? []).map((i) => i.hostname ?? i.ip).join(', ');
}

/**
 * The short form of a change plan line (`formatPlan`): without the call list, and without the
 * fingerprint bookkeeping every applied plan ends with.
 */
export function shortPlan(operations: readonly string[]): string[] {
  return operations
    .filter((line) => !/^~ modify LoadBalancer: fingerprint /.test(line))
    .map((line) => line.replace(/ \[[A-Za-z, ]*\]$/, ''));
}

/** A stack ID (`mci/default/x`) as the narrator names objects (`mci default/x`). */
export function stackSubject(stack: string): string {
  const [kind, namespace, name] = stack.split('/');
  return `${kind ?? '?'} ${namespace ?? ''}/${name ?? ''}`;
}

export interface NarrationOptions {
  /**
   * How long "deleted from the API server" waits for the object's DeletedLoadBalancer Event: the
   * function removes the finalizer (the object goes) before it records the Event, and the two
   * arrive on different watches.
   */
  holdDeletedMs?: number;
}

export class Narration {
  private readonly seen = new Map<string, Watched>();
  private readonly heldDeletions = new Map<string, { line: string; timer: NodeJS.Timeout }>();
  private readonly holdMs: number;

  constructor(
    private readonly say: (line: string) => void,
    options: NarrationOptions = {},
  ) {
    this.holdMs = options.holdDeletedMs ?? 1500;
  }

  object(phase: Phase, raw: KubeObject): void {
    const obj = raw as Watched;
    const key = subject(obj.kind, obj.metadata.namespace, obj.metadata.name);
    const before = this.seen.get(key);
    if (phase === 'DELETED') {
      this.seen.delete(key);
      this.holdDeletion(key, `${key}: deleted from the API server`);
      return;
    }
    this.seen.set(key, obj);
    if (phase === 'LISTED') {
      // Kept from the last run: state, not news.
      const addrs = addresses(obj);
      const deleting = obj.metadata.deletionTimestamp ? ', being deleted' : '';
      this.say(`${key}: in the API server${addrs ? ` (status.loadBalancer = ${addrs})` : ''}${deleting}`);
      return;
    }
    if (!before) this.say(`${key}: ${phase === 'ADDED' ? 'seen' : 'changed'}`);
    const fin = (o?: KubeObject) => o?.metadata.finalizers ?? [];
    for (const f of fin(obj)) if (!fin(before).includes(f)) this.say(`${key}: finalizer ${f} added`);
    for (const f of fin(before)) if (!fin(obj).includes(f)) this.say(`${key}: finalizer ${f} removed`);
    if (obj.metadata.deletionTimestamp && !before?.metadata.deletionTimestamp)
      this.say(`${key}: deletion requested`);
    if (canonical(obj.status?.loadBalancer) !== canonical(before?.status?.loadBalancer)) {
      this.say(`${key}: status.loadBalancer = ${addresses(obj) || '(empty)'}`);
    }
  }

  /** A new or repeated Event (never one listed at start: those were told in an earlier run). */
  event(e: CoreEvent): void {
    const o = e.involvedObject ?? {};
    const key = subject(o.kind, o.namespace, o.name);
    const times = (e.count ?? 1) > 1 ? ` (x${e.count})` : '';
    this.say(`event on ${key}: ${e.type} ${e.reason}: ${e.message}${times}`);
    if (e.reason === 'DeletedLoadBalancer') this.releaseDeletion(key);
  }

  /** A structured log line of the functions; true when it was told (and need not be printed). */
  log(entry: Record<string, unknown>): boolean {
    if (this.retryLine(entry)) return true;
    const stack = typeof entry.stack === 'string' ? entry.stack : undefined;
    if (!stack) return false;
    const key = stackSubject(stack);
    // Over several Regions each Region's stack has its plan: told under the Region's name.
    const plan = typeof entry.region === 'string' ? `plan in ${entry.region}` : 'plan';
    if (entry.message === 'change plan' && Array.isArray(entry.operations)) {
      this.tellPlan(`${key}: ${plan}`, shortPlan(entry.operations.map(String)), true);
      return true;
    }
    if (entry.message === 'accelerator change plan' && Array.isArray(entry.operations)) {
      this.tellPlan(`${key}: Global Accelerator plan`, shortPlan(entry.operations.map(String)), false);
      return true;
    }
    if (entry.message === 'targets plan' && typeof entry.groups === 'number') {
      // The targets-only path (its calls are the targets' alone): no operation list to tell.
      const groups = `${entry.groups} target group${entry.groups === 1 ? '' : 's'}`;
      this.say(`${key}: ${plan}: the targets of ${groups} change (the load balancer is as it was)`);
      return true;
    }
    if (entry.message === 'stack unchanged') {
      this.say(`${key}: ${plan}: no changes (fingerprint matches)`);
      return true;
    }
    return false;
  }

  /**
   * A reconcile waiting on AWS (an accelerator still deploying: the Normal Event beside it tells
   * each step), deferred (RetryLaterError: a lock held, throttling) or failed, and the
   * forwarder's answer to it, a delivery again after its backoff: told in words (the Warning
   * Event beside a failure says why).
   */
  private retryLine(entry: Record<string, unknown>): boolean {
    const error = (entry.error ?? {}) as { name?: unknown; message?: unknown };
    const why = RETRIES[String(entry.message)];
    if (why && typeof entry.key === 'string') {
      const named = { name: String(error.name ?? 'Error'), message: String(error.message ?? '') };
      this.say(`${who(entry)}: ${why(named)}: retried at the next delivery`);
      return true;
    }
    if (
      entry.message === 'sink delivery failed; will retry' &&
      typeof error.message === 'string' &&
      / HTTP 500$/.test(error.message) &&
      typeof entry.retryInMs === 'number'
    ) {
      this.say(
        `forwarder: the function answered 500 (deferred or failed): delivering again in ${entry.retryInMs} ms`,
      );
      return true;
    }
    return false;
  }

  /**
   * Any other warning or error of the functions or the forwarder, in one line of words instead of
   * its JSON (that is for --verbose): who, what, the fields that say which, and the error. A
   * warning that the functions also record as an Event (a model warning, an invalid object) is
   * left to the Event's line.
   */
  logLine(entry: Record<string, unknown>): void {
    if (typeof entry.reason === 'string' || TOLD_AS_EVENTS.has(String(entry.message))) return;
    const level = String(entry.level).toLowerCase();
    const fields = Object.entries(entry)
      .filter(([k, v]) => !PLUMBING.has(k) && ['string', 'number', 'boolean'].includes(typeof v))
      .map(([k, v]) => `${k} ${String(v)}`);
    const error = entry.error as { message?: unknown } | undefined;
    const cause = typeof error?.message === 'string' ? `: ${error.message}` : '';
    this.say(
      `${who(entry)}: ${level === 'warn' ? 'warning' : level}: ${String(entry.message)}${
        fields.length > 0 ? ` (${fields.join(', ')})` : ''
      }${cause}`,
    );
  }

  private tellPlan(head: string, ops: readonly string[], sayNone: boolean): void {
    if (ops.length === 0) {
      if (sayNone) this.say(`${head}: no changes`);
      return;
    }
    this.say(`${head} (${ops.length} change${ops.length === 1 ? '' : 's'}):`);
    for (const op of ops) this.say(`    ${op}`);
  }

  /** Prints what is still held. */
  flush(): void {
    for (const key of [...this.heldDeletions.keys()]) this.releaseDeletion(key);
  }

  private holdDeletion(key: string, line: string): void {
    this.releaseDeletion(key);
    const timer = setTimeout(() => this.releaseDeletion(key), this.holdMs);
    timer.unref();
    this.heldDeletions.set(key, { line, timer });
  }

  private releaseDeletion(key: string): void {
    const held = this.heldDeletions.get(key);
    if (!held) return;
    clearTimeout(held.timer);
    this.heldDeletions.delete(key);
    this.say(held.line);
  }
}
