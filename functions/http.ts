/**
 * HTTP handler (Lambda function URL / API Gateway HTTP API, and the local pipeline): the forwarder
 * or a user POSTs notifications. 200 when every object reconciled; 202 when nothing failed but
 * some objects wait (the cloud applying a change, another invocation holding the object): the
 * results marked `waiting` are to be delivered again after their `retryAfterSeconds`; 400 for a
 * malformed request; 500 with per-notification results when some failed, so the sender retries
 * those.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { safeErrorLine } from '../lib/log/redact.js';
import { notificationsFromHttp } from '../lib/notification/http.js';
import { registerBuiltinProviders } from '../lib/providers/builtin.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';
import { processBatch } from '../lib/runtime/process.js';
import { httpStatusOf, publicResults } from '../lib/runtime/public-results.js';

/** Most objects one call reconciles; a cluster-wide fan-out beyond it goes through the queue. */
const MAX_OBJECTS_PER_INVOCATION = 500;

// Either built-in provider can serve this function: each is loaded only if MULTICLUSTER_PROVIDER names it.
registerBuiltinProviders();

function json(statusCode: number, body: unknown): APIGatewayProxyStructuredResultV2 {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

export const handler = lambdaHandler<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(
  async (event, context, { signal }) => {
    const method = event.requestContext?.http?.method ?? 'POST';
    if (method !== 'POST') return json(405, { error: 'only POST is supported' });
    const body =
      event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    let notifications;
    try {
      notifications = notificationsFromHttp(event.headers ?? {}, body);
    } catch (error) {
      logger.error('notification rejected', { error });
      return json(400, { error: safeErrorLine(error) });
    }
    const runtime = await runtimeFor(context);
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
    // Details of failures stay in the logs: the caller learns outcomes, not internals.
    return json(httpStatusOf(results), {
      results: publicResults(results, context.awsRequestId),
    });
  },
);
