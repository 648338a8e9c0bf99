import type { XmlTree, XmlValue } from './resources.js';
import type { Ec2Error } from './errors.js';

export const EC2_XML_NAMESPACE = 'http://ec2.amazonaws.com/doc/2016-11-15/';

const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** EC2's XML: element names as given, lists as `<item>` elements (EC2 never uses `<member>`). */
function toXml(value: XmlValue): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => `<item>${toXml(v)}</item>`).join('');
  if (typeof value === 'object') {
    return Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<${k}>${toXml(v)}</${k}>`)
      .join('');
  }
  return escapeXml(String(value));
}

/** `<DescribeVpcsResponse><requestId/>...</DescribeVpcsResponse>`: no Result wrapper in EC2. */
export function successXml(action: string, result: XmlTree, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<${action}Response xmlns="${EC2_XML_NAMESPACE}">` +
    `<requestId>${requestId}</requestId>${toXml(result)}</${action}Response>`
  );
}

export function errorXml(error: Ec2Error, requestId: string): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${escapeXml(error.code)}</Code>` +
    `<Message>${escapeXml(error.message)}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`
  );
}
