/**
 * Tells a newcomer what the functions are doing, in plain lines: finalizers added and removed,
 * load balancer status written, Events recorded, and the change plan of each reconcile. It
 * list+watches the API server like `kubectl get -w` (the forwarder's reflector: after a restart
 * or a broken watch it resumes where it was, so nothing already told is told again) and reads
 * the functions' log lines (they run in this process).
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { Reflector } from '../../lib/forwarder/reflector.js';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import { createMetrics } from '../../lib/forwarder/metrics.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { ChangeNotification } from '../../lib/notification/types.js';
import { tapJsonLogs, type LogDecision } from './log-tap.js';
import { Narration, type CoreEvent, type Phase } from './narration.js';

export interface NarratorOptions {
  /**
   * Print every log line of the functions and the forwarder as it is (JSON), besides the
   * narration; without it only warnings and errors are told, in words.
   */
  verbose?: boolean;
}

const LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL'];

export interface Narrator {
  /** Starts telling what happens in that API server. */
  watch(kc: KubeConfig): void;
  /** Stops watching; told log lines flow as before. */
  stop(): void;
}

/** Tells the functions' log lines from now on (start it before them); `watch` adds the API server. */
export function startNarrator(say: (line: string) => void, options: NarratorOptions = {}): Narrator {
  const narration = new Narration(say);
  const reflectors: Reflector[] = [];
  const untap = tapJsonLogs((entry): LogDecision => {
    const told = narration.log(entry);
    // The JSON itself is for --verbose; without it a warning or an error is told in words.
    if (options.verbose) return 'print';
    if (!told && LEVELS.indexOf(String(entry.level)) >= LEVELS.indexOf('WARN')) narration.logLine(entry);
    return 'drop';
  });
  return {
    watch: (kc) => watchApi(kc, narration, say, reflectors),
    stop() {
      for (const r of reflectors) r.stop();
      narration.flush();
      untap();
    },
  };
}

function watchApi(
  kc: KubeConfig,
  narration: Narration,
  say: (line: string) => void,
  reflectors: Reflector[],
): void {
  const api = createKubeApi(kc);
  const metrics = createMetrics({ defaultMetrics: false });
  const reflect = (type: ResourceType, onChange: (phase: Phase, n: ChangeNotification) => void) => {
    const reflector: Reflector = new Reflector({
      type,
      api,
      metrics,
      logger: silentLogger,
      emit: (n) => {
        const obj = n.object;
        const old = n.oldObject;
        // A re-list reports every object again: only what changed since is news.
        if (old && obj && old.metadata.resourceVersion === obj.metadata.resourceVersion) return;
        const phase: Phase = !reflector.hasSynced
          ? 'LISTED'
          : n.change === 'deleted'
            ? 'DELETED'
            : n.change === 'modified' || old
              ? 'MODIFIED'
              : 'ADDED';
        onChange(phase, n);
      },
    });
    reflector.start();
    reflectors.push(reflector);
  };
  for (const type of [Resources.MultiClusterIngress, Resources.MultiClusterService]) {
    reflect(type, (phase, n) => {
      if (n.object) narration.object(phase, { ...n.object, kind: type.kind } as KubeObject);
    });
  }
  let earlier = 0;
  reflect(Resources.Event, (phase, n) => {
    // Events kept from an earlier run were told then.
    if (phase === 'LISTED') earlier++;
    else if (phase !== 'DELETED' && n.object) narration.event(n.object as CoreEvent);
  });
  void reflectors.at(-1)?.synced.then(() => {
    if (earlier > 0) say(`(${earlier} Events from earlier runs are not repeated: kubectl get events)`);
  });
}
