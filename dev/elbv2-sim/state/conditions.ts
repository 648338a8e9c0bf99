import type { RuleCondition } from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import { parseCidr } from '../network.js';
import { checkRegex } from './regex.js';
import type { Store } from './store.js';
import { checkEnum } from './validate.js';

const FIELDS = [
  'host-header',
  'path-pattern',
  'http-header',
  'http-request-method',
  'query-string',
  'source-ip',
];
/** "zero or one of each of: host-header, http-request-method, path-pattern, source-ip". */
const ONCE_ONLY = new Set(['host-header', 'path-pattern', 'http-request-method', 'source-ip']);
const MAX_VALUE = 128;
const HOST_CHARS = /^[A-Za-z0-9.*?-]+$/;
const PATH_CHARS = /^[A-Za-z0-9_\-.$/~"'@:+&*?]+$/;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,40}$/;
const METHOD = /^[A-Z_-]{1,40}$/;

/** What one condition contributes to the per-rule quotas. */
interface Tally {
  values: number;
  wildcards: number;
}

/** `*` and `?` that are not escaped with `\` (query strings escape literal ones that way). */
const wildcards = (value: string): number => (value.replace(/\\[*?]/g, '').match(/[*?]/g) ?? []).length;

function checkLength(field: string, values: readonly string[]): void {
  for (const v of values) {
    if (v === '') throw validation(`A '${field}' condition value cannot be empty`);
    if (v.length > MAX_VALUE)
      throw validation(`The '${field}' condition value '${v}' is longer than ${MAX_VALUE} characters`);
  }
}

/** Legacy `Values` and the `*Config` spelling must agree; value and regex matching exclude each other. */
function pick(
  c: RuleCondition,
  config: { Values?: string[]; RegexValues?: string[] } | undefined,
  regexAllowed: boolean,
): { values: string[]; regex: string[] } {
  const field = c.Field!;
  const legacy = c.Values ?? [];
  const configured = config?.Values ?? [];
  if (legacy.length > 0 && configured.length > 0 && legacy.join('\n') !== configured.join('\n'))
    throw validation(`Condition '${field}' has different Values and ${field} config values`);
  const values = legacy.length > 0 ? [...legacy] : [...configured];
  const regex = [...(c.RegexValues ?? config?.RegexValues ?? [])];
  if (regex.length > 0 && !regexAllowed)
    throw validation(`Regular expressions are not supported for '${field}' conditions`);
  if (values.length > 0 && regex.length > 0)
    throw validation(`A '${field}' condition can use either values or regular expressions, not both`);
  if (values.length === 0 && regex.length === 0)
    throw validation(`A '${field}' condition must have at least one value`);
  checkLength(field, values);
  for (const r of regex) checkRegex(r, `'${field}' condition regular expression`, MAX_VALUE);
  return { values, regex };
}

function checkHost(v: string): void {
  const tail = v.slice(v.lastIndexOf('.') + 1);
  if (!HOST_CHARS.test(v) || !v.includes('.') || !/^[A-Za-z*?]*$/.test(tail)) {
    throw validation(
      `The host header value '${v}' is not valid: use A-Z, a-z, 0-9, '-', '.', '*' and '?', ` +
        `include at least one '.', and only letters after the final '.'`,
    );
  }
}

function hostHeader(c: RuleCondition, tally: Tally): RuleCondition {
  const { values, regex } = pick(c, c.HostHeaderConfig, true);
  values.forEach(checkHost);
  tally.values += values.length + regex.length;
  tally.wildcards += values.reduce((n, v) => n + wildcards(v), 0);
  return regex.length > 0
    ? { Field: c.Field, HostHeaderConfig: { RegexValues: regex } }
    : { Field: c.Field, Values: values, HostHeaderConfig: { Values: [...values] } };
}

function pathPattern(c: RuleCondition, tally: Tally): RuleCondition {
  const { values, regex } = pick(c, c.PathPatternConfig, true);
  for (const v of values) {
    if (!PATH_CHARS.test(v))
      throw validation(`The path pattern '${v}' contains characters that are not allowed in a path pattern`);
  }
  tally.values += values.length + regex.length;
  tally.wildcards += values.reduce((n, v) => n + wildcards(v), 0);
  return regex.length > 0
    ? { Field: c.Field, PathPatternConfig: { RegexValues: regex } }
    : { Field: c.Field, Values: values, PathPatternConfig: { Values: [...values] } };
}

const noLegacyValues = (c: RuleCondition): void => {
  if (c.Values?.length)
    throw validation(`Values can be specified only for host-header and path-pattern conditions`);
};

function httpHeader(c: RuleCondition, tally: Tally): RuleCondition {
  const cfg = c.HttpHeaderConfig;
  noLegacyValues(c);
  if (!cfg?.HttpHeaderName) throw required('httpHeaderConfig.httpHeaderName');
  if (!HEADER_NAME.test(cfg.HttpHeaderName))
    throw validation(
      `The HTTP header name '${cfg.HttpHeaderName}' is not valid (RFC 7230 token, 1-40 characters)`,
    );
  if (cfg.HttpHeaderName.toLowerCase() === 'host')
    throw validation(`Use a host-header condition to match the host header, not an http-header condition`);
  const { values, regex } = pick({ ...c, Values: undefined }, cfg, true);
  tally.values += values.length + regex.length;
  tally.wildcards += values.reduce((n, v) => n + wildcards(v), 0);
  const name = cfg.HttpHeaderName;
  return {
    Field: c.Field,
    HttpHeaderConfig:
      regex.length > 0
        ? { HttpHeaderName: name, RegexValues: regex }
        : { HttpHeaderName: name, Values: values },
  };
}

function httpRequestMethod(c: RuleCondition, tally: Tally): RuleCondition {
  noLegacyValues(c);
  const { values } = pick(c, c.HttpRequestMethodConfig, false);
  for (const v of values) {
    if (!METHOD.test(v))
      throw validation(
        `The HTTP request method '${v}' may contain only A-Z, '-' and '_' (case sensitive, no wildcards)`,
      );
  }
  tally.values += values.length;
  return { Field: c.Field, HttpRequestMethodConfig: { Values: values } };
}

function queryString(c: RuleCondition, tally: Tally): RuleCondition {
  if (c.Values?.length || c.RegexValues?.length)
    throw validation(`A query-string condition takes its key/value pairs in QueryStringConfig`);
  const pairs = c.QueryStringConfig?.Values ?? [];
  if (pairs.length === 0) throw validation(`A 'query-string' condition must have at least one value`);
  for (const p of pairs) {
    if (p.Value === undefined || p.Value === '') throw required('queryStringConfig.values.member.value');
    checkLength('query-string', [p.Value, ...(p.Key !== undefined ? [p.Key] : [])]);
    tally.wildcards += wildcards(p.Value) + wildcards(p.Key ?? '');
  }
  tally.values += pairs.length;
  return {
    Field: c.Field,
    QueryStringConfig: {
      Values: pairs.map((p) => (p.Key !== undefined ? { Key: p.Key, Value: p.Value } : { Value: p.Value })),
    },
  };
}

function sourceIp(c: RuleCondition, tally: Tally): RuleCondition {
  noLegacyValues(c);
  const { values } = pick(c, c.SourceIpConfig, false);
  if (c.SourceIpConfig?.IpAddressType !== undefined)
    throw validation('IpAddressType in a source-ip condition is supported only for Network Load Balancers');
  for (const v of values) {
    if (!parseCidr(v)) throw validation(`The source IP value '${v}' is not a valid IPv4 or IPv6 CIDR block`);
  }
  tally.values += values.length;
  return { Field: c.Field, SourceIpConfig: { Values: values } };
}

const BUILDERS: Record<string, (c: RuleCondition, tally: Tally) => RuleCondition> = {
  'host-header': hostHeader,
  'path-pattern': pathPattern,
  'http-header': httpHeader,
  'http-request-method': httpRequestMethod,
  'query-string': queryString,
  'source-ip': sourceIp,
};

/**
 * Validates conditions (fields, once-only fields, value syntax, the per-rule value and wildcard
 * quotas) and returns them as DescribeRules reports them.
 */
export function normalizeConditions(
  store: Store,
  conditions: readonly RuleCondition[] | undefined,
): RuleCondition[] {
  if (!conditions || conditions.length === 0) throw required('conditions');
  const tally: Tally = { values: 0, wildcards: 0 };
  const seen = new Set<string>();
  const out = conditions.map((c) => {
    if (!c.Field) throw required('conditions.member.field');
    checkEnum(c.Field, 'field', FIELDS);
    if (ONCE_ONLY.has(c.Field) && seen.has(c.Field))
      throw validation(`A rule can have only one '${c.Field}' condition`);
    seen.add(c.Field);
    return BUILDERS[c.Field]!(c, tally);
  });
  if (tally.values > store.limits.conditionValuesPerRule)
    throw validation(`A rule can only have '${store.limits.conditionValuesPerRule}' condition values`);
  if (tally.wildcards > store.limits.conditionWildcardsPerRule)
    throw validation(`A rule can only have '${store.limits.conditionWildcardsPerRule}' wildcards`);
  return out;
}
