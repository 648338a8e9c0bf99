/**
 * Scheduled orphan sweep (EventBridge): deletes load-balancer stacks this deployment owns whose
 * MultiClusterIngress or MultiClusterService no longer exists, after a grace period.
 */
import { sweepOrphans, type SweepResult } from '../lib/maintenance/sweep.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';

// Either built-in provider can serve this function: each is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

export const handler = lambdaHandler<unknown, SweepResult>(async (_event, context, { signal }) => {
  const runtime = await runtimeFor(context);
  const grace = Number(process.env.SWEEP_GRACE_SECONDS ?? '900');
  if (!Number.isFinite(grace) || grace < 0) {
    throw new Error(
      `SWEEP_GRACE_SECONDS must be a number of seconds, got "${process.env.SWEEP_GRACE_SECONDS}"`,
    );
  }
  const result = await sweepOrphans(runtime.kube, runtime.provider, {
    graceSeconds: grace,
    signal,
    logger,
    dryRun: process.env.SWEEP_DRY_RUN === 'true',
    ...(runtime.config.allowedNamespaces ? { namespaces: runtime.config.allowedNamespaces } : {}),
  });
  logger.info('orphan sweep done', { ...result });
  return result;
});
