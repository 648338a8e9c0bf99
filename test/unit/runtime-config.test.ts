import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  loadResyncConfig,
  loadRuntimeConfig,
  loadSweepConfig,
} from '../../lib/runtime/config.js';

describe('Function: loadSweepConfig', () => {
  it('defaults to a 15-minute grace period and a real sweep', () => {
    expect(loadSweepConfig({})).toStrictEqual({ graceSeconds: 900, dryRun: false });
  });

  it('reads SWEEP_GRACE_SECONDS and takes only "true" as a dry run', () => {
    expect(loadSweepConfig({ SWEEP_GRACE_SECONDS: '0', SWEEP_DRY_RUN: 'true' })).toStrictEqual({
      graceSeconds: 0,
      dryRun: true,
    });
    expect(loadSweepConfig({ SWEEP_DRY_RUN: 'yes' }).dryRun).toBe(false);
  });

  it.each(['soon', '-1', 'Infinity'])('refuses SWEEP_GRACE_SECONDS=%s, naming the variable', (value) => {
    expect(() => loadSweepConfig({ SWEEP_GRACE_SECONDS: value })).toThrow(
      new ConfigError(`SWEEP_GRACE_SECONDS must be a number of seconds, got "${value}"`),
    );
  });
});

describe('Function: loadResyncConfig', () => {
  it('reads the queue URL; the deep check defaults to every 10 h within 10% of the budget', () => {
    expect(loadResyncConfig({ NOTIFICATION_QUEUE_URL: ' https://sqs.example/q.fifo ' })).toStrictEqual({
      queueUrl: 'https://sqs.example/q.fifo',
      periodSeconds: 600,
      deepIntervalSeconds: 36_000,
      deepBudgetShare: 0.1,
    });
  });

  it('reads the schedule, the deep interval, its budget share and the deployment budget', () => {
    expect(
      loadResyncConfig({
        NOTIFICATION_QUEUE_URL: 'q',
        RESYNC_PERIOD_SECONDS: '300',
        DEEP_RESYNC_INTERVAL_SECONDS: '7200',
        DEEP_RESYNC_BUDGET_SHARE: '0.25',
        ELBV2_CALLS_PER_SECOND: '2',
      }),
    ).toStrictEqual({
      queueUrl: 'q',
      periodSeconds: 300,
      deepIntervalSeconds: 7200,
      deepBudgetShare: 0.25,
      elbv2CallsPerSecond: 2,
    });
    expect(() => loadResyncConfig({ NOTIFICATION_QUEUE_URL: 'q', DEEP_RESYNC_BUDGET_SHARE: '2' })).toThrow(
      /DEEP_RESYNC_BUDGET_SHARE must be a number in \(0, 1\]/,
    );
  });

  it('refuses to run without a queue, naming the variable', () => {
    expect(() => loadResyncConfig({ NOTIFICATION_QUEUE_URL: '' })).toThrow(
      /^NOTIFICATION_QUEUE_URL is not set/,
    );
  });
});

describe('Function: loadRuntimeConfig', () => {
  it('keeps only what a function reads (KUBECONFIG is the kube client loader’s, not part of it)', () => {
    expect(
      loadRuntimeConfig({
        MULTICLUSTER_PROVIDER: 'fake',
        PROVIDER_INGRESS_CLASS: 'karmada.io/fake',
        KUBECONFIG: '/tmp/kubeconfig',
      }),
    ).toStrictEqual({
      provider: 'fake',
      providerIngressClass: 'karmada.io/fake',
      timeoutSeconds: 60,
      lockNamespace: 'karmada-system',
    });
  });
});
