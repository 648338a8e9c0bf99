import { PROTOBUF, PROTOBUF_KINDS } from './protobuf.js';
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from './registry.js';
import type { ResourceDef } from './types.js';

/** `io.karmada.networking.v1alpha1.MultiClusterIngress`, the way kube-apiserver names CRD schemas. */
function schemaName(def: ResourceDef): string {
  const group = def.group ? def.group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${group}.${def.version}.${def.kind}`;
}

const gvPath = (group: string, version: string): string =>
  group ? `apis/${group}/${version}` : `api/${version}`;

function operations(def: ResourceDef, ref: string, list: boolean): Record<string, unknown> {
  const gvk = { group: def.group, version: def.version, kind: def.kind };
  const param = (name: string): object => ({
    name,
    in: 'query',
    schema: { type: 'string', uniqueItems: true },
  });
  // Exactly the body media types the stand-in decodes (protobuf only for kubectl's generators' kinds).
  const bodyTypes = [
    'application/json',
    'application/yaml',
    ...(def.group === '' && PROTOBUF_KINDS.includes(def.kind) ? [PROTOBUF] : []),
  ];
  const body = { content: Object.fromEntries(bodyTypes.map((t) => [t, { schema: { $ref: ref } }])) };
  const ok = { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: ref } } } } };
  const op = (id: string, extra: object = {}): object => ({
    operationId: `${id}${def.kind}`,
    'x-kubernetes-group-version-kind': gvk,
    responses: ok,
    ...extra,
  });
  if (list) {
    return {
      get: op('list', {
        parameters: [
          param('labelSelector'),
          param('fieldSelector'),
          param('limit'),
          param('continue'),
          param('watch'),
        ],
      }),
      post: op('create', {
        requestBody: body,
        parameters: [param('dryRun'), param('fieldManager'), param('fieldValidation')],
      }),
    };
  }
  const writeParams = [param('dryRun'), param('fieldManager'), param('fieldValidation')];
  // No strategic-merge-patch+json here: kubectl would then compute strategic patches from these
  // schemas, which for built-in kinds are open; without it kubectl uses its compiled-in types.
  const patchBody = {
    content: Object.fromEntries(
      ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'].map(
        (t) => [t, { schema: { type: 'object' } }],
      ),
    ),
  };
  return {
    get: op('read'),
    put: op('replace', { requestBody: body, parameters: writeParams }),
    patch: op('patch', { requestBody: patchBody, parameters: [...writeParams, param('force')] }),
    delete: op('delete', { parameters: [param('dryRun')] }),
  };
}

/** An OpenAPI v3 document for one group-version: enough for kubectl to trust server-side validation. */
export function groupVersionDocument(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object | undefined {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const def of defs) {
    const name = schemaName(def);
    const ref = `#/components/schemas/${name}`;
    const base = `/${gvPath(group, version)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.plural}`;
    paths[base] = operations(def, ref, true);
    paths[`${base}/{name}`] = operations(def, ref, false);
    if (def.statusSubresource) paths[`${base}/{name}/status`] = operations(def, ref, false);
    // Built-in kinds get an open schema: kubectl then computes strategic patches from its compiled-in types.
    schemas[name] = {
      ...(def.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      'x-kubernetes-group-version-kind': [{ group: def.group, version: def.version, kind: def.kind }],
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

export const documentHash = (doc: object): string =>
  createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase();

export function openApiIndex(registry: ResourceRegistry): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [group, versions] of registry.groups()) {
    for (const version of versions) {
      const doc = groupVersionDocument(registry, group, version);
      if (!doc) continue;
      const p = gvPath(group, version);
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${documentHash(doc)}` };
    }
  }
  return { paths };
}
