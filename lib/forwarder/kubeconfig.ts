/**
 * The forwarder's kubeconfig for the Karmada API server. Two things differ from a plain
 * `KubeConfig.loadFromFile`:
 * - A malformed file is reported by the first line of the parser's message, cut and redacted: the
 *   YAML parser quotes the offending input, which can be the token itself.
 * - A user with `token-file` is re-read while the process runs (client-node's token-file
 *   provider reads it again every minute), so the short-lived token that infra/forwarder's
 *   rotation mints (`kubectl create token --duration …`, the TokenRequest API) and writes into the
 *   mounted Secret is picked up without a restart. A static `token` never changes; the manifests
 *   no longer ship one that never expires.
 */
import { readFileSync } from 'node:fs';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { parse as parseYaml } from 'yaml';
import { safeErrorLine } from '../log/redact.js';
import { ConfigError } from './config.js';

/** `users[].user.token-file` by user name (client-node reads the file once and forgets the path). */
function tokenFiles(text: string): Map<string, string> {
  const doc = parseYaml(text) as { users?: Array<{ name?: string; user?: Record<string, unknown> }> } | null;
  const out = new Map<string, string>();
  for (const u of doc?.users ?? []) {
    const file = u.user?.['token-file'];
    if (u.name && typeof file === 'string' && file && u.user?.token === undefined) out.set(u.name, file);
  }
  return out;
}

/** client-node's token-file provider (FileAuth, re-read every minute), as loadFromCluster configures it. */
function renewing(user: User, tokenFile: string | undefined): User {
  if (!tokenFile || user.authProvider || user.exec) return user;
  const { token: _readOnce, ...rest } = user;
  return { ...rest, authProvider: { name: 'tokenFile', config: { tokenFile } } };
}

export function loadForwarderKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig();
  const source = path ?? 'default locations ($KUBECONFIG, ~/.kube/config, in-cluster)';
  let files = new Map<string, string>();
  try {
    // loadFromDefault reads $KUBECONFIG, then ~/.kube/config, then the in-cluster service account.
    if (path) {
      const text = readFileSync(path, 'utf8');
      kc.loadFromString(text);
      files = tokenFiles(text);
    } else kc.loadFromDefault();
  } catch (err) {
    throw new ConfigError(`cannot load kubeconfig from ${source}: ${safeErrorLine(err)}`);
  }
  if (!kc.getCurrentCluster()) throw new ConfigError(`kubeconfig from ${source} has no current cluster`);
  if (!files.size) return kc;
  const out = new KubeConfig();
  out.loadFromOptions({
    clusters: kc.clusters,
    users: kc.users.map((u) => renewing(u, files.get(u.name))),
    contexts: kc.contexts,
    currentContext: kc.getCurrentContext(),
  });
  return out;
}
