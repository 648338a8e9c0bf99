import { objectKeyOf, type KObject, type StoredEvent, type WatchEventType } from './types.js';

export type StoreListener = (event: StoredEvent) => void;

export interface StoreSnapshot {
  resourceVersion: number;
  resources: Record<string, KObject[]>;
}

/**
 * Objects of every resource type plus the event history, versioned by one global counter the way
 * etcd revisions are. History older than `compactedRevision` is gone: watches and continue tokens
 * from before it get 410.
 */
export class ObjectStore {
  private rv = 0;
  private compactedRv = 0;
  private history: StoredEvent[] = [];
  private readonly data = new Map<string, Map<string, KObject>>();
  private readonly listeners = new Set<StoreListener>();
  private readonly changeHooks = new Set<() => void>();

  constructor(private readonly historyLimit = 10_000) {}

  get revision(): number {
    return this.rv;
  }

  get compactedRevision(): number {
    return this.compactedRv;
  }

  get(resource: string, namespace: string | undefined, name: string): KObject | undefined {
    const obj = this.data.get(resource)?.get(objectKeyOf({ namespace, name }));
    return obj && structuredClone(obj);
  }

  /** In etcd key order (namespace, then name), as kube-apiserver lists. */
  list(resource: string, namespace?: string): KObject[] {
    const all = [...(this.data.get(resource)?.entries() ?? [])]
      .filter(([, o]) => namespace == null || o.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return all.map(([, o]) => structuredClone(o));
  }

  resources(): string[] {
    return [...this.data.keys()];
  }

  /** Stores the object under a new resourceVersion and returns the stored copy. */
  put(resource: string, obj: KObject, type: Exclude<WatchEventType, 'DELETED'>): KObject {
    const key = objectKeyOf(obj.metadata);
    const bucket = this.data.get(resource) ?? new Map<string, KObject>();
    this.data.set(resource, bucket);
    const previous = bucket.get(key);
    const stored = structuredClone(obj);
    stored.metadata.resourceVersion = String(++this.rv);
    bucket.set(key, stored);
    this.record({ rv: this.rv, type, resource, object: stored, ...(previous ? { previous } : {}) });
    return structuredClone(stored);
  }

  /** Removes the object; the DELETED event carries it at the deletion's resourceVersion. */
  remove(resource: string, obj: KObject): KObject {
    const key = objectKeyOf(obj.metadata);
    const previous = this.data.get(resource)?.get(key);
    this.data.get(resource)?.delete(key);
    // The caller's object is the final state (e.g. with its last finalizer just removed).
    const gone = structuredClone(obj);
    gone.metadata.resourceVersion = String(++this.rv);
    this.record({ rv: this.rv, type: 'DELETED', resource, object: gone, ...(previous ? { previous } : {}) });
    return structuredClone(gone);
  }

  /**
   * The objects as they were at `rv`, rebuilt by undoing later events (what etcd's MVCC read at a
   * revision gives); undefined when that history is compacted.
   */
  listAt(resource: string, namespace: string | undefined, rv: number): KObject[] | undefined {
    const events = this.eventsSince(rv);
    if (!events) return undefined;
    const state = new Map(this.data.get(resource) ?? []);
    for (const e of events.reverse()) {
      if (e.resource !== resource) continue;
      const key = objectKeyOf(e.object.metadata);
      if (e.type === 'ADDED') state.delete(key);
      else if (e.previous) state.set(key, e.previous);
    }
    return [...state.entries()]
      .filter(([, o]) => namespace == null || o.metadata.namespace === namespace)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => structuredClone(o));
  }

  /** Events after `rv`, or undefined when history no longer reaches back that far. */
  eventsSince(rv: number): StoredEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    return this.history.filter((e) => e.rv > rv);
  }

  /** Forgets all history up to now. */
  compact(): number {
    this.compactedRv = this.rv;
    this.history = [];
    return this.compactedRv;
  }

  subscribe(listener: StoreListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after every write; persistence hangs off this. */
  onChange(hook: () => void): () => void {
    this.changeHooks.add(hook);
    return () => this.changeHooks.delete(hook);
  }

  snapshot(): StoreSnapshot {
    const resources: Record<string, KObject[]> = {};
    for (const [r, bucket] of this.data) resources[r] = [...bucket.values()];
    return { resourceVersion: this.rv, resources };
  }

  /** Replaces everything; history starts empty, so older versions are already compacted. */
  load(snapshot: StoreSnapshot): void {
    this.data.clear();
    for (const [r, objs] of Object.entries(snapshot.resources)) {
      this.data.set(r, new Map(objs.map((o) => [objectKeyOf(o.metadata), o])));
    }
    this.rv = snapshot.resourceVersion;
    this.compact();
  }

  private record(event: StoredEvent): void {
    this.history.push(event);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(0, this.history.length - this.historyLimit);
      this.compactedRv = dropped[dropped.length - 1]?.rv ?? this.compactedRv;
    }
    for (const l of this.listeners) l(event);
    for (const h of this.changeHooks) h();
  }
}
