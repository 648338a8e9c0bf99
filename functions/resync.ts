/**
 * Scheduled full resync (EventBridge): a `resync` notification for every MultiClusterIngress,
 * MultiClusterService and Cluster goes onto the notification queue, where the sqs function does
 * the full drift check of each, one object at a time. It reads Kubernetes and writes to SQS only:
 * no provider is registered or loaded here.
 */
import { enqueueResync, type ResyncResult } from '../lib/maintenance/resync.js';
import { SqsSender } from '../lib/notification/sqs.js';
import { loadResyncConfig, loadRuntimeConfig } from '../lib/runtime/config.js';
import { kubeFor, lambdaHandler, logger } from '../lib/runtime/lambda.js';

export const handler = lambdaHandler<unknown, ResyncResult>(async (_event, context) => {
  const { queueUrl } = loadResyncConfig();
  const { allowedNamespaces } = loadRuntimeConfig();
  const kube = kubeFor(context);
  const sender = new SqsSender({ queueUrl, clientConfig: { useQueueUrlAsEndpoint: false } });
  try {
    const result = await enqueueResync(kube, sender, logger, {
      ...(allowedNamespaces ? { namespaces: allowedNamespaces } : {}),
    });
    if (result.failed) throw new Error(`${result.failed} resync notifications could not be queued`);
    return result;
  } finally {
    sender.close();
  }
});
