/**
 * LBC's per-backend routing annotations (pkg/ingress/config_types.go, enhanced_backend_builder.go):
 * `actions.${name}` (what a `use-annotation` backend does), `conditions.${name}` (what a rule
 * matches besides its host and path) and `transforms.${name}` (how the request is rewritten),
 * where `${name}` is the backend's service.name; and `use-regex-path-match`.
 *
 * Everything ELBv2 would refuse is refused here, before any call, naming the annotation and the
 * JSON path within it. A forward may name only Services: a `targetGroupARN`/`targetGroupName`
 * names a target group outside the provider's stacks, which it neither builds nor may route
 * another tenant's traffic into.
 */
import { isIP } from 'node:net';
import type {
  QueryStringPair,
  RedirectSpec,
  RuleCondition,
  RuleTransform,
  TargetGroupStickiness,
} from '../types.js';
import { annotationError, JsonObject, parseJson } from './json-config.js';
import type { ALB_KEYS } from './keys.js';
import { bool, raw, type Annotations } from './parse.js';

type RoutingKeys = Pick<typeof ALB_KEYS, 'actions' | 'conditions' | 'transforms' | 'useRegexPathMatch'>;

/** A Service port as LBC's intstr reads it: digits are a number, anything else a port name. */
export type ServicePortRef = { number: number } | { name: string };

export interface ServiceTargetGroup {
  serviceName: string;
  servicePort: ServicePortRef;
  /** Absent for a lone group (LBC requires weights only when there are several). */
  weight?: number;
  /** Where it is in the annotation, for errors about the Service. */
  path: string;
}

export type ActionConfig =
  | { type: 'forward'; targetGroups: ServiceTargetGroup[]; stickiness?: TargetGroupStickiness }
  | { type: 'redirect'; redirect: RedirectSpec }
  | {
      type: 'fixed-response';
      fixedResponse: { statusCode: string; contentType?: string; messageBody?: string };
    };

const ACTION_TYPES = ['forward', 'redirect', 'fixed-response'] as const;
const CONFIG_OF = {
  forward: 'forwardConfig',
  redirect: 'redirectConfig',
  'fixed-response': 'fixedResponseConfig',
} as const;
const CONTENT_TYPES = ['text/plain', 'text/css', 'text/html', 'application/javascript', 'application/json'];
const MAX_WEIGHT = 999;
const MAX_STICKINESS_SECONDS = 604800;

/** The annotation key for one backend name. */
export function routingKey(prefix: string, name: string): string {
  return `${prefix}${name}`;
}

function refuseOutsideTargetGroup(o: JsonObject): void {
  for (const name of ['targetGroupARN', 'targetGroupName']) {
    if (o.has(name)) {
      throw o.error(
        name,
        'forwarding to a target group outside this provider is not supported: it routes only to the target groups it builds for Services (use forwardConfig.targetGroups[] with serviceName and servicePort)',
      );
    }
  }
}

function servicePort(o: JsonObject): ServicePortRef {
  const v = o.raw('servicePort');
  if (v === undefined) throw o.error('servicePort', 'is required');
  // LBC normalises with intstr.Parse: "80" is the number 80, "http" a port name.
  if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535) return { number: v };
  if (typeof v === 'string' && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535)
    return { number: Number(v) };
  if (typeof v === 'string' && v !== '' && !/^\d+$/.test(v)) return { name: v };
  throw o.error('servicePort', 'must be a port number (1-65535) or a port name');
}

