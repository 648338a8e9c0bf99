import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { FieldValidation, ServerContext, WriteOptions } from './context.js';
import { deleteCollection, deleteObject, type DeleteOptions } from './deletion.js';
import { apiGroupDoc, apiGroupList, apiResourceList, apiVersions, VERSION_INFO } from './discovery.js';
import {
  ApiError,
  badRequest,
  conflict,
  methodNotAllowed,
  notFound,
  routeNotFound,
  toApiError,
} from './errors.js';
import { hostRefusal } from './host-check.js';
import { groupVersionDocument, openApiIndex } from './openapi.js';
import { getObject, listObjects, selectorOf } from './reads.js';
import type { RequestLog, RequestRecord } from './request-log.js';
import { parseRoute, type ResourceRoute } from './routes.js';
import { apiVersionOf, resourceKeyOf } from './types.js';
import { getScale, writeScale } from './scale.js';
import { serveWatch } from './watch.js';
import { createObject, patchObject, patchTypeOf, updateObject } from './writes.js';
import { applyObject } from './apply.js';
import { decodeProtobuf, PROTOBUF } from './protobuf.js';

function send(res: ServerResponse, code: number, body: unknown, warnings: string[] = []): void {
  const headers: Record<string, string | string[]> = {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
  };
  if (warnings.length > 0) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks);
  const type = req.headers['content-type'] ?? 'application/json';
  // kubectl's generators (`kubectl create namespace`, `create secret`) send protobuf.
  if (type.startsWith(PROTOBUF)) return decodeProtobuf(raw, type);
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return /yaml/.test(type) && !/json/.test(type) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw badRequest(`error decoding request body: ${(e as Error).message}`);
  }
}

/** kube-apiserver's default field manager: the user agent's program name (`kubectl/v1.32 …` → `kubectl`). */
function defaultFieldManager(req: IncomingMessage): string {
  const agent = req.headers['user-agent'] ?? '';
  return agent.split('/')[0]?.trim() || 'unknown';
}

function writeOptions(q: URLSearchParams, req: IncomingMessage): WriteOptions {
  const v = q.get('fieldValidation') ?? 'Warn';
  if (v !== 'Strict' && v !== 'Warn' && v !== 'Ignore') {
    throw badRequest(`fieldValidation parameter unsupported: ${v}, supported values: Strict, Warn, Ignore`);
  }
  const manager = q.get('fieldManager');
  if (manager !== null && (manager === '' || manager.length > 128)) {
    throw badRequest('fieldManager: must be between 1 and 128 characters');
  }
  return {
    dryRun: q.getAll('dryRun').includes('All'),
    fieldValidation: v as FieldValidation,
    warnings: [],
    fieldManager: manager ?? defaultFieldManager(req),
  };
}

const isWatch = (q: URLSearchParams): boolean => q.get('watch') === 'true' || q.get('watch') === '1';

async function serveResource(
  ctx: ServerContext,
  r: ResourceRoute,
  req: IncomingMessage,
  res: ServerResponse,
  q: URLSearchParams,
): Promise<void> {
  const { def, namespace: ns, name, subresource } = r;
  const method = req.method ?? 'GET';
  if (method === 'GET' && (isWatch(q) || r.watchPath)) {
    if (name != null)
      q.set('fieldSelector', [q.get('fieldSelector'), `metadata.name=${name}`].filter(Boolean).join(','));
    return serveWatch(ctx, def, ns, q, req, res);
  }
  if (name == null) {
    if (method === 'GET') return send(res, 200, listObjects(ctx, def, ns, q));
    if (method === 'POST') {
      const opts = writeOptions(q, req);
      return send(res, 201, createObject(ctx, def, ns, await readBody(req), opts), opts.warnings);
    }
    if (method === 'DELETE') {
      const body = ((await readBody(req)) ?? {}) as DeleteOptions;
      const matches = selectorOf(def, q);
      const items = ctx.store.list(resourceKeyOf(def), ns).filter(matches);
      const deleted = deleteCollection(ctx, def, items, body, q.getAll('dryRun').includes('All'));
      return send(res, 200, {
        kind: def.listKind,
        apiVersion: apiVersionOf(def),
        metadata: { resourceVersion: String(ctx.store.revision) },
        items: deleted,
      });
    }
    throw methodNotAllowed();
  }
  if (subresource === 'scale') return serveScale(ctx, r, name, req, res, q);
  if (subresource === 'token') {
    if (method !== 'POST') throw methodNotAllowed();
    const sa = ctx.store.get(resourceKeyOf(def), ns, name);
    if (!sa) throw notFound(def, name);
    return send(res, 201, ctx.tokens.issue(def, sa, await readBody(req)));
  }
  if (method === 'GET') return send(res, 200, getObject(ctx, def, ns, name));
  if (method === 'PUT' || method === 'PATCH') {
    const body = await readBody(req);
    if (ctx.store.get(resourceKeyOf(def), ns, name) && ctx.chaos.shouldFail(method, req.url ?? ''))
      throw conflict(def, name);
    const opts = writeOptions(q, req);
    const patchType = method === 'PATCH' ? patchTypeOf(req.headers['content-type'] ?? '') : undefined;
    const force = q.get('force');
    if (force !== null && patchType !== 'apply')
      throw badRequest('force: Forbidden: may not be specified for non-apply patch');
    if (patchType === 'apply') {
      if (subresource) throw methodNotAllowed();
      // Unlike other writes, an apply never takes its manager from the user agent.
      if (!q.get('fieldManager')) throw badRequest('PATCH ... fieldManager is required for apply requests');
      const { obj, created } = applyObject(ctx, def, ns, name, body, opts, force === 'true');
      return send(res, created ? 201 : 200, obj, opts.warnings);
    }
    const obj =
      method === 'PUT' || patchType === undefined
        ? updateObject(ctx, def, ns, name, subresource, body, opts)
        : patchObject(ctx, def, ns, name, subresource, body, patchType, opts);
    return send(res, 200, obj, opts.warnings);
  }
  if (method === 'DELETE' && subresource == null) {
    const body = ((await readBody(req)) ?? {}) as DeleteOptions;
    const dryRun = q.getAll('dryRun').includes('All') || (body.dryRun ?? []).includes('All');
    return send(res, 200, deleteObject(ctx, def, ns, name, body, dryRun));
  }
  throw methodNotAllowed();
}

