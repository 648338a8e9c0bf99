import type { Action, ProtocolEnum } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, required, validation } from '../errors.js';
import { checkEnum } from './validate.js';

const PLACEHOLDER = /#\{([^}]*)\}/g;

/** Which reserved keywords each redirect component may use (API_RedirectActionConfig). */
const KEYWORDS = {
  Host: ['host'],
  Path: ['host', 'path', 'port'],
  Query: ['protocol', 'host', 'port', 'path', 'query'],
} as const;

function checkKeywords(component: keyof typeof KEYWORDS, value: string): void {
  for (const [, keyword] of value.matchAll(PLACEHOLDER)) {
    if (!(KEYWORDS[component] as readonly string[]).includes(keyword ?? '')) {
      throw validation(
        `The redirect ${component.toLowerCase()} '${value}' uses an unsupported keyword '#{${keyword}}'`,
      );
    }
  }
}

function checkLength(component: string, value: string, max = 128): void {
  if (value.length < 1 || value.length > max)
    throw validation(`The redirect ${component} must be between 1 and ${max} characters`);
}

/**
 * Fills AWS's defaults (`#{protocol}`, `#{port}`, `#{host}`, `/#{path}`, `#{query}`) and checks
 * each component: a loop (nothing but the query changed) and HTTPS -> HTTP are refused.
 */
export function normalizeRedirect(listenerProtocol: ProtocolEnum, action: Action): Action {
  const c = action.RedirectConfig;
  if (!c?.StatusCode) throw required('redirectConfig.statusCode');
  checkEnum(c.StatusCode, 'redirectConfig.statusCode', ['HTTP_301', 'HTTP_302']);
  const protocol = c.Protocol ?? '#{protocol}';
  if (!['HTTP', 'HTTPS', '#{protocol}'].includes(protocol))
    throw validation(`The redirect protocol '${protocol}' must be HTTP, HTTPS or #{protocol}`);
  const port = c.Port ?? '#{port}';
  if (port !== '#{port}' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535))
    throw validation(`The redirect port '${port}' must be between 1 and 65535, or #{port}`);
  const host = c.Host ?? '#{host}';
  checkLength('host', host);
  checkKeywords('Host', host);
  const path = c.Path ?? '/#{path}';
  checkLength('path', path);
  if (!path.startsWith('/')) throw validation(`The redirect path '${path}' must start with '/'`);
  checkKeywords('Path', path);
  const query = c.Query ?? '#{query}';
  if (query.length > 128) throw validation('The redirect query must be at most 128 characters');
  if (query.startsWith('?')) throw validation(`The redirect query '${query}' must not start with '?'`);
  checkKeywords('Query', query);
  if (protocol === '#{protocol}' && port === '#{port}' && host === '#{host}' && path === '/#{path}') {
    throw new SimError(
      'InvalidLoadBalancerAction',
      'The redirect must change at least one of the protocol, host, port or path, or it loops',
    );
  }
  if (listenerProtocol === 'HTTPS' && protocol === 'HTTP')
    throw new SimError('InvalidLoadBalancerAction', 'You cannot redirect HTTPS to HTTP');
  return {
    Type: 'redirect',
    Order: action.Order,
    RedirectConfig: {
      Protocol: protocol,
      Port: port,
      Host: host,
      Path: path,
      Query: query,
      StatusCode: c.StatusCode,
    },
  };
}
