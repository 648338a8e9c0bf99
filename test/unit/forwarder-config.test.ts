import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig, parseDuration } from '../../lib/forwarder/config.js';

describe('Function: parseDuration', () => {
  it.each([
    ['100ms', 100],
    ['30s', 30_000],
    ['10m', 600_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['5', 5_000],
    ['0', 0],
  ])('%s = %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms));

  it('rejects nonsense', () => expect(() => parseDuration('ten minutes')).toThrow(ConfigError));
});

describe('Function: loadConfig', () => {
  it("gives EndpointSlices a longer window, bounded, and never shorter than the default's", () => {
    const target = ['--sink-target', 'https://sqs.eu-west-1.amazonaws.com/1/q.fifo'];
    expect(loadConfig(target, {}).endpointSliceWindowMs).toBe(1000);
    expect(loadConfig([...target, '--endpointslice-coalesce-window', '3s'], {}).endpointSliceWindowMs).toBe(
      3000,
    );
    expect(
      loadConfig([...target, '--coalesce-window', '2s', '--endpointslice-coalesce-window', '1s'], {})
        .endpointSliceWindowMs,
    ).toBe(2000);
    expect(() => loadConfig([...target, '--endpointslice-coalesce-window', '11s'], {})).toThrow(
      /at most 10s/,
    );
  });

  it('applies defaults', () => {
    const c = loadConfig(['--sink-target', 'https://sqs.eu-west-1.amazonaws.com/1/q.fifo'], {});
    expect(c).toMatchObject({
      sink: 'sqs',
      // Off: each resync is a full drift check; the scheduled resync function does the cheap pass.
      resyncPeriodMs: 0,
      coalesceWindowMs: 100,
      leaderElect: true,
      leaseName: 'multicluster-forwarder',
      leaseNamespace: 'karmada-system',
      port: 8080,
      logLevel: 'INFO',
    });
    expect(c.namespaces).toBeUndefined();
  });

  it('reads environment variables, and flags win over them', () => {
    const env = {
      FORWARDER_SINK: 'http',
      FORWARDER_SINK_TARGET: 'http://localhost:9000/',
      FORWARDER_NAMESPACES: 'shop, web',
      FORWARDER_RESYNC_PERIOD: '5m',
      KUBECONFIG: '/etc/kubeconfig/karmada.config',
      LOG_LEVEL: 'debug',
    };
    const c = loadConfig(['--resync-period=1m', '--lease-namespace', 'fwd'], env);
    expect(c).toMatchObject({
      sink: 'http',
      sinkTarget: 'http://localhost:9000/',
      namespaces: ['shop', 'web'],
      resyncPeriodMs: 60_000,
      leaseNamespace: 'fwd',
      kubeconfig: '/etc/kubeconfig/karmada.config',
      logLevel: 'DEBUG',
    });
  });

  it.each([
    [['--sink', 'kafka', '--sink-target', 'x']],
    [['--sink', 'http']],
    [['--bogus', '1', '--sink-target', 'x']],
    [['--sink-target', 'x', '--port', '99999']],
    [['--sink-target', 'x', '--leader-elect', 'maybe']],
  ])('rejects %j', (argv) => expect(() => loadConfig(argv, {})).toThrow(ConfigError));

  it('--help needs nothing else, and the help documents every flag with its variable', () => {
    expect(loadConfig(['--help'], {}).help).toBe(true);
    const help = helpText();
    for (const s of [
      '--kubeconfig',
      '$KUBECONFIG',
      '--sink-target',
      '$FORWARDER_SINK_TARGET',
      '--region',
      '$AWS_REGION',
      '--namespaces',
      '--lease-namespace',
      '--port',
      '--log-level',
      '--coalesce-window',
      '--resync-period',
    ]) {
      expect(help).toContain(s);
    }
  });
});
