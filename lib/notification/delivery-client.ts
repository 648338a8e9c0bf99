/**
 * The SDK client settings every notification sender shares (the SQS sender, the forwarder's
 * Lambda sink): no SDK retries, since the caller retries with its own backoff and merging, and
 * timeouts so that a hung connection cannot hold a delivery slot forever.
 */
export function deliveryClientConfig<C extends object>(options: {
  region?: string;
  endpoint?: string;
  clientConfig?: C;
}) {
  return {
    ...(options.region ? { region: options.region } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    maxAttempts: 1,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 15_000, throwOnRequestTimeout: true },
    ...options.clientConfig,
  };
}
