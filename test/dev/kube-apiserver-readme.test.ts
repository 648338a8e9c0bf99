/**
 * What the READMEs say the Kubernetes API stand-in serves is what it serves: the built-in kinds
 * they list are those of its registry (what `kubectl api-resources` shows besides Karmada's kinds).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RESOURCES } from '../../dev/kube-apiserver/registry.js';
import { startKubeApiServer } from '../../dev/kube-apiserver/index.js';

const ROOT = join(import.meta.dirname, '../..');
/** Kubernetes' own API groups (the core group is ''). */
const kubernetesGroup = (group: string) => group === '' || !group.includes('.') || group.endsWith('.k8s.io');
const builtin = BUILTIN_RESOURCES.filter((r) => kubernetesGroup(r.group)).map((r) => r.kind);

/** The kinds named in the parenthesis after `marker`, flattened over line breaks. */
function listedAfter(file: string, marker: RegExp): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/\s+/g, ' ');
  const list = marker.exec(text)?.[1];
  expect(list, `${file}: ${marker}`).toBeDefined();
  return list!.split(/,\s*|\s+and\s+/).map((k) => k.trim());
}

describe('the stand-in’s READMEs', () => {
  it('list exactly the built-in kinds its registry has', () => {
    expect(builtin).toContain('ConfigMap');
    const top = listedAfter('README.md', /only the built-in kinds the project uses \(([^:)]+)[:)]/);
    expect([...top].sort()).toEqual([...builtin].sort());
    const own = listedAfter('dev/kube-apiserver/README.md', /\(it has ([^)]+)\)/);
    expect([...own].sort()).toEqual([...builtin].sort());
  });

  it('serves each of them in discovery, as kubectl api-resources reads it', async () => {
    const api = await startKubeApiServer({ port: 0 });
    try {
      const kinds: string[] = [];
      for (const path of [
        '/api/v1',
        ...new Set(BUILTIN_RESOURCES.filter((r) => r.group).map((r) => `/apis/${r.group}/${r.version}`)),
      ]) {
        const list = (await (await fetch(`${api.url}${path}`)).json()) as {
          resources: Array<{ kind: string; name: string }>;
        };
        kinds.push(...list.resources.filter((r) => !r.name.includes('/')).map((r) => r.kind));
      }
      for (const kind of builtin) expect(kinds).toContain(kind);
    } finally {
      await api.close();
    }
  });
});
