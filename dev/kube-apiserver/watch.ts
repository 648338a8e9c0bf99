import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerContext } from './context.js';
import { gone } from './errors.js';
import { selectorOf } from './reads.js';
import type { Matcher } from './selectors.js';
import { apiVersionOf, resourceKeyOf, type KObject, type ResourceDef, type StoredEvent } from './types.js';

type WatchType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * An event as a selector-filtered watcher sees it: an object that stops matching is DELETED for it,
 * one that starts matching is ADDED, as kube-apiserver's watch cache does.
 */
function translate(e: StoredEvent, inScope: Matcher): [WatchType, KObject] | undefined {
  const now = inScope(e.object);
  if (e.type !== 'MODIFIED') return now ? [e.type, e.object] : undefined;
  const before = e.previous ? inScope(e.previous) : false;
  if (now) return [before ? 'MODIFIED' : 'ADDED', e.object];
  return before ? ['DELETED', e.object] : undefined;
}

export function serveWatch(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  q: URLSearchParams,
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const key = resourceKeyOf(def);
  const selector = selectorOf(def, q);
  const inScope: Matcher = (o) => (ns == null || o.metadata.namespace === ns) && selector(o);
  const rvParam = q.get('resourceVersion') ?? '';
  const send = (type: WatchType, object: unknown): void => {
    res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const bookmark = (annotations?: Record<string, string>): void =>
    send('BOOKMARK', {
      kind: def.kind,
      apiVersion: apiVersionOf(def),
      metadata: { resourceVersion: String(ctx.store.revision), ...(annotations ? { annotations } : {}) },
    });

  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  // Clients (client-node's Watch) wait for the headers before they return; an idle watch must still send them.
  res.flushHeaders();
  const sendInitial = q.get('sendInitialEvents') === 'true';
  if (sendInitial || rvParam === '' || rvParam === '0') {
    for (const o of ctx.store.list(key, ns)) if (selector(o)) send('ADDED', o);
    if (sendInitial && q.get('allowWatchBookmarks') === 'true')
      bookmark({ 'k8s.io/initial-events-end': 'true' });
  } else {
    const since = Number(rvParam);
    const events = Number.isFinite(since) ? ctx.store.eventsSince(since) : undefined;
    if (!events) {
      const err = gone(`too old resource version: ${rvParam} (${ctx.store.compactedRevision})`).toStatus();
      send('ERROR', err);
      res.end();
      return;
    }
    for (const e of events) {
      const t = e.resource === key ? translate(e, inScope) : undefined;
      if (t) send(t[0], t[1]);
    }
  }

  const unsubscribe = ctx.store.subscribe((e) => {
    if (e.resource !== key) return;
    const t = translate(e, inScope);
    if (t) send(t[0], t[1]);
  });
  const timers: NodeJS.Timeout[] = [];
  if (q.get('allowWatchBookmarks') === 'true')
    timers.push(setInterval(() => bookmark(), ctx.bookmarkIntervalMs));
  const timeout = Number(q.get('timeoutSeconds') ?? '0');
  const handle = {
    end: (): void => {
      cleanup();
      if (!res.writableEnded) res.end();
    },
  };
  if (timeout > 0) timers.push(setTimeout(handle.end, timeout * 1000));
  const cleanup = (): void => {
    unsubscribe();
    for (const t of timers) clearTimeout(t);
    ctx.watches.delete(handle);
  };
  ctx.watches.add(handle);
  req.on('close', cleanup);
  res.on('close', cleanup);
}
