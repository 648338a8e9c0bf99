/**
 * Precompiles the `openAPIV3Schema` of the Karmada CRDs in infra/crds/ into standalone ajv
 * validators (lib/generated/mci-validator.js and mcs-validator.js, each with its .d.ts), so
 * functions validate incoming objects without shipping ajv's compiler. Run `npm run gen` after changing a CRD; a unit test fails
 * when the committed file no longer matches what this produces.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
// A CommonJS module: under NodeNext its default import is `module.exports`, whose `default` is the function.
import standalone from 'ajv/dist/standalone/index.js';
import { parse } from 'yaml';
import { AWS_CONFIG_SCHEMA, TENANT_POLICY_CONFIG_SCHEMA } from '../lib/providers/aws/config-schema.js';
import { FAKE_CONFIG_SCHEMA } from '../lib/providers/fake/config-schema.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * One generated module per provider configuration (a bundle splits by module: the aws provider's
 * chunk must not carry the fake provider's validator) → its export name and schema source.
 */
export const CONFIG_VALIDATORS = {
  'aws-config-validator': {
    name: 'validateAwsConfigSchema',
    file: 'lib/providers/aws/config-schema.ts',
    schema: AWS_CONFIG_SCHEMA,
  },
  // Loaded only by a container whose configuration has a tenant policy (tenant-policy.ts).
  'tenant-policy-validator': {
    name: 'validateTenantPolicySchema',
    file: 'lib/providers/aws/config-schema.ts',
    schema: TENANT_POLICY_CONFIG_SCHEMA,
  },
  'fake-config-validator': {
    name: 'validateFakeConfigSchema',
    file: 'lib/providers/fake/config-schema.ts',
    schema: FAKE_CONFIG_SCHEMA,
  },
} as const;
export type ConfigValidatorModule = keyof typeof CONFIG_VALIDATORS;

/**
 * One generated module per CRD → its export name and the CRD file it is compiled from: the
 * MultiClusterService's validator is only read by a container that reconciles one (its controller
 * is a chunk of its own, lib/reconcile/run.ts), so it must not share a module with the MCI's.
 */
export const CRD_VALIDATORS = {
  'mci-validator': {
    name: 'validateMultiClusterIngressSchema',
    file: 'infra/crds/networking.karmada.io_multiclusteringresses.yaml',
  },
  'mcs-validator': {
    name: 'validateMultiClusterServiceSchema',
    file: 'infra/crds/networking.karmada.io_multiclusterservices.yaml',
  },
} as const;
export type CrdValidatorModule = keyof typeof CRD_VALIDATORS;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * RFC 3339 as Kubernetes serialises metav1.Time. A RegExp format is inlined by ajv's standalone
 * output; a function format would need a runtime import of a formats module.
 */
const DATE_TIME = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)$/;

/**
 * Drops `description` (size; the generated code never needs it) and turns the integer formats
 * into bounds: ajv only applies function formats to numbers, and those cannot be inlined into
 * standalone code. int64 needs no check beyond `type: integer` for JSON numbers in JavaScript.
 */
function prepareSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prepareSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'description') continue;
    // `properties` maps field names to schemas: a field called "description" must survive.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, prepareSchema(v)]))
        : prepareSchema(value);
  }
  if (out.type === 'integer' && (out.format === 'int32' || out.format === 'int64')) {
    if (out.format === 'int32') {
      out.minimum = Math.max(typeof out.minimum === 'number' ? out.minimum : INT32_MIN, INT32_MIN);
      out.maximum = Math.min(typeof out.maximum === 'number' ? out.maximum : INT32_MAX, INT32_MAX);
    }
    delete out.format;
  }
  return out;
}

