import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { resourceKeyOf, type ResourceDef, type ResourceTypeInput, type SchemaNode } from './types.js';

/** Built-in and Karmada kinds that are not defined by the CRD files. Short names are the upstream ones. */
export const BUILTIN_RESOURCES: ResourceTypeInput[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    statusSubresource: true,
    shortNames: ['ns'],
  },
  {
    group: '',
    version: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    statusSubresource: true,
    shortNames: ['svc'],
    categories: ['all'],
  },
  { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  // With the `token` subresource (the TokenRequest API, tokens.ts).
  {
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
  },
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    statusSubresource: true,
    shortNames: ['deploy'],
    categories: ['all'],
    scaleSubresource: true,
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    statusSubresource: true,
    shortNames: ['sts'],
    categories: ['all'],
    scaleSubresource: true,
  },
  {
    group: 'discovery.k8s.io',
    version: 'v1',
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    namespaced: true,
  },
  {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'IngressClass',
    plural: 'ingressclasses',
    namespaced: false,
  },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  {
    group: 'cluster.karmada.io',
    version: 'v1alpha1',
    kind: 'Cluster',
    plural: 'clusters',
    namespaced: false,
    statusSubresource: true,
    crd: true,
  },
  {
    group: 'work.karmada.io',
    version: 'v1alpha2',
    kind: 'ResourceBinding',
    plural: 'resourcebindings',
    namespaced: true,
    statusSubresource: true,
    shortNames: ['rb'],
    crd: true,
  },
  {
    group: 'work.karmada.io',
    version: 'v1alpha1',
    kind: 'Work',
    plural: 'works',
    namespaced: true,
    statusSubresource: true,
    shortNames: ['wk'],
    categories: ['karmada-io'],
    crd: true,
  },
  {
    group: 'policy.karmada.io',
    version: 'v1alpha1',
    kind: 'PropagationPolicy',
    plural: 'propagationpolicies',
    namespaced: true,
    shortNames: ['pp'],
    crd: true,
  },
  {
    group: 'policy.karmada.io',
    version: 'v1alpha1',
    kind: 'ClusterPropagationPolicy',
    plural: 'clusterpropagationpolicies',
    namespaced: false,
    shortNames: ['cpp'],
    crd: true,
  },
  {
    group: 'multicluster.x-k8s.io',
    version: 'v1alpha1',
    kind: 'ServiceExport',
    plural: 'serviceexports',
    namespaced: true,
    statusSubresource: true,
    crd: true,
  },
];

export const DEFAULT_CRD_DIR = fileURLToPath(new URL('../../infra/crds/', import.meta.url));

interface CrdDoc {
  kind?: string;
  spec?: {
    group: string;
    scope: string;
    names: {
      kind: string;
      plural: string;
      singular?: string;
      listKind?: string;
      shortNames?: string[];
      categories?: string[];
    };
    versions: {
      name: string;
      served?: boolean;
      schema?: { openAPIV3Schema?: SchemaNode };
      subresources?: { status?: object };
    }[];
  };
}

/** One resource type per served version of a CustomResourceDefinition object. */
export function crdToInputs(crd: unknown): ResourceTypeInput[] {
  const doc = crd as CrdDoc;
  if (doc.kind !== 'CustomResourceDefinition' || !doc.spec) return [];
  const { group, scope, names } = doc.spec;
  return doc.spec.versions
    .filter((v) => v.served !== false)
    .map((v) => ({
      group,
      version: v.name,
      kind: names.kind,
      plural: names.plural,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: scope === 'Namespaced',
      statusSubresource: v.subresources?.status != null,
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      schema: v.schema?.openAPIV3Schema,
      crd: true,
    }));
}

export function loadCrdFiles(paths: string[]): ResourceTypeInput[] {
  return paths.flatMap((p) =>
    parseAllDocuments(readFileSync(p, 'utf8')).flatMap((d) => crdToInputs(d.toJS())),
  );
}

export function crdFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

/** Every resource type the server knows, addressable by group/version/plural. */
export class ResourceRegistry {
  private readonly byGvr = new Map<string, ResourceDef>();

  register(input: ResourceTypeInput): ResourceDef {
    const def: ResourceDef = {
      group: input.group,
      version: input.version,
      kind: input.kind,
      plural: input.plural,
      singular: input.singular ?? input.kind.toLowerCase(),
      namespaced: input.namespaced,
      statusSubresource: input.statusSubresource ?? false,
      scaleSubresource: input.scaleSubresource ?? false,
      shortNames: input.shortNames ?? [],
      categories: input.categories ?? [],
      crd: input.crd ?? input.schema != null,
      listKind: `${input.kind}List`,
      ...(input.schema ? { schema: input.schema } : {}),
    };
    this.byGvr.set(`${def.group}/${def.version}/${def.plural}`, def);
    return def;
  }

  lookup(group: string, version: string, plural: string): ResourceDef | undefined {
    return this.byGvr.get(`${group}/${version}/${plural}`);
  }

  byKind(apiVersion: string, kind: string): ResourceDef | undefined {
    return this.all().find(
      (d) => (d.group ? `${d.group}/${d.version}` : d.version) === apiVersion && d.kind === kind,
    );
  }

  /** All versions of one resource share storage, as they do in etcd. */
  storageKey(def: ResourceDef): string {
    return resourceKeyOf(def);
  }

  all(): ResourceDef[] {
    return [...this.byGvr.values()];
  }

  /** group → versions, in registration order. */
  groups(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const d of this.byGvr.values()) {
      const versions = out.get(d.group) ?? [];
      if (!versions.includes(d.version)) versions.push(d.version);
      out.set(d.group, versions);
    }
    return out;
  }

  inGroupVersion(group: string, version: string): ResourceDef[] {
    return this.all().filter((d) => d.group === group && d.version === version);
  }
}
