/**
 * Direct-invoke handler: one notification, or `{ notifications: [...] }`. Fails the invocation when
 * any object failed, so Lambda's asynchronous retries and on-failure destination apply.
 */
import type { NormalizedNotification } from '../lib/notification/types.js';
import { normalizeMany } from '../lib/notification/parse.js';
import { lambdaHandler, runtimeFor } from '../lib/runtime/lambda.js';
import { processBatch, type ItemResult } from '../lib/runtime/process.js';

export const handler = lambdaHandler<unknown, { results: ItemResult[] }>(
  async (event, context, { signal }) => {
    const runtime = await runtimeFor(context);
    const notifications: NormalizedNotification[] = normalizeMany(event);
    const results = await processBatch(
      runtime,
      notifications.map((n, i) => ({ id: String(i), notifications: () => [n] })),
      { signal, holder: context.awsRequestId },
    );
    const failed = results.filter((r) => !r.ok);
    if (failed.length) throw new Error(`reconcile failed: ${failed.map((f) => f.error).join('; ')}`);
    return { results };
  },
);