function forwardConfig(o: JsonObject): ActionConfig {
  const fields = ['targetGroups', 'targetGroupStickinessConfig'];
  const f = o.object('forwardConfig', fields);
  if (!f) throw o.error('forwardConfig', 'is required for a forward action');
  const tuples = f.array('targetGroups');
  if (!tuples || tuples.length === 0) throw f.error('targetGroups', 'must list at least one target group');
  const seen = new Map<string, string>();
  const targetGroups = tuples.map((t, i): ServiceTargetGroup => {
    const path = `${f.at('targetGroups')}[${i}]`;
    const g = JsonObject.of(o.key, path, t, [
      'serviceName',
      'servicePort',
      'weight',
      'targetGroupARN',
      'targetGroupName',
    ]);
    refuseOutsideTargetGroup(g);
    const serviceName = g.requiredString('serviceName');
    const port = servicePort(g);
    const weight = g.integer('weight');
    if (weight !== undefined && (weight < 0 || weight > MAX_WEIGHT))
      throw g.error('weight', `must be from 0 to ${MAX_WEIGHT}`);
    if (weight === undefined && tuples.length > 1)
      throw g.error('weight', 'must be set when a forward has several target groups');
    const id = `${serviceName}:${'number' in port ? port.number : port.name}`;
    const before = seen.get(id);
    if (before !== undefined) throw annotationError(o.key, path, `names the same Service port as ${before}`);
    seen.set(id, path);
    return { serviceName, servicePort: port, ...(weight !== undefined ? { weight } : {}), path };
  });
  const s = f.object('targetGroupStickinessConfig', ['enabled', 'durationSeconds']);
  let stickiness: TargetGroupStickiness | undefined;
  if (s) {
    const enabled = s.boolean('enabled') ?? false;
    const durationSeconds = s.integer('durationSeconds');
    if (durationSeconds !== undefined && (durationSeconds < 1 || durationSeconds > MAX_STICKINESS_SECONDS))
      throw s.error('durationSeconds', `must be from 1 to ${MAX_STICKINESS_SECONDS}`);
    if (enabled && durationSeconds === undefined)
      throw s.error('durationSeconds', 'is required when stickiness is enabled');
    stickiness = { enabled, ...(durationSeconds !== undefined ? { durationSeconds } : {}) };
  }
  return { type: 'forward', targetGroups, ...(stickiness ? { stickiness } : {}) };
}

function redirectComponent(
  r: JsonObject,
  name: string,
  check: (v: string) => string | undefined,
): string | undefined {
  const v = r.string(name);
  if (v === undefined) return undefined;
  const why = v.length < 1 || v.length > 128 ? 'must be 1 to 128 characters' : check(v);
  if (why) throw r.error(name, why);
  return v;
}

