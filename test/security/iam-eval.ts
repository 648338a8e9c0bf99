/**
 * A small IAM policy evaluator for the statements the deployment generates: CloudFormation
 * intrinsics and Serverless variables resolved for one account, then AWS's evaluation logic for
 * identity policies without Deny (allowed when some statement matches the action, the resource and
 * every condition), and for a role's trust policy (the principal instead of the resource).
 *
 * Condition operators: the ones the policies use, as the IAM User Guide's "Condition operators"
 * and "Multivalued context keys" pages define them:
 * - a key absent from the request context matches no value: the condition is false, except for
 *   the negated operators (StringNotEquals, StringNotLike, ArnNotEquals, ArnNotLike), which are
 *   true, and for `…IfExists`, which is true;
 * - `Null: true` holds when the key is absent or its value is a null data set (an empty list),
 *   `Null: false` when it is present with a value;
 * - `ForAllValues:` holds when every value of the request matches, and so also for no value at
 *   all (a missing key or an empty list: pair it with `Null: false` to refuse that);
 *   `ForAnyValue:` holds when at least one value matches, never for no value;
 * - `ArnEquals` and `ArnLike` are the same operator: each of an ARN's six colon-delimited parts is
 *   matched separately, case-sensitively, with `*` and `?` wildcards inside a part.
 */

export interface Account {
  partition: string;
  region: string;
  accountId: string;
  /** Serverless `${param:…}` values. */
  params: Record<string, string>;
  service: string;
  stage: string;
}

export const ACCOUNT: Account = {
  partition: 'aws',
  region: 'eu-west-1',
  accountId: '123456789012',
  params: {
    awsOwnerId: 'team-a',
    karmadaInstanceId: 'instance-a',
    awsAllowedSchemes: '',
    awsAllowedSubnets: '',
    awsAllowedSecurityGroups: '',
    kubeconfigSecretId: 'multicluster-cloud-provider/kubeconfig',
    kubeconfigParameter: '',
    tokenRotatorSecretId: 'multicluster-cloud-provider/token-rotator-kubeconfig',
    forwarderClusterArn: 'arn:aws:eks:eu-west-1:123456789012:cluster/host',
    forwarderNamespace: 'multicluster-forwarder',
    forwarderServiceAccount: 'multicluster-forwarder',
  },
  service: 'multicluster-cloud-provider',
  stage: 'ci',
};

export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** `${param:x}`, `${self:service}`, `${sls:stage}` (the Serverless Framework's pass). */
export function serverlessVariables(text: string, a: Account): string {
  return text.replace(/\$\{(param|self|sls):([\w]+)\}/g, (whole, source: string, name: string) => {
    if (source === 'param') {
      if (!(name in a.params)) throw new Error(`unknown parameter ${name}`);
      return a.params[name] ?? '';
    }
    if (source === 'self' && name === 'service') return a.service;
    if (source === 'sls' && name === 'stage') return a.stage;
    return whole;
  });
}

const NO_VALUE = Symbol('AWS::NoValue');

/** Resolves the intrinsics the generated documents use, for one account; drops AWS::NoValue. */
export function resolveCfn(value: unknown, a: Account, conditions: Record<string, unknown> = {}): unknown {
  const pseudo: Record<string, string> = {
    'AWS::Partition': a.partition,
    'AWS::Region': a.region,
    'AWS::AccountId': a.accountId,
  };
  const go = (v: unknown): unknown => {
    if (typeof v === 'string') return serverlessVariables(v, a);
    if (Array.isArray(v)) return v.map(go).filter((x) => x !== NO_VALUE);
    if (!v || typeof v !== 'object') return v;
    const entries = Object.entries(v);
    const [key, arg] = entries[0] ?? [];
    if (entries.length === 1 && key !== undefined) {
      switch (key) {
        case 'Ref':
          if (arg === 'AWS::NoValue') return NO_VALUE;
          if (typeof arg === 'string' && arg in pseudo) return pseudo[arg];
          throw new Error(`Ref ${String(arg)} is not resolvable here`);
        case 'Fn::Sub':
          return (go(arg) as string).replace(/\$\{([\w:]+)\}/g, (_m, name: string) => {
            const p = pseudo[name];
            if (p === undefined) throw new Error(`Fn::Sub: unknown ${name}`);
            return p;
          });
        case 'Fn::GetAtt': {
          const [resource, attribute] = arg as [string, string];
          if (attribute !== 'Arn') throw new Error(`Fn::GetAtt ${resource}.${attribute}`);
          return `arn:${a.partition}:sqs:${a.region}:${a.accountId}:${resource}`;
        }
        case 'Fn::Join': {
          const [sep, parts] = arg as [string, unknown[]];
          return (go(parts) as string[]).join(sep);
        }
        case 'Fn::Split': {
          const [sep, text] = arg as [string, unknown];
          return (go(text) as string).split(sep);
        }
        case 'Fn::Select': {
          const [i, list] = arg as [number, unknown];
          return (go(list) as unknown[])[i];
        }
        case 'Fn::Equals': {
          const [x, y] = go(arg) as [unknown, unknown];
          return x === y;
        }
        case 'Fn::Not':
          return !(go(arg) as [boolean])[0];
        case 'Fn::If': {
          const [name, yes, no] = arg as [string, unknown, unknown];
          if (!(name in conditions)) throw new Error(`Fn::If: unknown condition ${name}`);
          return go(go(conditions[name]) ? yes : no);
        }
      }
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of entries) {
      const r = go(x);
      if (r !== NO_VALUE) out[k] = r;
    }
    return out;
  };
  return go(value);
}

/** IAM's wildcard match: `*` any run of characters, `?` exactly one. Case-sensitive (ARNs). */
export function globMatch(pattern: string, value: string, caseInsensitive = false): boolean {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    caseInsensitive ? 'i' : '',
  );
  return re.test(value);
}