function crdSchema(file: string): unknown {
  const crd = parse(readFileSync(join(ROOT, file), 'utf8')) as {
    spec?: { versions?: Array<{ name: string; schema?: { openAPIV3Schema?: unknown } }> };
  };
  const versions = crd.spec?.versions ?? [];
  if (versions.length !== 1)
    throw new Error(`${file}: expected exactly one version, found ${versions.length}`);
  const schema = versions[0]!.schema?.openAPIV3Schema;
  if (schema == null) throw new Error(`${file}: no openAPIV3Schema`);
  // Status is written by the controllers and validated by the API server; a reconcile decides on
  // metadata and spec alone, so an odd status never blocks it (and the bundle is half the size).
  const prepared = prepareSchema(schema) as { properties?: Record<string, unknown> };
  delete prepared.properties?.status;
  return prepared;
}

/**
 * Hoists large subschemas that occur more than once in a CRD (IngressBackend twice in the MCI's)
 * into schemas of their own, referenced by `$ref`, so
 * ajv emits each as one function instead of repeating its code at every use.
 */
function hoistDuplicates(roots: Record<string, unknown>): {
  roots: Record<string, unknown>;
  defs: Record<string, unknown>;
} {
  const counts = new Map<string, number>();
  const count = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    // Small ones (`metadata: {type: object}`) cost less inline than as a function call.
    if (!Array.isArray(node) && 'properties' in node && JSON.stringify(node).length > 200) {
      const key = JSON.stringify(node);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    for (const child of Object.values(node)) count(child);
  };
  Object.values(roots).forEach(count);

  const defs: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const replace = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(replace);
    const key = JSON.stringify(node);
    if ((counts.get(key) ?? 0) > 1) {
      let name = names.get(key);
      if (name === undefined) {
        name = `def${names.size}`;
        names.set(key, name);
        defs[name] = node; // its own children are duplicated only through its copies
      }
      // A schema of its own (not a fragment of a shared one): ajv compiles it once for both roots.
      return { $ref: name };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v)]));
  };
  const out = Object.fromEntries(Object.entries(roots).map(([name, root]) => [name, replace(root)]));
  return { roots: out, defs };
}

/**
 * Shrinks ajv's output without changing behaviour: drops `schemaPath` from error objects (nothing
 * reads it, and it is the largest part of every error literal), and replaces references into the
 * embedded schema objects (enum `allowedValues`) with their literal value, so that a whole schema
 * object is not kept in the bundle just for that.
 */
function shrink(code: string): string {
  const schemas = new Map<string, unknown>();
  for (const m of code.matchAll(/^const (schema\d+) = (.*);$/gm)) schemas.set(m[1]!, JSON.parse(m[2]!));
  let out = code.replace(/schemaPath:"(?:[^"\\]|\\.)*",/g, '');
  out = out.replace(/\b(schema\d+)((?:\.[A-Za-z_$][\w$]*)+)/g, (whole, name: string, path: string) => {
    let cur: unknown = schemas.get(name);
    for (const seg of path.slice(1).split('.')) cur = (cur as Record<string, unknown> | undefined)?.[seg];
    if (cur === undefined) throw new Error(`cannot resolve ${whole} in the generated code`);
    // `properties` is only read by additionalProperties' own-key test (func.call(props, key)):
    // its keys are all that test needs, not every property's schema.
    if (path.endsWith('.properties') && cur !== null && typeof cur === 'object') {
      return JSON.stringify(Object.fromEntries(Object.keys(cur).map((k) => [k, true])));
    }
    return JSON.stringify(cur);
  });
  for (const name of schemas.keys()) {
    const decl = new RegExp(`^const ${name} = .*;\\n`, 'm');
    if (!new RegExp(`\\b${name}\\b`).test(out.replace(decl, ''))) out = out.replace(decl, '');
  }
  if (out.includes('schemaPath')) throw new Error('a schemaPath was left in the generated code');
  return out;
}

const header = (sources: string[]) =>
  `// Generated by scripts/gen-validators.ts from ${sources.join(', ')}.\n` +
  '// DO NOT EDIT: change the sources or the generator and run `npm run gen`.\n';

