/**
 * Turns what the API server sent into what we keep and forward. Everything the forwarder caches or
 * sends passes through `sanitize` first, so Secret contents never reach a notification, a log line
 * or the cache.
 */
import type { KubeObject, ObjectMeta, ResourceType } from '../kube/types.js';
import {
  NOTIFICATION_API_VERSION,
  NOTIFICATION_KIND,
  refKey,
  type ChangeNotification,
  type ChangeType,
  type ObjectRef,
} from '../notification/types.js';

// kubectl apply copies the whole manifest, Secret data included, into this annotation.
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

type Meta = ObjectMeta & { managedFields?: unknown };

function cleanMeta(meta: Meta, dropLastApplied: boolean): ObjectMeta {
  // managedFields is large and says nothing a reconciler needs.
  const { managedFields: _managedFields, ...rest } = meta;
  if (!dropLastApplied || rest.annotations?.[LAST_APPLIED] === undefined) return rest;
  const { [LAST_APPLIED]: _lastApplied, ...annotations } = rest.annotations;
  return { ...rest, annotations };
}

export function isSecretType(type: ResourceType): boolean {
  return type.apiVersion === 'v1' && type.kind === 'Secret';
}

/**
 * A copy fit to cache and forward. A Secret is rebuilt from an allow-list (metadata and `type`)
 * rather than by deleting `data`/`stringData`, so a field added to Secrets later cannot leak.
 * apiVersion/kind are set from the watched type: list items and metadata-only responses
 * (`PartialObjectMetadata`) do not carry the real ones.
 */
export function sanitize(type: ResourceType, raw: KubeObject): KubeObject {
  const meta = (raw.metadata ?? {}) as Meta;
  if (isSecretType(type)) {
    const secretType = (raw as { type?: unknown }).type;
    return {
      apiVersion: type.apiVersion,
      kind: type.kind,
      metadata: cleanMeta(meta, true),
      ...(typeof secretType === 'string' ? { type: secretType } : {}),
    } as KubeObject;
  }
  return { ...raw, apiVersion: type.apiVersion, kind: type.kind, metadata: cleanMeta(meta, false) };
}

export function refOf(type: ResourceType, obj: KubeObject): ObjectRef {
  const { namespace, name, uid, resourceVersion } = obj.metadata;
  return {
    apiVersion: type.apiVersion,
    kind: type.kind,
    ...(type.namespaced && namespace ? { namespace } : {}),
    name: name ?? '',
    ...(uid ? { uid } : {}),
    ...(resourceVersion ? { resourceVersion } : {}),
  };
}

/** Builds one notification from already-sanitized objects. */
export function makeNotification(
  change: ChangeType,
  type: ResourceType,
  object: KubeObject,
  oldObject?: KubeObject,
  observedAt: Date = new Date(),
): ChangeNotification {
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change,
    ref: refOf(type, object),
    object,
    ...(oldObject ? { oldObject } : {}),
    observedAt: observedAt.toISOString(),
  };
}

export function notificationKey(n: ChangeNotification): string {
  return refKey(n.ref);
}
