/**
 * A ValidatingAdmissionPolicy and its binding, evaluated on one request as kube-apiserver does:
 * the match constraints (group, resource, operation), the match conditions, the parameter the
 * binding names (and its parameterNotFoundAction), the variables (lazily, each once), then every
 * validation; an expression that errs denies under failurePolicy Fail. CEL is test/support/cel.ts.
 * The Kubernetes API stand-in does not evaluate admission policies, so the tests call this.
 */
import { CelError, parseCel, evalCel } from './cel.js';

export interface AdmissionRequest {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  group: string;
  resource: string;
  namespace?: string;
  object: unknown;
  oldObject?: unknown;
  userInfo: { username: string; groups?: string[] };
}

export interface Verdict {
  allowed: boolean;
  /** Why not: the failed validation's message, or the error. */
  message?: string;
}

interface PolicyDoc {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec?: any;
  data?: Record<string, string>;
}

export function admit(
  docs: readonly PolicyDoc[],
  policyName: string,
  request: AdmissionRequest,
  /** The objects the binding's paramRef may name (ConfigMaps), by `namespace/name`. */
  params: ReadonlyMap<string, unknown> = new Map(),
): Verdict {
  const policy = docs.find((d) => d.kind === 'ValidatingAdmissionPolicy' && d.metadata.name === policyName);
  const binding = docs.find(
    (d) => d.kind === 'ValidatingAdmissionPolicyBinding' && d.spec?.policyName === policyName,
  );
  if (!policy || !binding) throw new Error(`no policy ${policyName} with a binding`);
  const spec = policy.spec;
  const rules = spec.matchConstraints?.resourceRules ?? [];
  const matched = rules.some(
    (r: any) =>
      (r.apiGroups.includes('*') || r.apiGroups.includes(request.group)) &&
      (r.resources.includes('*') || r.resources.includes(request.resource)) &&
      (r.operations.includes('*') || r.operations.includes(request.operation)),
  );
  if (!matched) return { allowed: true };
  const failClosed = (spec.failurePolicy ?? 'Fail') === 'Fail';
  const onError = (e: unknown): Verdict => {
    if (!(e instanceof CelError)) throw e;
    return failClosed ? { allowed: false, message: `expression error: ${e.message}` } : { allowed: true };
  };

  let param: unknown = null;
  if (spec.paramKind) {
    const ref = binding.spec.paramRef;
    param = params.get(`${ref.namespace ?? request.namespace ?? ''}/${ref.name}`);
    if (param === undefined) {
      return ref.parameterNotFoundAction === 'Allow'
        ? { allowed: true }
        : { allowed: false, message: `no params found for policy binding ${binding.metadata.name}` };
    }
  }
  const vars: Record<string, unknown> = {
    object: request.object ?? null,
    oldObject: request.oldObject ?? null,
    request: {
      operation: request.operation,
      namespace: request.namespace ?? '',
      userInfo: { username: request.userInfo.username, groups: request.userInfo.groups ?? [] },
    },
    params: param,
  };
  const variables: Record<string, unknown> = {};
  for (const v of spec.variables ?? []) {
    const node = parseCel(v.expression);
    let done: { value: unknown } | { error: unknown } | undefined;
    Object.defineProperty(variables, v.name, {
      enumerable: true,
      get() {
        if (!done) {
          try {
            done = { value: evalCel(node, { ...vars, variables }) };
          } catch (error) {
            done = { error };
          }
        }
        if ('error' in done) throw done.error;
        return done.value;
      },
    });
  }
  const scope = { ...vars, variables };
  try {
    for (const c of spec.matchConditions ?? []) {
      if (evalCel(parseCel(c.expression), scope) !== true) return { allowed: true };
    }
  } catch (e) {
    return onError(e);
  }
  for (const v of spec.validations ?? []) {
    let ok: unknown;
    try {
      ok = evalCel(parseCel(v.expression), scope);
    } catch (e) {
      return onError(e);
    }
    if (ok !== true) {
      let message = v.message ?? `failed expression: ${v.expression}`;
      if (v.messageExpression) {
        try {
          message = String(evalCel(parseCel(v.messageExpression), scope));
        } catch {
          // kube-apiserver falls back to `message` (or the expression) when messageExpression errs.
        }
      }
      return { allowed: false, message };
    }
  }
  return { allowed: true };
}