const dts = (head: string, names: string[], wordedBy: string) => `${head}
/** An ajv error object, compiled without \`message\` and \`schemaPath\` (${wordedBy} words the messages). */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  /** Set when the fault is in a property's name (propertyNames), not in its value. */
  propertyName?: string;
}

export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}
${names.map((name) => `\nexport declare const ${name}: SchemaValidator;`).join('')}
`;

function newAjv(): Ajv {
  return new Ajv({
    strict: false, // the CRDs carry x-kubernetes-* keywords ajv does not know
    allErrors: true, // report every problem at once, not the first
    messages: false, // the callers word the messages; ajv's strings would only add bytes
    inlineRefs: false, // keep hoisted duplicates as shared functions (see hoistDuplicates)
    // Count UTF-16 units instead of pulling in ajv's ucs2length runtime helper: limits differ
    // only for astral characters.
    unicode: false,
    code: { source: true, esm: true, lines: true },
    formats: { 'date-time': DATE_TIME },
    // `unicode` is deprecated (not removed) in ajv 8; keep its warning out of the output.
    logger: { log: console.log, warn: () => undefined, error: console.error },
  });
}

function standaloneCode(ajv: Ajv, names: string[]): string {
  const body = shrink(standalone.default(ajv, Object.fromEntries(names.map((n) => [n, n]))));
  if (/\brequire\(|\bimport\b/.test(body)) {
    throw new Error('the generated validators must not import anything at runtime');
  }
  return body;
}

/** Returns one CRD's generated module source and its declarations; pure, so a test can diff them. */
export function generateValidators(module: CrdValidatorModule): { js: string; dts: string } {
  const { name, file } = CRD_VALIDATORS[module];
  const ajv = newAjv();
  const hoisted = hoistDuplicates({ [name]: crdSchema(file) });
  for (const [def, schema] of Object.entries(hoisted.defs)) ajv.addSchema(schema as object, def);
  for (const [root, schema] of Object.entries(hoisted.roots)) ajv.addSchema(schema as object, root);
  const head = header([file]);
  const body = standaloneCode(ajv, [name]);
  return { js: `${head}${body}\n`, dts: dts(head, [name], 'lib/karmada/validate.ts') };
}

/**
 * A provider configuration's validator (lib/providers/config-issues.ts words its errors): a few
 * KiB of generated code instead of a schema library in every bundle.
 */
export function generateConfigValidator(module: ConfigValidatorModule): { js: string; dts: string } {
  const { name, file, schema } = CONFIG_VALIDATORS[module];
  const ajv = newAjv();
  ajv.addSchema(schema, name);
  const head = header([file]);
  return { js: `${head}${standaloneCode(ajv, [name])}\n`, dts: dts(head, [name], 'config-issues.ts') };
}

function main(): void {
  const outputs: Array<[{ js: string; dts: string }, string, string]> = [
    ...Object.keys(CRD_VALIDATORS).map((m): [{ js: string; dts: string }, string, string] => [
      generateValidators(m as CrdValidatorModule),
      join(ROOT, `lib/generated/${m}.js`),
      join(ROOT, `lib/generated/${m}.d.ts`),
    ]),
    ...Object.keys(CONFIG_VALIDATORS).map((m): [{ js: string; dts: string }, string, string] => [
      generateConfigValidator(m as ConfigValidatorModule),
      join(ROOT, `lib/generated/${m}.js`),
      join(ROOT, `lib/generated/${m}.d.ts`),
    ]),
  ];
  for (const [generated, js, dtsFile] of outputs) {
    mkdirSync(dirname(js), { recursive: true });
    writeFileSync(js, generated.js);
    writeFileSync(dtsFile, generated.dts);
    console.log(`wrote ${relative(ROOT, js)} (${generated.js.length} bytes) and ${relative(ROOT, dtsFile)}`);
  }
}

// Only when run as a script: the unit test imports generateValidators() to diff the output.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
