/**
 * Normalises the three accepted input shapes to one `NormalizedNotification`:
 * - our own `ChangeNotification` (what the forwarder sends);
 * - a CloudEvent from Knative Eventing's ApiServerSource, structured mode
 *   (`dev.knative.apiserver.resource.add|update|delete` carry the object as `data`,
 *   `dev.knative.apiserver.ref.add|update|delete` carry a reference);
 * - an Amazon SQS record whose body is either of the above.
 * Anything else is rejected with a `NotificationError` that says what was wrong.
 */
import type { KubeObject } from '../kube/types.js';
import {
  CHANGE_TYPES,
  NOTIFICATION_API_VERSION,
  NOTIFICATION_KIND,
  type ChangeType,
  type NormalizedNotification,
  type ObjectRef,
} from './types.js';

/** SQS caps a message at 256 KiB; anything bigger did not come from a queue or the forwarder. */
export const MAX_NOTIFICATION_BYTES = 256 * 1024;

export class NotificationError extends Error {
  override name = 'NotificationError';
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function str(obj: Json, key: string, where: string, required: true): string;
function str(obj: Json, key: string, where: string, required: false): string | undefined;
function str(obj: Json, key: string, where: string, required: boolean): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null || v === '') {
    if (required) throw new NotificationError(`${where}.${key} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new NotificationError(`${where}.${key} must be a string, got ${typeof v}`);
  return v;
}

const NAME = /^[a-z0-9]([-a-z0-9.:]*[a-z0-9])?$/;

function parseRef(raw: unknown, where: string): ObjectRef {
  if (!isObject(raw)) throw new NotificationError(`${where} must be an object`);
  const ref: ObjectRef = {
    apiVersion: str(raw, 'apiVersion', where, true),
    kind: str(raw, 'kind', where, true),
    name: str(raw, 'name', where, true),
  };
  const namespace = str(raw, 'namespace', where, false);
  if (namespace) ref.namespace = namespace;
  const uid = str(raw, 'uid', where, false);
  if (uid) ref.uid = uid;
  const resourceVersion = str(raw, 'resourceVersion', where, false);
  if (resourceVersion) ref.resourceVersion = resourceVersion;
  if (ref.name.length > 253 || !NAME.test(ref.name)) {
    throw new NotificationError(`${where}.name "${ref.name.slice(0, 64)}" is not a valid object name`);
  }
  if (ref.namespace && (ref.namespace.length > 63 || !NAME.test(ref.namespace))) {
    throw new NotificationError(
      `${where}.namespace "${ref.namespace.slice(0, 64)}" is not a valid namespace`,
    );
  }
  return ref;
}

function refOfObject(obj: unknown, where: string): { ref: ObjectRef; object: KubeObject } {
  if (!isObject(obj) || !isObject(obj.metadata))
    throw new NotificationError(`${where} must be a Kubernetes object`);
  const meta = obj.metadata;
  const ref = parseRef(
    {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
    },
    where,
  );
  return { ref, object: obj as unknown as KubeObject };
}

function parseNative(raw: Json): NormalizedNotification {
  const change = raw.change;
  if (typeof change !== 'string' || !CHANGE_TYPES.includes(change as ChangeType)) {
    throw new NotificationError(
      `change must be one of ${CHANGE_TYPES.join(', ')}, got ${JSON.stringify(change)}`,
    );
  }
  const ref = parseRef(raw.ref, 'ref');
  const out: NormalizedNotification = { change: change as ChangeType, ref, source: 'native' };
  if (raw.object !== undefined) out.object = refOfObject(raw.object, 'object').object;
  if (raw.oldObject !== undefined) out.oldObject = refOfObject(raw.oldObject, 'oldObject').object;
  if (typeof raw.observedAt === 'string') out.observedAt = raw.observedAt;
  if (typeof raw.lastObservedAt === 'string') out.lastObservedAt = raw.lastObservedAt;
  return out;
}

const CLOUDEVENT_TYPE = /^dev\.knative\.apiserver\.(resource|ref)\.(add|update|delete)$/;
const CLOUDEVENT_CHANGE: Record<string, ChangeType> = { add: 'added', update: 'modified', delete: 'deleted' };

function parseCloudEvent(raw: Json): NormalizedNotification {
  const type = str(raw, 'type', 'cloudevent', true);
  const m = CLOUDEVENT_TYPE.exec(type);
  if (!m) throw new NotificationError(`unsupported CloudEvent type "${type.slice(0, 100)}"`);
  const change = CLOUDEVENT_CHANGE[m[2] ?? ''] ?? 'modified';
  let data = raw.data;
  // Some transports put JSON data in as a string (or base64 in data_base64).
  if (typeof data === 'string') data = tryParse(data, 'cloudevent.data');
  if (data === undefined && typeof raw.data_base64 === 'string') {
    data = tryParse(Buffer.from(raw.data_base64, 'base64').toString('utf8'), 'cloudevent.data_base64');
  }
  const observedAt = typeof raw.time === 'string' ? raw.time : undefined;
  if (m[1] === 'resource') {
    const { ref, object } = refOfObject(data, 'cloudevent.data');
    return { change, ref, object, source: 'cloudevent', ...(observedAt ? { observedAt } : {}) };
  }
  return {
    change,
    ref: parseRef(data, 'cloudevent.data'),
    source: 'cloudevent',
    ...(observedAt ? { observedAt } : {}),
  };
}

function tryParse(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotificationError(`${where} is not valid JSON`);
  }
}

/** One notification from an already-parsed JSON value (native or CloudEvent). */
export function normalizeNotification(raw: unknown): NormalizedNotification {
  if (!isObject(raw)) throw new NotificationError('a notification must be a JSON object');
  if (raw.apiVersion === NOTIFICATION_API_VERSION && raw.kind === NOTIFICATION_KIND) return parseNative(raw);
  if (typeof raw.specversion === 'string') return parseCloudEvent(raw);
  if (raw.apiVersion !== undefined || raw.kind !== undefined) {
    throw new NotificationError(
      `unknown notification format: apiVersion/kind must be ${NOTIFICATION_API_VERSION}/${NOTIFICATION_KIND}`,
    );
  }
  throw new NotificationError('unknown notification format: neither a ChangeNotification nor a CloudEvent');
}

/** Notifications from a JSON text: one notification, or `{ notifications: [...] }` (a forwarder batch). */
export function parseNotificationText(text: string): NormalizedNotification[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_NOTIFICATION_BYTES) {
    throw new NotificationError(`notification is larger than ${MAX_NOTIFICATION_BYTES} bytes`);
  }
  const raw = tryParse(text, 'notification');
  return normalizeMany(raw);
}

/** Notifications from a parsed JSON value: one notification, or `{ notifications: [...] }`. */
/**
 * Most notifications one request (an HTTP POST, a direct invoke, an SQS message) may carry: the
 * forwarder sends at most 100 per call; more from anyone is refused before any is processed, so one
 * caller cannot hold an invocation with an unbounded list.
 */
export const MAX_NOTIFICATIONS_PER_REQUEST = 100;

export function normalizeMany(raw: unknown): NormalizedNotification[] {
  if (isObject(raw) && Array.isArray(raw.notifications)) {
    if (raw.notifications.length > MAX_NOTIFICATIONS_PER_REQUEST) {
      throw new NotificationError(
        `${raw.notifications.length} notifications in one request: at most ${MAX_NOTIFICATIONS_PER_REQUEST} are accepted`,
      );
    }
    return raw.notifications.map((n) => normalizeNotification(n));
  }
  return [normalizeNotification(raw)];
}

/** The notifications carried by one SQS record body. */
export function parseSqsBody(body: string): NormalizedNotification[] {
  return parseNotificationText(body).map((n) => ({ ...n, source: 'sqs' as const }));
}
