/**
 * Validation of incoming MultiClusterIngress objects, and what the MultiClusterService's
 * (validate-mcs.ts, a module of its own so that only a container reconciling an MCS reads its
 * validator) shares with it: the CRD schema (precompiled by scripts/gen-validators.ts, so no
 * schema compiler ships in the bundle) plus the rules of Karmada's validating webhook
 * (semantic-rules.ts). A malformed object yields one issue per problem, each naming the field, so
 * the reconciler can report it on the object.
 */
import { InvalidObjectError } from '../errors.js';
import {
  validateMultiClusterIngressSchema,
  type SchemaError,
  type SchemaValidator,
} from '../generated/mci-validator.js';
import { multiClusterIngressRules, type ValidationIssue } from './semantic-rules.js';
import type { MultiClusterIngress } from './types.js';

export type { ValidationIssue } from './semantic-rules.js';

/** Field name used when the object itself (not one of its fields) is at fault. */
const ROOT = '(object)';

/** At most this many issues go into an error message: Events cap messages at 1 KiB anyway. */
const MAX_LISTED = 10;

const IDENT = /^[A-Za-z_$][\w$-]*$/;

/**
 * Turns a JSON pointer into `spec.rules[0].http.paths[1]`. The data decides between an index and
 * a key, so a map key that looks like a number is not mistaken for one.
 */
function fieldPath(pointer: string, data: unknown): string {
  let out = '';
  let cur: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += Array.isArray(cur) || !IDENT.test(seg) ? `[${seg}]` : out === '' ? seg : `.${seg}`;
    cur = typeof cur === 'object' && cur !== null ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return out;
}

function join(parent: string, child: string): string {
  if (!IDENT.test(child)) return `${parent}[${child}]`;
  return parent === '' ? child : `${parent}.${child}`;
}

const INT32_BOUNDS = new Set<unknown>([-2147483648, 2147483647]);

const ARTICLE: Record<string, string> = { integer: 'an integer', object: 'an object', array: 'an array' };

function toIssue(err: SchemaError, data: unknown): ValidationIssue {
  const field = fieldPath(err.instancePath, data);
  const p = err.params;
  switch (err.keyword) {
    case 'required':
      return { field: join(field, String(p.missingProperty)), message: 'required field is missing' };
    case 'type':
      return { field, message: `must be ${ARTICLE[String(p.type)] ?? `a ${String(p.type)}`}` };
    case 'enum':
      return { field, message: `must be one of ${(p.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return { field, message: `must be a valid ${String(p.format)}` };
    case 'pattern':
      return { field, message: `must match ${String(p.pattern)}` };
    case 'maxLength':
      return { field, message: `must be no more than ${String(p.limit)} characters` };
    case 'minLength':
      return {
        field,
        message: p.limit === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`,
      };
    case 'maximum':
    case 'minimum':
      // The generator turns `format: int32` into these bounds; say what they mean.
      return {
        field,
        message: INT32_BOUNDS.has(p.limit)
          ? 'must be a 32-bit integer'
          : `must be ${String(p.comparison)} ${String(p.limit)}`,
      };
    default:
      return { field, message: `fails ${err.keyword} ${JSON.stringify(p)}` };
  }
}

/** The schema's issues, then the rules' on fields the schema did not fault. */
export function validate(
  schema: SchemaValidator,
  rules: (obj: unknown) => ValidationIssue[],
  obj: unknown,
): ValidationIssue[] {
  const issues = schema(obj) ? [] : (schema.errors ?? []).map((e) => toIssue(e, obj));
  // A field the schema already faulted (missing, wrong type) gets no second message from the rules.
  const faulted = new Set(issues.map((i) => i.field));
  for (const issue of rules(obj)) if (!faulted.has(issue.field)) issues.push(issue);
  for (const issue of issues) if (issue.field === '') issue.field = ROOT;
  return issues;
}

/** Every way `obj` is not a valid MultiClusterIngress; empty when it is valid. */
export function validateMultiClusterIngress(obj: unknown): ValidationIssue[] {
  return validate(validateMultiClusterIngressSchema, multiClusterIngressRules, obj);
}

/** `field: message; field: message` for an error or an Event, capped at MAX_LISTED issues. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  const listed = issues.slice(0, MAX_LISTED).map((i) => `${i.field}: ${i.message}`);
  if (issues.length > MAX_LISTED) listed.push(`and ${issues.length - MAX_LISTED} more`);
  return listed.join('; ');
}

/** Throws InvalidObjectError (field = the first issue's field) when there is an issue. */
export function throwIfInvalid(kind: string, issues: ValidationIssue[]): void {
  const first = issues[0];
  if (first === undefined) return;
  throw new InvalidObjectError(`invalid ${kind}: ${formatIssues(issues)}`, {
    field: first.field,
    reason: 'InvalidSpec',
  });
}

/** Throws InvalidObjectError (field = the first issue's field) unless `obj` is valid. */
export function assertValidMultiClusterIngress(obj: unknown): asserts obj is MultiClusterIngress {
  throwIfInvalid('MultiClusterIngress', validateMultiClusterIngress(obj));
}