function redirectConfig(o: JsonObject): ActionConfig {
  const r = o.object('redirectConfig', ['host', 'path', 'port', 'protocol', 'query', 'statusCode']);
  if (!r) throw o.error('redirectConfig', 'is required for a redirect action');
  const statusCode = r.requiredString('statusCode');
  if (statusCode !== 'HTTP_301' && statusCode !== 'HTTP_302')
    throw r.error('statusCode', 'must be HTTP_301 or HTTP_302');
  const protocol = redirectComponent(r, 'protocol', (v) =>
    ['HTTP', 'HTTPS', '#{protocol}'].includes(v) ? undefined : 'must be HTTP, HTTPS or #{protocol}',
  );
  const port = redirectComponent(r, 'port', (v) =>
    v === '#{port}' || (/^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535)
      ? undefined
      : 'must be a port from 1 to 65535 or #{port}',
  );
  const host = redirectComponent(r, 'host', () => undefined);
  const path = redirectComponent(r, 'path', (v) => (v.startsWith('/') ? undefined : 'must start with /'));
  const query = r.string('query');
  if (query !== undefined && (query.length > 128 || query.startsWith('?')))
    throw r.error('query', 'must be at most 128 characters, without the leading ?');
  return {
    type: 'redirect',
    redirect: {
      ...(protocol !== undefined ? { protocol } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(host !== undefined ? { host } : {}),
      ...(path !== undefined ? { path } : {}),
      ...(query !== undefined ? { query } : {}),
      statusCode,
    },
  };
}

function fixedResponseConfig(o: JsonObject): ActionConfig {
  const f = o.object('fixedResponseConfig', ['contentType', 'messageBody', 'statusCode']);
  if (!f) throw o.error('fixedResponseConfig', 'is required for a fixed-response action');
  const statusCode = f.requiredString('statusCode');
  if (!/^[245]\d\d$/.test(statusCode)) throw f.error('statusCode', 'must be a 2XX, 4XX or 5XX status code');
  const contentType = f.string('contentType');
  if (contentType !== undefined && !CONTENT_TYPES.includes(contentType))
    throw f.error('contentType', `must be one of ${CONTENT_TYPES.join(', ')}`);
  const messageBody = f.string('messageBody');
  if (messageBody !== undefined && messageBody.length > 1024)
    throw f.error('messageBody', 'must be at most 1024 characters');
  return {
    type: 'fixed-response',
    fixedResponse: {
      statusCode,
      ...(contentType !== undefined ? { contentType } : {}),
      ...(messageBody !== undefined ? { messageBody } : {}),
    },
  };
}

/** `actions.${name}`, or undefined when the MCI has no such annotation. */
export function annotationAction(
  annotations: Annotations,
  keys: RoutingKeys,
  name: string,
): ActionConfig | undefined {
  const key = routingKey(keys.actions, name);
  const value = raw(annotations, key);
  if (value === undefined) return undefined;
  const o = JsonObject.of(
    key,
    '',
    parseJson(key, value),
    ['type', 'targetGroupARN', 'targetGroupName', 'forwardConfig', 'redirectConfig', 'fixedResponseConfig'],
    true,
  );
  const type = o.requiredString('type');
  if (!(ACTION_TYPES as readonly string[]).includes(type)) {
    throw o.error('type', `unknown action type "${type}" (forward, redirect or fixed-response)`);
  }
  o.refuseUnknown();
  const t = type as (typeof ACTION_TYPES)[number];
  for (const [other, member] of Object.entries(CONFIG_OF)) {
    if (other !== t && o.has(member)) throw o.error(member, `is only for ${other} actions, not ${t}`);
  }
  if (t === 'forward') {
    refuseOutsideTargetGroup(o);
    return forwardConfig(o);
  }
  if (o.has('targetGroupARN') || o.has('targetGroupName'))
    throw o.error(
      o.has('targetGroupARN') ? 'targetGroupARN' : 'targetGroupName',
      `is only for forward actions`,
    );
  return t === 'redirect' ? redirectConfig(o) : fixedResponseConfig(o);
}

const CONDITION_CONFIG = {
  'host-header': 'hostHeaderConfig',
  'path-pattern': 'pathPatternConfig',
  'http-header': 'httpHeaderConfig',
  'http-request-method': 'httpRequestMethodConfig',
  'query-string': 'queryStringConfig',
  'source-ip': 'sourceIPConfig',
} as const;
type ConditionField = keyof typeof CONDITION_CONFIG;

/** `values` or `regexValues`, exactly one of them. */
function match(c: JsonObject): { values: string[]; regex?: true } {
  const values = c.strings('values') ?? [];
  const regexValues = c.strings('regexValues') ?? [];
  if (values.length > 0 && regexValues.length > 0)
    throw c.error('regexValues', 'cannot be given together with values (precisely one of them)');
  if (values.length === 0 && regexValues.length === 0)
    throw c.error('values', 'values or regexValues must be given');
  const tooLong = values.find((v) => v.length > MAX_CONDITION_VALUE);
  if (tooLong !== undefined)
    throw c.error('values', `"${tooLong}" is longer than ${MAX_CONDITION_VALUE} characters`);
  for (const r of regexValues) {
    const why = unsupportedRegex(r, MAX_CONDITION_VALUE);
    if (why) throw c.error('regexValues', `"${r}" ${why}`);
  }
  return regexValues.length > 0 ? { values: regexValues, regex: true } : { values };
}

const MAX_CONDITION_VALUE = 128;

/**
 * What ELBv2 refuses in a rule's regular expressions (listener rules: "do not support lookaheads,
 * lookbehinds, backreferences, atomic groups, possessive quantifiers, subroutines, recursion, and
 * Unicode character classes"), or a pattern that does not compile; undefined when it is fine.
 */
export function unsupportedRegex(value: string, max: number): string | undefined {
  if (value.length < 1 || value.length > max) return `must be 1 to ${max} characters`;
  const features: ReadonlyArray<readonly [RegExp, string]> = [
    // First: `\p{L}+` would otherwise read as the possessive quantifier `}+`.
    [/\\[pP]\{/, 'Unicode character classes'],
    [/\(\?<?[=!]/, 'lookaheads and lookbehinds'],
    [/\\[1-9]|\\k</, 'backreferences'],
    [/\(\?>/, 'atomic groups'],
    [/[*+?}]\+/, 'possessive quantifiers'],
    [/\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\)/, 'subroutines and recursion'],
  ];
  for (const [pattern, feature] of features) {
    if (pattern.test(value)) return `uses ${feature}, which ELBv2 does not support in rules`;
  }
  try {
    new RegExp(value);
  } catch {
    return 'is not a valid regular expression';
  }
  return undefined;
}

function validCidr(v: string): boolean {
  const [address = '', length, ...rest] = v.split('/');
  const family = isIP(address);
  if (family === 0 || length === undefined || rest.length > 0 || !/^\d{1,3}$/.test(length)) return false;
  return Number(length) <= (family === 4 ? 32 : 128);
}

function condition(key: string, path: string, value: unknown): RuleCondition {
  const o = JsonObject.of(key, path, value, ['field', ...Object.values(CONDITION_CONFIG)], true);
  const field = o.requiredString('field');
  if (!(field in CONDITION_CONFIG)) {
    throw o.error(
      'field',
      `unknown condition field "${field}" (${Object.keys(CONDITION_CONFIG).join(', ')})`,
    );
  }
  o.refuseUnknown();
  const f = field as ConditionField;
  const member = CONDITION_CONFIG[f];
  for (const other of Object.values(CONDITION_CONFIG)) {
    if (other !== member && o.has(other)) throw o.error(other, `is not for a ${f} condition`);
  }
  const missing = () => o.error(member, `is required for a ${f} condition`);
  switch (f) {
    case 'host-header':
    case 'path-pattern': {
      const c = o.object(member, ['values', 'regexValues']);
      if (!c) throw missing();
      return { field: f, ...match(c) };
    }
    case 'http-header': {
      const c = o.object(member, ['httpHeaderName', 'values', 'regexValues']);
      if (!c) throw missing();
      const httpHeaderName = c.requiredString('httpHeaderName');
      if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,40}$/.test(httpHeaderName))
        throw c.error('httpHeaderName', 'must be an HTTP header name (1-40 token characters)');
      if (httpHeaderName.toLowerCase() === 'host')
        throw c.error('httpHeaderName', 'use a host-header condition to match the Host header');
      return { field: f, httpHeaderName, ...match(c) };
    }
    case 'http-request-method': {
      const c = o.object(member, ['values']);
      if (!c) throw missing();
      const values = c.strings('values') ?? [];
      if (values.length === 0) throw c.error('values', 'cannot be empty');
      const bad = values.find((v) => !/^[A-Z_-]{1,40}$/.test(v));
      if (bad !== undefined)
        throw c.error('values', `"${bad}" is not a method (A-Z, - and _, case sensitive)`);
      return { field: f, values };
    }
    case 'source-ip': {
      const c = o.object(member, ['values']);
      if (!c) throw missing();
      const values = c.strings('values') ?? [];
      if (values.length === 0) throw c.error('values', 'cannot be empty');
      const bad = values.find((v) => !validCidr(v));
      if (bad !== undefined) throw c.error('values', `"${bad}" is not an IPv4 or IPv6 CIDR block`);
      return { field: f, values };
    }
    case 'query-string': {
      const c = o.object(member, ['values']);
      if (!c) throw missing();
      const pairs = c.array('values') ?? [];
      if (pairs.length === 0) throw c.error('values', 'cannot be empty');
      const values = pairs.map((p, i): QueryStringPair => {
        const kv = JsonObject.of(key, `${c.at('values')}[${i}]`, p, ['key', 'value']);
        const k = kv.string('key');
        return { ...(k !== undefined ? { key: k } : {}), value: kv.requiredString('value') };
      });
      return { field: f, values };
    }
  }
}

