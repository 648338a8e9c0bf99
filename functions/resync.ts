/**
 * Scheduled full resync (EventBridge): a `resync` notification for every MultiClusterIngress,
 * MultiClusterService and Cluster goes onto the notification queue, where the sqs function does
 * the full drift check of each, one object at a time.
 */
import { SqsSink } from '../lib/forwarder/sinks/sqs.js';
import { enqueueResync, type ResyncResult } from '../lib/maintenance/resync.js';
import { loadResyncConfig } from '../lib/runtime/config.js';
import { lambdaHandler, logger, runtimeFor } from '../lib/runtime/lambda.js';

export const handler = lambdaHandler<unknown, ResyncResult>(async (_event, context) => {
  const { queueUrl } = loadResyncConfig();
  const runtime = await runtimeFor(context);
  const sink = new SqsSink({ queueUrl, clientConfig: { useQueueUrlAsEndpoint: false } });
  try {
    const result = await enqueueResync(runtime.kube, sink, logger, {
      ...(runtime.config.allowedNamespaces ? { namespaces: runtime.config.allowedNamespaces } : {}),
    });
    if (result.failed) throw new Error(`${result.failed} resync notifications could not be queued`);
    return result;
  } finally {
    sink.close();
  }
});
