/**
 * Removes credentials from anything about to be logged. Keys are matched by name (a kubeconfig's
 * `token`, `client-key-data`, a Secret's `data`...), and an Error is reduced to its name, message
 * and cause so that a request object hanging off an SDK error cannot leak headers.
 */
const SENSITIVE_KEY =
  /^(token|id-token|refresh-token|access-token|password|client-key-data|client-key|clientKey|keyData|authorization|secret|secretString|SecretString|data|stringData|x-amz-security-token|sessionToken|secretAccessKey)$/i;

export const REDACTED = '[redacted]';

/**
 * Credentials inside free text (an error message quoting a kubeconfig, a header dump): the value
 * after a sensitive key (`token: …`, `"client-key-data":"…"`, `password=…`), bearer and basic
 * credentials, JWTs, PEM private keys, and long base64 runs (certificate or key data).
 */
const IN_TEXT: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [
    /((?:^|[\s{,"'])(?:token|id-token|refresh-token|access-token|password|client-key-data|client-key|client-certificate-data|certificate-authority-data|secret|secretAccessKey|sessionToken|authorization|x-amz-security-token)["']?\s*[:=]\s*["']?)[^\s"',}]+/gi,
    `$1${REDACTED}`,
  ],
  [/\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9._-]*/g, REDACTED],
];

/** Base64 of a key or certificate: long, and mixing upper case, lower case and digits (hex hashes do not). */
const BASE64_RUN = /[A-Za-z0-9+/]{48,}={0,2}/g;

export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of IN_TEXT) out = out.replace(pattern, replacement);
  return out.replace(BASE64_RUN, (run) =>
    /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run) ? REDACTED : run,
  );
}

/** The first line of an error's message, cut to `max` characters and redacted: safe to log. */
export function safeErrorLine(err: unknown, max = 200): string {
  const message = err instanceof Error ? err.message : String(err);
  return redactText((message.split('\n')[0] ?? '').slice(0, max));
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[depth limit]';
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: redactText(value.message) };
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
  if (typeof value === 'string') return redactText(value);
  return value;
}
