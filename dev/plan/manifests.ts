/**
 * Reads manifests the way `kubectl apply -f` does: files or directories (the directory's
 * `.yaml`, `.yml` and `.json` files, not its subdirectories), several documents per file, `List`
 * objects unpacked, and a namespace filled in for namespaced objects that name none.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { resourceFor } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';

/** A problem with the command line or its files: printed as one line, without a stack trace. */
export class UsageError extends Error {}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Built-in kinds outside the project's own resource list that live outside namespaces; everything
 * else unknown is treated as namespaced, as most kinds are.
 */
const CLUSTER_SCOPED_KINDS = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
  'RuntimeClass',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'APIService',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'ClusterOverridePolicy',
  'ClusterResourceBinding',
]);

export function isClusterScoped(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): boolean {
  const known = resourceFor(obj.apiVersion ?? '', obj.kind ?? '');
  return known ? !known.namespaced : CLUSTER_SCOPED_KINDS.has(obj.kind ?? '');
}

/** The files a path names: itself, or a directory's manifest files in name order. */
export function manifestFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or directory`);
  }
  if (!stat.isDirectory()) return [path];
  const files = readdirSync(path, { withFileTypes: true })
    .filter((e) => e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name)))
    .map((e) => join(path, e.name))
    .sort();
  if (files.length === 0) throw new UsageError(`${path}: no .yaml, .yml or .json files in this directory`);
  return files;
}

/** Every object of one file's documents; a YAML error names the file and line. */
export function parseManifestFile(file: string, text: string): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0]?.line;
      const message = (error.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      throw new UsageError(`${file}${line ? `:${line}` : ''}: ${message}`);
    }
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new UsageError(`${file}: a document is not a Kubernetes object`);
    }
    const obj = value as KubeObject & { items?: unknown };
    if (obj.kind === 'List' || (obj.kind?.endsWith('List') && Array.isArray(obj.items))) {
      objects.push(...((obj.items ?? []) as KubeObject[]));
    } else {
      objects.push(obj);
    }
  }
  for (const obj of objects) {
    if (!obj.kind || !obj.apiVersion || typeof obj.metadata?.name !== 'string') {
      throw new UsageError(`${file}: every object needs apiVersion, kind and metadata.name`);
    }
  }
  return objects;
}

/**
 * The objects of every path, in order; namespaced objects without `metadata.namespace` get
 * `namespace` (kubectl's `default`, or `-n`).
 */
export function loadManifests(paths: readonly string[], namespace = 'default'): KubeObject[] {
  const objects: KubeObject[] = [];
  for (const path of paths) {
    for (const file of manifestFiles(path)) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        throw new UsageError(`${file}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`);
      }
      objects.push(...parseManifestFile(file, text));
    }
  }
  return objects.map((obj) =>
    isClusterScoped(obj) || obj.metadata.namespace
      ? obj
      : { ...obj, metadata: { ...obj.metadata, namespace } },
  );
}
