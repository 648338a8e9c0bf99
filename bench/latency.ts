/**
 * Notification → status-written latency, locally with the fake provider: the local pipeline's
 * HTTP function (the deployed handler code) against the Kubernetes API stand-in. Each sample
 * creates a MultiClusterIngress, POSTs its notification, and stops the clock when its
 * status.loadBalancer can be read back from the API server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPipeline } from '../dev/local/pipeline.js';
import { minimalIngress } from '../dev/local/scenario.js';
import { Resources } from '../lib/kube/resources.js';
import type { MultiClusterIngress } from '../lib/karmada/types.js';
import { percentile, type Figure } from './report.js';

export async function benchLatency(samples = 200): Promise<Figure[]> {
  const pipeline = await startPipeline({
    stateDir: mkdtempSync(join(tmpdir(), 'bench-latency-')),
    seed: true,
    logLevel: 'SILENT',
    notificationSource: 'none',
  });
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const obj = { ...minimalIngress(`bench-${i}`) };
      await pipeline.kube.create(Resources.MultiClusterIngress, obj);
      const t0 = performance.now();
      const res = await fetch(pipeline.functionUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'notifications.multicluster.karmada.io/v1',
          kind: 'ChangeNotification',
          change: 'added',
          ref: { apiVersion: obj.apiVersion, kind: obj.kind, namespace: 'default', name: `bench-${i}` },
        }),
      });
      await res.text();
      for (;;) {
        const mci = await pipeline.kube.get<MultiClusterIngress>(
          Resources.MultiClusterIngress,
          'default',
          `bench-${i}`,
        );
        if (mci?.status?.loadBalancer?.ingress?.length) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      times.push(performance.now() - t0);
    }
  } finally {
    await pipeline.close();
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);
  return [
    {
      group: 'lifecycle (fake provider, local)',
      name: `notification → status written p50 (${samples} MCIs)`,
      value: p50,
      unit: 'ms',
      target: '≤ 300 ms',
      met: p50 <= 300,
    },
    {
      group: 'lifecycle (fake provider, local)',
      name: 'notification → status written p99',
      value: p99,
      unit: 'ms',
    },
  ];
}
