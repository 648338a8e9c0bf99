import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { StatusCause } from './errors.js';
import type { KObject, SchemaNode } from './types.js';

/** ObjectMeta fields; anything else under metadata is pruned (or rejected in strict mode). */
const OBJECT_META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);

const isObj = (v: unknown): v is Record<string, unknown> =>
  v != null && typeof v === 'object' && !Array.isArray(v);

/** `spec.rules[0].http` from path segments. */
export function fieldPath(parts: (string | number)[]): string {
  return parts.reduce<string>(
    (acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p),
    '',
  );
}

/**
 * Drops fields the structural schema does not declare, as kube-apiserver does, and returns their
 * paths (what strict field validation reports).
 */
export function prune(obj: KObject, schema: SchemaNode): string[] {
  const unknown: string[] = [];
  const walk = (value: unknown, node: SchemaNode | undefined, path: (string | number)[]): void => {
    if (!node) return;
    if (Array.isArray(value)) {
      if (node.items) value.forEach((v, i) => walk(v, node.items, [...path, i]));
      return;
    }
    if (!isObj(value)) return;
    const props = node.properties;
    const additional = node.additionalProperties;
    for (const key of Object.keys(value)) {
      const child = props?.[key];
      if (child) walk(value[key], child, [...path, key]);
      else if (isObj(additional)) walk(value[key], additional, [...path, key]);
      else if (
        !node['x-kubernetes-preserve-unknown-fields'] &&
        additional !== true &&
        !(node['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(key))
      ) {
        unknown.push(fieldPath([...path, key]));
        delete value[key];
      }
    }
  };
  const { apiVersion: _a, kind: _k, metadata: _m, ...rootProps } = schema.properties ?? {};
  walk(
    obj,
    {
      ...schema,
      properties: {
        ...rootProps,
        apiVersion: {},
        kind: {},
        metadata: { 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    [],
  );
  for (const key of Object.keys(obj.metadata)) {
    if (!OBJECT_META_FIELDS.has(key)) {
      unknown.push(`metadata.${key}`);
      delete obj.metadata[key];
    }
  }
  return unknown;
}

const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
ajv.addFormat('int32', {
  type: 'number',
  validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
});
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/);
for (const f of [
  'byte',
  'uri',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'duration',
  'date',
  'password',
  'email',
]) {
  ajv.addFormat(f, true);
}

const compiled = new WeakMap<SchemaNode, ValidateFunction>();

const typeName = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

function toCause(err: ErrorObject): StatusCause | undefined {
  const parts = err.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const field = fieldPath(parts);
  const p = err.params as Record<string, unknown>;
  const data = err.data;
  switch (err.keyword) {
    case 'required': {
      const missing = fieldPath([...parts, String(p.missingProperty)]);
      return { reason: 'FieldValueRequired', message: 'Required value', field: missing };
    }
    case 'type':
      return {
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "${typeName(data)}": ${field} in body must be of type ${String(p.type)}: ${JSON.stringify(data)}`,
        field,
      };
    case 'enum':
      return {
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${JSON.stringify(data)}: supported values: ${((p.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)).join(', ')}`,
        field,
      };
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return undefined;
    default:
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(data)}: ${field} in body ${err.message ?? 'is invalid'}`,
        field,
      };
  }
}

/** Schema violations as kube-apiserver's `details.causes`; empty when valid. */
export function validate(obj: KObject, schema: SchemaNode): StatusCause[] {
  let fn = compiled.get(schema);
  if (!fn) {
    // metadata is validated by the server itself, not by the CRD schema.
    const { metadata: _m, ...props } = schema.properties ?? {};
    fn = ajv.compile({ ...schema, properties: props });
    compiled.set(schema, fn);
  }
  if (fn(obj)) return [];
  return (fn.errors ?? []).flatMap((e) => {
    const c = toCause({ ...e, data: dataAt(obj, e.instancePath) });
    return c ? [c] : [];
  });
}

function dataAt(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    cur = Array.isArray(cur) ? cur[Number(key)] : isObj(cur) ? cur[key] : undefined;
  }
  return cur;
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The name checks kube-apiserver applies to every object (RFC 1123 subdomain). */
export function validateName(name: string): StatusCause[] {
  if (name.length <= 253 && DNS_SUBDOMAIN.test(name)) return [];
  return [
    {
      reason: 'FieldValueInvalid',
      message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      field: 'metadata.name',
    },
  ];
}
