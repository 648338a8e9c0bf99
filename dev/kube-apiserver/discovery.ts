import type { ResourceRegistry } from './registry.js';
import type { ResourceDef } from './types.js';

export const VERSION_INFO = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-standin',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function apiGroup(name: string, versions: string[]): object {
  const list = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
  return { name, versions: list, preferredVersion: list[0] };
}

export function apiGroupList(registry: ResourceRegistry): object {
  const groups = [...registry.groups()].filter(([g]) => g !== '').map(([g, vs]) => apiGroup(g, vs));
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroupDoc(registry: ResourceRegistry, group: string): object | undefined {
  const versions = registry.groups().get(group);
  return versions && group !== ''
    ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) }
    : undefined;
}

function resourceEntries(def: ResourceDef): object[] {
  const main: Record<string, unknown> = {
    name: def.plural,
    singularName: def.singular,
    namespaced: def.namespaced,
    kind: def.kind,
    verbs: VERBS,
  };
  if (def.shortNames.length > 0) main.shortNames = def.shortNames;
  if (def.categories.length > 0) main.categories = def.categories;
  const entries: object[] = [main];
  if (def.statusSubresource) {
    entries.push({
      name: `${def.plural}/status`,
      singularName: '',
      namespaced: def.namespaced,
      kind: def.kind,
      verbs: ['get', 'patch', 'update'],
    });
  }
  if (def.scaleSubresource) {
    entries.push({
      name: `${def.plural}/scale`,
      singularName: '',
      namespaced: def.namespaced,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  }
  if (def.group === '' && def.plural === 'serviceaccounts') {
    entries.push({
      name: 'serviceaccounts/token',
      singularName: '',
      namespaced: true,
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      verbs: ['create'],
    });
  }
  return entries;
}

export function apiResourceList(
  registry: ResourceRegistry,
  group: string,
  version: string,
): object | undefined {
  const defs = registry.inGroupVersion(group, version);
  if (defs.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: defs.flatMap(resourceEntries),
  };
}