/** An annotation holding a JSON array; empty when absent. */
function jsonArray(annotations: Annotations, key: string, of: string): unknown[] {
  const value = raw(annotations, key);
  if (value === undefined) return [];
  const parsed = parseJson(key, value);
  if (!Array.isArray(parsed)) throw annotationError(key, '', `must be a JSON array of ${of}`);
  return parsed;
}

/** `conditions.${name}`: empty when absent. */
export function annotationConditions(
  annotations: Annotations,
  keys: RoutingKeys,
  name: string,
): RuleCondition[] {
  const key = routingKey(keys.conditions, name);
  return jsonArray(annotations, key, 'conditions').map((c, i) => condition(key, `[${i}]`, c));
}

const TRANSFORM_CONFIG = {
  'host-header-rewrite': 'hostHeaderRewriteConfig',
  'url-rewrite': 'urlRewriteConfig',
} as const;

/** `transforms.${name}`: empty when absent. ELBv2 takes one transform of each type, one rewrite each. */
export function annotationTransforms(
  annotations: Annotations,
  keys: RoutingKeys,
  name: string,
): RuleTransform[] {
  const key = routingKey(keys.transforms, name);
  const seen = new Set<string>();
  return jsonArray(annotations, key, 'transforms').map((t, i): RuleTransform => {
    const o = JsonObject.of(key, `[${i}]`, t, ['type', ...Object.values(TRANSFORM_CONFIG)], true);
    const type = o.requiredString('type');
    if (!(type in TRANSFORM_CONFIG))
      throw o.error('type', `unknown transform type "${type}" (host-header-rewrite or url-rewrite)`);
    o.refuseUnknown();
    const ty = type as keyof typeof TRANSFORM_CONFIG;
    if (seen.has(ty)) throw o.error('type', `a rule takes one ${ty} transform`);
    seen.add(ty);
    const member = TRANSFORM_CONFIG[ty];
    for (const other of Object.values(TRANSFORM_CONFIG)) {
      if (other !== member && o.has(other)) throw o.error(other, `is not for a ${ty} transform`);
    }
    const c = o.object(member, ['rewrites']);
    if (!c) throw o.error(member, `is required for a ${ty} transform`);
    const rewrites = c.array('rewrites') ?? [];
    if (rewrites.length !== 1)
      throw c.error('rewrites', 'must hold exactly one rewrite (ELBv2 takes one per transform)');
    return {
      type: ty,
      rewrites: rewrites.map((r, j) => {
        const rw = JsonObject.of(key, `${c.at('rewrites')}[${j}]`, r, ['regex', 'replace']);
        const regex = rw.requiredString('regex');
        const replace = rw.string('replace');
        if (replace === undefined) throw rw.error('replace', 'is required');
        const why = unsupportedRegex(regex, 1024);
        if (why) throw rw.error('regex', `"${regex}" ${why}`);
        if (replace.length > 1024) throw rw.error('replace', 'is limited to 1024 characters');
        return { regex, replace };
      }),
    };
  });
}

