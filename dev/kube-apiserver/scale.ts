import type { ServerContext, WriteOptions } from './context.js';
import { badRequest, conflict, notFound } from './errors.js';
import { jsonPatch, mergePatch, strategicMergePatch } from './patch.js';
import { resourceKeyOf, type KObject, type ResourceDef } from './types.js';
import { updateObject, type PatchType } from './writes.js';

/** The autoscaling/v1 Scale view of an object with spec.replicas (what `kubectl scale` reads and patches). */
function toScale(obj: KObject): KObject {
  const spec = (obj.spec ?? {}) as { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
  const status = (obj.status ?? {}) as { replicas?: number };
  const selector = Object.entries(spec.selector?.matchLabels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
  };
}

function load(ctx: ServerContext, def: ResourceDef, ns: string | undefined, name: string): KObject {
  const obj = ctx.store.get(resourceKeyOf(def), ns, name);
  if (!obj) throw notFound(def, name);
  return obj;
}

export function getScale(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
): KObject {
  return toScale(load(ctx, def, ns, name));
}

/** PUT (patch undefined) or PATCH of the Scale; only spec.replicas reaches the object. */
export function writeScale(
  ctx: ServerContext,
  def: ResourceDef,
  ns: string | undefined,
  name: string,
  body: unknown,
  patchType: PatchType | undefined,
  opts: WriteOptions,
): KObject {
  const obj = load(ctx, def, ns, name);
  const current = toScale(obj);
  let next: KObject;
  if (patchType === 'json') next = jsonPatch(current, body) as KObject;
  else if (patchType === 'merge') next = mergePatch(current, body) as KObject;
  else if (patchType === 'strategic') next = strategicMergePatch(current, body) as KObject;
  else next = body as KObject;
  const replicas = (next?.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number') throw badRequest('spec.replicas must be a number');
  const rv = next.metadata?.resourceVersion;
  if (rv && rv !== obj.metadata.resourceVersion) throw conflict(def, name);
  const updated = updateObject(
    ctx,
    def,
    ns,
    name,
    undefined,
    { ...obj, spec: { ...(obj.spec as object), replicas } },
    opts,
  );
  return toScale(updated);
}
