/**
 * A read-only KubeClient that answers `get` and `list` from one paged LIST per kind (per allowed
 * namespace), made the first time the kind is asked for: code written against KubeClient (the
 * model's input readers) runs over a whole fleet at the cost of one LIST per kind, not one GET or
 * label-selected LIST per object. Label selectors are the equality-based ones (`k=v`, `k==v`,
 * `k!=v`, `k`, `!k`, joined by commas); anything else is refused with a clear error.
 */
import type { DeleteOptions, KubeClient, ListOptions, PatchType } from './client.js';
import type { KubeList, KubeObject, ResourceType } from './types.js';

type Requirement = (labels: Readonly<Record<string, string>>) => boolean;

function parseSelector(selector: string | undefined): Requirement[] {
  if (!selector?.trim()) return [];
  return selector.split(',').map((part): Requirement => {
    const req = part.trim();
    let m = /^([A-Za-z0-9][-A-Za-z0-9_./]*)\s*(==|=|!=)\s*([-A-Za-z0-9_.]*)$/.exec(req);
    if (m) {
      const [, key, op, value] = m as unknown as [string, string, string, string];
      return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
    }
    m = /^(!?)\s*([A-Za-z0-9][-A-Za-z0-9_./]*)$/.exec(req);
    if (m) {
      const [, not, key] = m as unknown as [string, string, string];
      return not ? (l) => !(key in l) : (l) => key in l;
    }
    throw new Error(`listed snapshot: unsupported label selector "${req}" (equality-based only)`);
  });
}

interface Index {
  items: KubeObject[];
  byKey: Map<string, KubeObject>;
}

const keyOf = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

/**
 * Kinds read by name only, never listed: a Work holds every manifest Karmada propagates (Secrets
 * included), so the functions may only GET the one a collected EndpointSlice names. The snapshot
 * passes their `get` through.
 */
const BY_NAME_ONLY = new Set(['work.karmada.io/v1alpha1/Work']);

export class ListedSnapshot implements KubeClient {
  private readonly kinds = new Map<string, Promise<Index>>();
  /** LIST requests made, by kind (each may have been several pages). */
  readonly lists: Record<string, number> = {};

  constructor(
    private readonly kube: KubeClient,
    /** Only these namespaces are listed (and seen); all when undefined. */
    private readonly namespaces?: readonly string[],
  ) {}

  private index(type: ResourceType): Promise<Index> {
    const k = `${type.apiVersion}/${type.kind}`;
    let index = this.kinds.get(k);
    if (!index) {
      index = this.load(type);
      // A failed LIST is not kept: the next question about the kind tries again.
      index.catch(() => this.kinds.delete(k));
      this.kinds.set(k, index);
    }
    return index;
  }

  private async load(type: ResourceType): Promise<Index> {
    const scopes = type.namespaced && this.namespaces?.length ? this.namespaces : [undefined];
    const items: KubeObject[] = [];
    for (const namespace of scopes) {
      this.lists[type.kind] = (this.lists[type.kind] ?? 0) + 1;
      items.push(...(await this.kube.list(type, namespace ? { namespace } : {})).items);
    }
    return {
      items,
      byKey: new Map(items.map((o) => [keyOf(o.metadata.namespace, o.metadata.name ?? ''), o])),
    };
  }

  async get<T extends KubeObject>(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    if (BY_NAME_ONLY.has(`${type.apiVersion}/${type.kind}`)) return this.kube.get<T>(type, namespace, name);
    const { byKey } = await this.index(type);
    return byKey.get(keyOf(type.namespaced ? namespace : undefined, name)) as T | undefined;
  }

  async list<T extends KubeObject>(type: ResourceType, options: ListOptions = {}): Promise<KubeList<T>> {
    if (options.fieldSelector) throw new Error('listed snapshot: field selectors are not supported');
    if (BY_NAME_ONLY.has(`${type.apiVersion}/${type.kind}`))
      throw new Error(`listed snapshot: ${type.kind} is read by name only, never listed`);
    const requirements = parseSelector(options.labelSelector);
    const { items } = await this.index(type);
    const matching = items.filter(
      (o) =>
        (!type.namespaced || options.namespace === undefined || o.metadata.namespace === options.namespace) &&
        requirements.every((r) => r(o.metadata.labels ?? {})),
    );
    return { metadata: {}, items: matching as T[] };
  }

  private readOnly(what: string): never {
    throw new Error(`listed snapshot is read-only: cannot ${what}`);
  }
  create<T extends KubeObject>(): Promise<T> {
    return this.readOnly('create');
  }
  update<T extends KubeObject>(): Promise<T> {
    return this.readOnly('update');
  }
  updateStatus<T extends KubeObject>(): Promise<T> {
    return this.readOnly('update status');
  }
  patch<T extends KubeObject>(
    _type: ResourceType,
    _namespace: string | undefined,
    _name: string,
    _patch: unknown,
    _patchType?: PatchType,
  ): Promise<T> {
    return this.readOnly('patch');
  }
  delete(
    _type: ResourceType,
    _namespace: string | undefined,
    _name: string,
    _o?: DeleteOptions,
  ): Promise<void> {
    return this.readOnly('delete');
  }
}
