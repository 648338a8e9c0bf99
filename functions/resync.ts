/**
 * Scheduled resync (EventBridge): the fingerprint pass (a reconcile on the notification queue for
 * each MultiClusterIngress or MultiClusterService whose stack differs from what it should be) and
 * this run's slice of deep drift checks (a `resync` notification, the full check), within its
 * share of the ELBv2 budget; every Cluster gets its `resync`. It loads the provider for one thing
 * only: its stacks' recorded fingerprints, read in bulk.
 */
import { deepChecksPerRun, resyncPass, type ResyncPassResult } from '../lib/maintenance/resync.js';
import { SqsSender } from '../lib/notification/sqs.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { loadResyncConfig } from '../lib/runtime/config.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';

// The configured provider answers the fingerprint pass; it is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

export const handler = lambdaHandler<unknown, ResyncPassResult>(async (_event, context, { signal }) => {
  const config = loadResyncConfig();
  const runtime = await runtimeFor(context);
  const sender = new SqsSender({ queueUrl: config.queueUrl, clientConfig: { useQueueUrlAsEndpoint: false } });
  try {
    const periodMs = config.periodSeconds * 1000;
    const deepCheckCalls = runtime.provider.fingerprints()?.deepCheckCalls;
    const result = await resyncPass(runtime.kube, runtime.provider, sender, logger, {
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
    sender.close();
  }
});
