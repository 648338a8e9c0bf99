/**
 * Removes credentials from anything about to be logged. Keys are matched by name (a kubeconfig's
 * `token`, `client-key-data`, a Secret's `data`...), and an Error is reduced to its name, message
 * and cause so that a request object hanging off an SDK error cannot leak headers.
 */
const SENSITIVE_KEY =
  /^(token|id-token|refresh-token|access-token|password|client-key-data|client-key|clientKey|keyData|authorization|secret|secretString|SecretString|data|stringData|x-amz-security-token|sessionToken|secretAccessKey)$/i;

export const REDACTED = '[redacted]';

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[depth limit]';
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) out.code = code;
    if (value.cause !== undefined) out.cause = redact(value.cause, depth + 1);
    return out;
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SENSITIVE_KEY.test(k) && v !== undefined && v !== null ? REDACTED : redact(v, depth + 1);
    }
    return out;
  }
  if (typeof value === 'string' && /^Bearer\s+\S+/i.test(value)) return 'Bearer [redacted]';
  return value;
}
