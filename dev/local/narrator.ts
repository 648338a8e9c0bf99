/**
 * Tells a newcomer what the functions are doing, in plain lines: finalizers added and removed,
 * load balancer status written, Events recorded. It watches the API server like `kubectl get -w`.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Watch } from '@kubernetes/client-node';
import type { KubeObject } from '../../lib/kube/types.js';
import { canonical } from '../../lib/util/equal.js';

interface Watched extends KubeObject {
  status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

interface CoreEvent extends KubeObject {
  involvedObject?: { kind?: string; namespace?: string; name?: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
}

const PATHS: Array<[string, string]> = [
  ['mci', '/apis/networking.karmada.io/v1alpha1/multiclusteringresses'],
  ['mcs', '/apis/networking.karmada.io/v1alpha1/multiclusterservices'],
];

export function startNarrator(kc: KubeConfig, say: (line: string) => void): () => void {
  const watch = new Watch(kc);
  const seen = new Map<string, Watched>();
  const aborts: AbortController[] = [];
  let stopped = false;
  const watchPath = async (path: string, onEvent: (phase: string, obj: KubeObject) => void) => {
    if (stopped) return;
    aborts.push(
      await watch.watch(path, {}, onEvent, () => {
        if (!stopped) setTimeout(() => void watchPath(path, onEvent), 200);
      }),
    );
  };
  for (const [short, path] of PATHS) {
    void watchPath(path, (phase, raw) => {
      const obj = raw as Watched;
      const key = `${short} ${obj.metadata.namespace}/${obj.metadata.name}`;
      const before = seen.get(key);
      if (phase === 'DELETED') {
        seen.delete(key);
        say(`${key}: deleted from the API server`);
        return;
      }
      seen.set(key, obj);
      if (!before) {
        say(`${key}: ${phase === 'ADDED' ? 'seen' : 'changed'}`);
      }
      const fin = (o?: KubeObject) => o?.metadata.finalizers ?? [];
      for (const f of fin(obj)) if (!fin(before).includes(f)) say(`${key}: finalizer ${f} added`);
      for (const f of fin(before)) if (!fin(obj).includes(f)) say(`${key}: finalizer ${f} removed`);
      if (obj.metadata.deletionTimestamp && !before?.metadata.deletionTimestamp)
        say(`${key}: deletion requested`);
      const lb = obj.status?.loadBalancer;
      if (canonical(lb) !== canonical(before?.status?.loadBalancer)) {
        const addrs = (lb?.ingress ?? []).map((i) => i.hostname ?? i.ip).join(', ');
        say(`${key}: status.loadBalancer = ${addrs || '(empty)'}`);
      }
    });
  }
  void watchPath('/api/v1/events', (phase, raw) => {
    const e = raw as CoreEvent;
    if (phase === 'DELETED') return;
    const o = e.involvedObject ?? {};
    const times = (e.count ?? 1) > 1 ? ` (x${e.count})` : '';
    say(`event on ${o.kind} ${o.namespace}/${o.name}: ${e.type} ${e.reason}: ${e.message}${times}`);
  });
  return () => {
    stopped = true;
    for (const a of aborts) a.abort();
  };
}
