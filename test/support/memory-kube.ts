/**
 * A tiny in-memory KubeClient for provider tests: objects in a map, `get`/`list` with namespace
 * and label selectors, and a log of every call so tests can assert how the API was used.
 * Not a Kubernetes API stand-in (no resourceVersion conflicts, no watch); end-to-end tests use
 * the real client against dev/kube-apiserver.
 */
import type { DeleteOptions, KubeClient, ListOptions, PatchType } from '../../lib/kube/client.js';
import type { KubeList, KubeObject, ResourceType } from '../../lib/kube/types.js';

export interface MemoryKubeCall {
  verb: 'get' | 'list' | 'create' | 'update' | 'updateStatus' | 'patch' | 'delete';
  kind: string;
  namespace?: string;
  name?: string;
  options?: ListOptions;
}

type Requirement = (labels: Record<string, string>) => boolean;

/** Equality (`a=b`, `a==b`, `a!=b`), existence (`a`, `!a`) and set (`a in (x,y)`, `a notin (x)`) selectors. */
export function parseLabelSelector(selector: string | undefined): Requirement[] {
  if (!selector?.trim()) return [];
  // Split on commas that are not inside parentheses.
  const parts = selector.match(/(?:[^,(]|\([^)]*\))+/g) ?? [];
  return parts.map((raw): Requirement => {
    const part = raw.trim();
    let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(part);
    if (m) {
      const [, key = '', op, list = ''] = m;
      const values = new Set(list.split(',').map((v) => v.trim()));
      return op === 'in'
        ? (l) => l[key] !== undefined && values.has(l[key])
        : (l) => l[key] === undefined || !values.has(l[key]);
    }
    m = /^([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)$/.exec(part);
    if (m) {
      const [, key = '', op, value = ''] = m;
      return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
    }
    if (/^![\w./-]+$/.test(part)) return (l) => l[part.slice(1)] === undefined;
    if (/^[\w./-]+$/.test(part)) return (l) => l[part] !== undefined;
    throw new Error(`memory-kube: unsupported label selector "${part}"`);
  });
}

export class MemoryKube implements KubeClient {
  readonly calls: MemoryKubeCall[] = [];
  private readonly objects = new Map<string, KubeObject>();
  private rv = 1;

  constructor(objects: readonly KubeObject[] = []) {
    for (const o of objects) this.put(o);
  }

  private key(kind: string, namespace: string | undefined, name: string): string {
    return `${kind}/${namespace ?? ''}/${name}`;
  }

  /** Adds or replaces an object directly (no call is recorded). `kind` must be set. */
  put<T extends KubeObject>(obj: T): T {
    if (!obj.kind) throw new Error('memory-kube: objects need a kind');
    const stored = structuredClone(obj);
    stored.metadata.resourceVersion = String(this.rv++);
    this.objects.set(this.key(obj.kind, obj.metadata.namespace, obj.metadata.name ?? ''), stored);
    return structuredClone(stored);
  }

  /** Removes an object directly (no call is recorded). */
  remove(kind: string, namespace: string | undefined, name: string): void {
    this.objects.delete(this.key(kind, namespace, name));
  }

  async get<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    this.calls.push({ verb: 'get', kind: type.kind, namespace, name });
    const o = this.objects.get(this.key(type.kind, namespace, name));
    return o ? (structuredClone(o) as T) : undefined;
  }

  async list<T extends KubeObject>(type: ResourceType, options: ListOptions = {}): Promise<KubeList<T>> {
    this.calls.push({ verb: 'list', kind: type.kind, namespace: options.namespace, options });
    const reqs = parseLabelSelector(options.labelSelector);
    const items = [...this.objects.values()]
      .filter((o) => o.kind === type.kind)
      .filter((o) => options.namespace === undefined || o.metadata.namespace === options.namespace)
      .filter((o) => reqs.every((r) => r(o.metadata.labels ?? {})))
      .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
      .map((o) => structuredClone(o) as T);
    return {
      apiVersion: type.apiVersion,
      kind: `${type.kind}List`,
      metadata: { resourceVersion: String(this.rv) },
      items,
    };
  }

  async create<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    this.calls.push({
      verb: 'create',
      kind: type.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    });
    return this.put({ ...obj, kind: type.kind, apiVersion: type.apiVersion });
  }

  async update<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    this.calls.push({
      verb: 'update',
      kind: type.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    });
    return this.put({ ...obj, kind: type.kind, apiVersion: type.apiVersion });
  }

  async updateStatus<T extends KubeObject>(type: ResourceType, obj: T): Promise<T> {
    this.calls.push({
      verb: 'updateStatus',
      kind: type.kind,
      namespace: obj.metadata.namespace,
      name: obj.metadata.name,
    });
    return this.put({ ...obj, kind: type.kind, apiVersion: type.apiVersion });
  }

  async patch<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    patchType: PatchType = 'merge',
  ): Promise<T> {
    this.calls.push({ verb: 'patch', kind: type.kind, namespace, name });
    if (patchType !== 'merge') throw new Error('memory-kube: only merge patches are supported');
    const current = this.objects.get(this.key(type.kind, namespace, name));
    if (!current) throw new Error(`memory-kube: ${type.kind} ${namespace ?? ''}/${name} not found`);
    return this.put(mergePatch(current, patch) as T);
  }

  async delete(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    _options?: DeleteOptions,
  ): Promise<void> {
    this.calls.push({ verb: 'delete', kind: type.kind, namespace, name });
    this.remove(type.kind, namespace, name);
  }
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}
