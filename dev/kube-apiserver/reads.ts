import type { ServerContext } from './context.js';
import { badRequest, gone, notFound } from './errors.js';
import { fieldSelector, labelSelector, type Matcher } from './selectors.js';
import { apiVersionOf, objectKeyOf, resourceKeyOf, type KObject, type ResourceDef } from './types.js';

export function getObject(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
): KObject {
  const obj = ctx.store.get(resourceKeyOf(def), ns, name);
  if (!obj) throw notFound(def, name);
  return obj;
}

/** Label and field selectors of a list or watch request. */
export function selectorOf(def: ResourceDef, q: URLSearchParams): Matcher {
  const byLabel = labelSelector(q.get('labelSelector'));
  const byField = fieldSelector(q.get('fieldSelector'), def.crd);
  return (o) => byLabel(o) && byField(o);
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

/** Same shape as kube-apiserver's token: base64 of `{"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"}`. */
const encodeToken = (rv: number, lastKey: string): string =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start: `${lastKey}\u0000` })).toString('base64url');

function decodeToken(token: string): ContinueToken {
  try {
    const t = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
    if (t.v !== 'meta.k8s.io/v1' || typeof t.rv !== 'number' || typeof t.start !== 'string')
      throw new Error('bad token');
    return t;
  } catch {
    throw badRequest(
      'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    );
  }
}

export function listObjects(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  q: URLSearchParams,
): object {
  const matches = selectorOf(def, q);
  const limit = Number(q.get('limit') ?? '0');
  const token = q.get('continue');
  let listRv = ctx.store.revision;
  let start = '';
  if (token) {
    const t = decodeToken(token);
    listRv = t.rv;
    start = t.start;
  } else if (q.get('resourceVersionMatch') === 'Exact') {
    listRv = Number(q.get('resourceVersion'));
    if (!Number.isInteger(listRv)) throw badRequest('resourceVersionMatch=Exact needs a resourceVersion');
  }
  // Later pages (and Exact reads) see the list as it was at the first page's resourceVersion.
  const snapshot =
    listRv === ctx.store.revision
      ? ctx.store.list(resourceKeyOf(def), ns)
      : ctx.store.listAt(resourceKeyOf(def), ns, listRv);
  if (!snapshot) {
    throw token
      ? gone(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        )
      : gone(`too old resource version: ${listRv} (${ctx.store.compactedRevision})`);
  }
  const all = snapshot.filter((o) => objectKeyOf(o.metadata) >= start && matches(o));
  const metadata: Record<string, unknown> = { resourceVersion: String(listRv) };
  let items = all;
  if (limit > 0 && all.length > limit) {
    items = all.slice(0, limit);
    const last = items[items.length - 1];
    metadata.continue = encodeToken(listRv, last ? objectKeyOf(last.metadata) : '');
    metadata.remainingItemCount = all.length - limit;
  }
  return { kind: def.listKind, apiVersion: apiVersionOf(def), metadata, items };
}
