/**
 * Notifications from an HTTP request: a JSON body (one notification, `{ notifications: [...] }`,
 * or a structured-mode CloudEvent), or a binary-mode CloudEvent whose attributes are `ce-*`
 * headers and whose body is the event data (how Knative delivers ApiServerSource events).
 */
import { MAX_NOTIFICATION_BYTES, NotificationError, normalizeMany } from './parse.js';
import type { NormalizedNotification } from './types.js';

export function notificationsFromHttp(
  headers: Record<string, string | undefined>,
  body: string | undefined,
): NormalizedNotification[] {
  if (!body) throw new NotificationError('request body is empty');
  if (Buffer.byteLength(body, 'utf8') > MAX_NOTIFICATION_BYTES * 40) {
    throw new NotificationError('request body is too large');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new NotificationError('request body is not valid JSON');
  }
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (lower['ce-specversion']) {
    const event: Record<string, unknown> = { data: parsed };
    for (const [k, v] of Object.entries(lower)) if (k.startsWith('ce-') && v) event[k.slice(3)] = v;
    return normalizeMany(event);
  }
  return normalizeMany(parsed);
}
