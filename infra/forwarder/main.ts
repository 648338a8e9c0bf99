/**
 * Entry point of the cluster watch forwarder: `node dist/forwarder/forwarder.mjs --help`.
 * Everything but process wiring (flags, signals, exit codes) lives in lib/forwarder/.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { createLogger } from '../../lib/log/logger.js';
import { redactText } from '../../lib/log/redact.js';
import { ConfigError, helpText, loadConfig, type ForwarderConfig } from '../../lib/forwarder/config.js';
import { Forwarder } from '../../lib/forwarder/forwarder.js';
import { createKubeApi } from '../../lib/forwarder/kube-api.js';
import { loadForwarderKubeConfig } from '../../lib/forwarder/kubeconfig.js';
import { createLeaseStore } from '../../lib/forwarder/lease-store.js';
import { createMetrics } from '../../lib/forwarder/metrics.js';
import { createSink } from '../../lib/forwarder/sinks/index.js';
import { Resources } from '../../lib/kube/resources.js';

async function main(): Promise<number> {
  let config: ForwarderConfig;
  try {
    config = loadConfig(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message} (see --help)\n`);
    return 2;
  }
  if (config.help) {
    process.stdout.write(helpText());
    return 0;
  }
  const logger = createLogger({ serviceName: 'multicluster-forwarder', level: config.logLevel });
  let kc: KubeConfig;
  try {
    kc = loadForwarderKubeConfig(config.kubeconfig);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    logger.error(err.message);
    return 2;
  }
  const identity = config.identity ?? `${hostname()}-${randomBytes(3).toString('hex')}`;
  const forwarder = new Forwarder({
    api: createKubeApi(kc),
    sink: createSink({
      type: config.sink,
      target: config.sinkTarget,
      ...(config.region ? { region: config.region } : {}),
      ...(config.sinkEndpoint ? { endpoint: config.sinkEndpoint } : {}),
      ...(config.batchSize ? { batchSize: config.batchSize } : {}),
      sign: config.sinkSign,
    }),
    ...(config.leaderElect
      ? { leaseStore: createLeaseStore(kc, config.leaseNamespace, config.leaseName) }
      : {}),
    identity,
    ...(config.namespaces ? { namespaces: config.namespaces } : {}),
    ...(config.secretNamespaces ? { secretNamespaces: config.secretNamespaces } : {}),
    coalesceWindowMs: config.coalesceWindowMs,
    kindWindowsMs: { [Resources.EndpointSlice.kind]: config.endpointSliceWindowMs },
    batchIntervalMs: config.batchIntervalMs,
    resyncPeriodMs: config.resyncPeriodMs,
    port: config.port,
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    logger,
    metrics: createMetrics({ defaultMetrics: true }),
  });
  await forwarder.start();
  return new Promise<number>((resolve) => {
    let signalled = false;
    const onSignal = (signal: string): void => {
      if (signalled) {
        logger.warn('second signal: exiting now', { signal });
        return resolve(1);
      }
      signalled = true;
      logger.info('signal received', { signal });
      forwarder.shutdown().then(
        (flushed) => resolve(flushed ? 0 : 1),
        (err: unknown) => {
          logger.error('shutdown failed', { error: err });
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    process.on('SIGINT', () => onSignal('SIGINT'));
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A stack can quote what failed to parse: redacted like every log line.
    process.stderr.write(
      `forwarder failed: ${redactText(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
    );
    process.exit(1);
  },
);