export interface Request {
  action: string;
  resource: string;
  /** Condition keys of the request; an array for multi-valued keys. */
  context?: Record<string, string | string[] | undefined>;
}

/** The operators that hold for a key the request does not have. */
const NEGATED = ['StringNotEquals', 'StringNotLike', 'ArnNotEquals', 'ArnNotLike'];

/**
 * `ArnEquals` / `ArnLike`: the six colon-delimited parts (`arn`, partition, service, Region,
 * account, resource; the resource keeps any further colons) each matched on its own.
 */
export function arnMatch(pattern: string, value: string): boolean {
  const parts = (arn: string): string[] | undefined => {
    const p = arn.split(':');
    return p.length < 6 ? undefined : [...p.slice(0, 5), p.slice(5).join(':')];
  };
  const want = parts(pattern);
  const got = parts(value);
  if (!want || !got) return false;
  return want.every((w, i) => globMatch(w, got[i]!));
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

function conditionHolds(operator: string, key: string, expected: string[], ctx: Request['context']): boolean {
  const raw = ctx?.[key];
  const actual = list(raw);
  let op = operator;
  let ifExists = false;
  if (op.endsWith('IfExists')) {
    ifExists = true;
    op = op.slice(0, -'IfExists'.length);
  }
  let quantifier: 'all' | 'any' | undefined;
  if (op.startsWith('ForAllValues:')) {
    quantifier = 'all';
    op = op.slice('ForAllValues:'.length);
  } else if (op.startsWith('ForAnyValue:')) {
    quantifier = 'any';
    op = op.slice('ForAnyValue:'.length);
  }
  if (op === 'Null') {
    if (quantifier || ifExists) throw new Error(`condition operator ${operator} is not an IAM operator`);
    return (expected[0] === 'true') === (actual.length === 0);
  }
  const one = (v: string): boolean => {
    switch (op) {
      case 'StringEquals':
        return expected.includes(v);
      case 'StringNotEquals':
        return !expected.includes(v);
      case 'StringEqualsIgnoreCase':
        return expected.some((e) => e.toLowerCase() === v.toLowerCase());
      case 'StringLike':
        return expected.some((e) => globMatch(e, v));
      case 'StringNotLike':
        return !expected.some((e) => globMatch(e, v));
      case 'ArnEquals':
      case 'ArnLike':
        return expected.some((e) => arnMatch(e, v));
      case 'ArnNotEquals':
      case 'ArnNotLike':
        return !expected.some((e) => arnMatch(e, v));
      default:
        throw new Error(`condition operator ${operator} is not supported by this evaluator`);
    }
  };
  if (quantifier === 'all') return actual.every(one);
  if (quantifier === 'any') return actual.some(one);
  if (raw === undefined) return ifExists || NEGATED.includes(op);
  // A single-valued operator on a multi-valued key: AWS matches when any value matches.
  return actual.some(one);
}

export function statementAllows(s: Statement, r: Request): boolean {
  if (s.Effect !== 'Allow') return false;
  if (!list(s.Action).some((a) => globMatch(a, r.action, true))) return false;
  if (!list(s.Resource).some((p) => globMatch(p, r.resource))) return false;
  for (const [operator, block] of Object.entries(s.Condition ?? {})) {
    for (const [key, expected] of Object.entries(block)) {
      if (!conditionHolds(operator, key, list(expected), r.context)) return false;
    }
  }
  return true;
}

export function isAllowed(statements: readonly Statement[], r: Request): boolean {
  return statements.some((s) => statementAllows(s, r));
}

/** A role's trust policy statement: who may assume it (`Principal`) instead of a Resource. */
export interface TrustStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal: { Service?: string | string[]; AWS?: string | string[] };
  Action: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface AssumeRequest {
  /** The service principal that calls STS (`pods.eks.amazonaws.com`). */
  service: string;
  action: string;
  context?: Request['context'];
}

/** Whether a trust policy lets `r.service` call `r.action` with that request context. */
export function trustAllows(statements: readonly TrustStatement[], r: AssumeRequest): boolean {
  return statements.some(
    (s) =>
      s.Effect === 'Allow' &&
      list(s.Principal.Service).includes(r.service) &&
      statementAllows(
        {
          Effect: 'Allow',
          Action: s.Action,
          Resource: '*',
          ...(s.Condition ? { Condition: s.Condition } : {}),
        },
        {
          action: r.action,
          resource: '*',
          ...(r.context ? { context: r.context } : {}),
        },
      ),
  );
}
