/**
 * Scheduled orphan sweep (EventBridge): deletes load-balancer stacks this deployment owns whose
 * MultiClusterIngress or MultiClusterService no longer exists, after a grace period.
 */
import { sweepOrphans, type SweepResult } from '../lib/maintenance/sweep.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { loadSweepConfig } from '../lib/runtime/config.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';

// Either built-in provider can serve this function: each is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

export const handler = lambdaHandler<unknown, SweepResult>(async (_event, context, { signal }) => {
  const runtime = await runtimeFor(context);
  const sweep = loadSweepConfig();
  const result = await sweepOrphans(runtime.kube, runtime.provider, {
    graceSeconds: sweep.graceSeconds,
    signal,
    logger,
    dryRun: sweep.dryRun,
    ...(runtime.config.allowedNamespaces ? { namespaces: runtime.config.allowedNamespaces } : {}),
  });
  logger.info('orphan sweep done', { ...result });
  return result;
});
