/**
 * Direct-invoke handler: one notification, or `{ notifications: [...] }`. Fails the invocation when
 * any object failed, so Lambda's asynchronous retries and on-failure destination apply.
 */
import type { NormalizedNotification } from '../lib/notification/types.js';
import { normalizeMany } from '../lib/notification/parse.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { lambdaHandler, runtimeFor } from '../lib/runtime/lambda.js';
import { processBatch } from '../lib/runtime/process.js';
import { publicResults, type PublicItemResult } from '../lib/runtime/public-results.js';

// Either built-in provider can serve this function: each is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

/** Most objects one invocation reconciles; a cluster-wide fan-out beyond it goes through the queue. */
const MAX_OBJECTS_PER_INVOCATION = 500;

export const handler = lambdaHandler<unknown, { results: PublicItemResult[] }>(
  async (event, context, { signal }) => {
    const runtime = await runtimeFor(context);
    const notifications: NormalizedNotification[] = normalizeMany(event);
    const results = await processBatch(
      runtime,
      notifications.map((n, i) => ({ id: String(i), notifications: () => [n] })),
      {
        signal,
        holder: context.awsRequestId,
        maxRequests: MAX_OBJECTS_PER_INVOCATION,
        remainingMs: () => context.getRemainingTimeInMillis(),
      },
    );
    const failed = results.filter((r) => !r.ok);
    // The error reaches the caller (and async destinations): counts and the request ID only; the
    // details are in the logs.
    if (failed.length) {
      throw new Error(
        `reconcile failed for ${failed.length} of ${results.length} notifications; see the function's logs for request ${context.awsRequestId}`,
      );
    }
    return { results: publicResults(results, context.awsRequestId) };
  },
);