/** `use-regex-path-match` (LBC's ParseBoolAnnotation: Go's strconv.ParseBool spellings). */
export function useRegexPathMatch(annotations: Annotations, keys: RoutingKeys): boolean {
  return bool(annotations, keys.useRegexPathMatch) ?? false;
}

export const UNUSED_ROUTING_ANNOTATION = 'UnusedRoutingAnnotation';

/**
 * The object's `actions.*`, `conditions.*` and `transforms.*` annotations that no backend uses,
 * each with why (LBC ignores them silently): an action needs a backend `service.name: <name>`
 * with `port.name: use-annotation`, conditions and transforms a path backend named `<name>`.
 */
export function unusedRoutingAnnotations(
  annotations: Annotations,
  keys: RoutingKeys,
  backends: { actions: ReadonlySet<string>; paths: ReadonlySet<string> },
): string[] {
  const unused: string[] = [];
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (key.startsWith(keys.actions)) {
      const name = key.slice(keys.actions.length);
      if (!backends.actions.has(name))
        unused.push(`${key} (no backend is service.name ${name} with port.name use-annotation)`);
    } else {
      const prefix = [keys.conditions, keys.transforms].find((p) => key.startsWith(p));
      if (prefix === undefined) continue;
      const name = key.slice(prefix.length);
      if (!backends.paths.has(name)) unused.push(`${key} (no path's backend is service.name ${name})`);
    }
  }
  return unused;
}