async function serveScale(
  ctx: ServerContext,
  { def, namespace: ns }: ResourceRoute,
  name: string,
  req: IncomingMessage,
  res: ServerResponse,
  q: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (method === 'GET') return send(res, 200, getScale(ctx, def, ns, name));
  if (method !== 'PUT' && method !== 'PATCH') throw methodNotAllowed();
  const body = await readBody(req);
  const patchType = method === 'PATCH' ? patchTypeOf(req.headers['content-type'] ?? '') : undefined;
  const opts = writeOptions(q, req);
  return send(res, 200, writeScale(ctx, def, ns, name, body, patchType, opts), opts.warnings);
}

function serveDiscovery(ctx: ServerContext, path: string, req: IncomingMessage): unknown {
  const { registry } = ctx;
  if (path === '/version') return VERSION_INFO;
  if (path === '/api') return apiVersions(req.headers.host ?? '127.0.0.1');
  if (path === '/apis') return apiGroupList(registry);
  if (path === '/openapi/v3') return openApiIndex(registry);
  const oa = /^\/openapi\/v3\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (oa) return groupVersionDocument(registry, oa[2] ?? '', oa[1] ?? oa[3] ?? '');
  return undefined;
}

/** The request handler: discovery, OpenAPI, health, then resources; every failure is a Status. */
export function createHandler(
  ctx: ServerContext,
  log: RequestLog,
  /** The `Host` values answered (host-check.ts); anything else gets 403 before it is routed. */
  hosts: () => ReadonlySet<string>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const refused = hostRefusal(req.headers.host, hosts());
    if (refused) {
      send(res, refused.code, refused.toStatus());
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const record: RequestRecord = {
      method: req.method ?? 'GET',
      path,
      query: url.search,
      status: 0,
      at: Date.now(),
    };
    if (req.headers['content-type']) record.contentType = req.headers['content-type'];
    log.add(record);
    res.on('finish', () => (record.status = res.statusCode));
    void (async () => {
      if (['/healthz', '/livez', '/readyz'].includes(path)) {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
        return;
      }
      const saDef = ctx.registry.lookup('', 'v1', 'serviceaccounts')!;
      record.user = ctx.tokens.authenticate(req.headers.authorization, (namespace, name) =>
        ctx.store.get(resourceKeyOf(saDef), namespace, name),
      ).username;
      const route = parseRoute(ctx.registry, path);
      if (route.kind === 'resource') return serveResource(ctx, route.route, req, res, url.searchParams);
      if (req.method !== 'GET') throw routeNotFound();
      let body = serveDiscovery(ctx, path, req);
      if (route.kind === 'group') body = apiGroupDoc(ctx.registry, route.group);
      if (route.kind === 'groupVersion') body = apiResourceList(ctx.registry, route.group, route.version);
      if (body === undefined) throw routeNotFound();
      send(res, 200, body);
    })().catch((err: unknown) => {
      const e = toApiError(err);
      if (!(err instanceof ApiError)) console.error('kube-apiserver stand-in:', err);
      if (res.headersSent) res.end();
      else send(res, e.code, e.toStatus());
    });
  };
}
