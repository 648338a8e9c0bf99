/**
 * Scheduled resync (EventBridge): the fingerprint pass (a reconcile on the notification queue for
 * each MultiClusterIngress or MultiClusterService whose stack differs from what it should be) and
 * this run's slice of deep drift checks (a `resync` notification, the full check), within its
 * share of the ELBv2 budget; every Cluster gets its `resync`.
 */
import { SqsSink } from '../lib/forwarder/sinks/sqs.js';
import { deepChecksPerRun, resyncPass, type ResyncPassResult } from '../lib/maintenance/resync.js';
import { loadResyncConfig } from '../lib/runtime/config.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';

export const handler = lambdaHandler<unknown, ResyncPassResult>(async (_event, context, { signal }) => {
  const config = loadResyncConfig();
  const runtime = await runtimeFor(context);
  const sink = new SqsSink({ queueUrl: config.queueUrl, clientConfig: { useQueueUrlAsEndpoint: false } });
  try {
    const periodMs = config.periodSeconds * 1000;
    const deepCheckCalls = runtime.provider.fingerprints()?.deepCheckCalls;
    const result = await resyncPass(runtime.kube, runtime.provider, sink, logger, {
      ...(runtime.config.allowedNamespaces ? { namespaces: runtime.config.allowedNamespaces } : {}),
      providerIngressClass: runtime.config.providerIngressClass,
      ctx: { signal, logger },
      deep: {
        intervalMs: config.deepIntervalSeconds * 1000,
        periodMs,
        ...(config.elbv2CallsPerSecond && deepCheckCalls
          ? {
              maxPerRun: deepChecksPerRun(
                config.elbv2CallsPerSecond,
                config.deepBudgetShare,
                periodMs,
                deepCheckCalls,
              ),
            }
          : {}),
      },
    });
    if (result.failed) throw new Error(`${result.failed} resync notifications could not be queued`);
    return result;
  } finally {
    sink.close();
  }
});
