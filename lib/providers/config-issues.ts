/**
 * Words the errors of the generated provider-configuration validators
 * (lib/generated/*-config-validator.js) as `field.path: what is wrong`, the field named by its
 * path in the file (`vpc.cidrs.0`, `(root)` for the file itself).
 */
import type { SchemaError, SchemaValidator } from '../generated/mci-validator.js';

/** Messages for patterns and unions, by field path with array indices as `*`. */
export type FieldMessages = Readonly<Record<string, string>>;

function pathOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const shown = (path: string[]) => (path.length ? path.join('.') : '(root)');
const pattern = (path: string[]) => path.map((s) => (/^\d+$/.test(s) ? '*' : s)).join('.');

function describe(err: SchemaError, path: string[], messages: FieldMessages): string {
  const p = err.params;
  switch (err.keyword) {
    case 'required':
      return 'required';
    case 'type':
      return `expected ${String(p.type)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'additionalProperties':
      return `unknown field(s) ${String(p.additionalProperty)}`;
    case 'minItems':
      return `needs at least ${String(p.limit)} item(s)`;
    case 'maxItems':
      return `allows at most ${String(p.limit)} item(s)`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minLength':
      return `must be at least ${String(p.limit)} character(s)`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    default:
      return messages[pattern(path)] ?? `fails ${err.keyword}`;
  }
}

/** Every problem `validate` found in `data`, worded; empty when it is valid. */
export function configIssues(validate: SchemaValidator, data: unknown, messages: FieldMessages): string[] {
  if (validate(data)) return [];
  const errors = validate.errors ?? [];
  // A union (anyOf) reports each branch's failure too: its own message says it all.
  const unions = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath);
  return errors
    .filter((e) => e.keyword === 'anyOf' || !unions.includes(e.instancePath))
    .filter((e) => e.keyword !== 'propertyNames')
    .map((e) => {
      let path = pathOf(e.instancePath);
      if (e.keyword === 'required') path = [...path, String(e.params.missingProperty)];
      // A property name's own fault (e.g. a tag key too long) is reported at that name.
      if (e.propertyName !== undefined) path = [...path, e.propertyName];
      return `${shown(path)}: ${describe(e, path, messages)}`;
    });
}
