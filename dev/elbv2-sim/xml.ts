import type { SimError } from './errors.js';

export const XML_NAMESPACE = 'http://elasticloadbalancing.amazonaws.com/doc/2015-12-01/';

// Members whose schema type is a map: Query XML writes these as <entry><key/><value/></entry>.
const MAP_MEMBERS = new Set(['AuthenticationRequestExtraParams']);

export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Writes an SDK-shaped output object as AWS Query XML: arrays become <member> lists, Dates
 * ISO-8601 timestamps, undefined members are left out (the SDK then leaves them undefined too).
 */
export function toXml(value: unknown, memberName?: string): string {
  if (value === undefined || value === null) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => `<member>${toXml(v)}</member>`).join('');
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (memberName !== undefined && MAP_MEMBERS.has(memberName)) {
      return entries
        .map(([k, v]) => `<entry><key>${escapeXml(k)}</key><value>${toXml(v)}</value></entry>`)
        .join('');
    }
    return entries
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `<${k}>${toXml(v, k)}</${k}>`)
      .join('');
  }
  return escapeXml(String(value));
}

export function successXml(action: string, result: unknown, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${XML_NAMESPACE}">` +
    `<${action}Result>${toXml(result)}</${action}Result>` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`
  );
}

export function errorXml(error: SimError, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<ErrorResponse xmlns="${XML_NAMESPACE}"><Error>` +
    `<Type>${error.type}</Type><Code>${escapeXml(error.code)}</Code><Message>${escapeXml(error.message)}</Message>` +
    `</Error><RequestId>${requestId}</RequestId></ErrorResponse>`
  );
}
