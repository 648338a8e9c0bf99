/**
 * The functions' metrics as CloudWatch receives them: the EMF lines Powertools writes to stdout,
 * parsed back and checked against the EMF specification's shape (namespace, dimension sets, units,
 * values) for each metric the README lists.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OperatorMetrics, publishMetrics } from '../../lib/metrics/index.js';
import { emfLines, metric } from '../support/emf.js';

let written: string[];
beforeEach(() => {
  written = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

const enabled = () => {
  const m = new OperatorMetrics();
  m.enable(new Metrics({ namespace: 'Test/ci', serviceName: 'mcp' }));
  return m;
};

describe('OperatorMetrics', () => {
  it('counts reconciles by kind and outcome, also by outcome alone and in total', () => {
    const m = enabled();
    m.reconciled('MultiClusterIngress', 'created', 12.4);
    m.reconciled('MultiClusterIngress', 'created', 30);
    m.reconciled('MultiClusterService', 'failed', 8);
    m.flush();
    const lines = emfLines(written);
    const created = metric(lines, 'Reconciles', { Kind: 'MultiClusterIngress', Outcome: 'created' });
    expect(created.value).toBe(2);
    expect(created.line._aws.CloudWatchMetrics[0]).toEqual({
      Namespace: 'Test/ci',
      Dimensions: [['service', 'Kind', 'Outcome']],
      Metrics: [{ Name: 'Reconciles', Unit: 'Count' }],
    });
    expect(created.line.service).toBe('mcp');
    expect(metric(lines, 'Reconciles', { Kind: 'MultiClusterService', Outcome: 'failed' }).value).toBe(1);
    const duration = metric(lines, 'ReconcileDuration', { Kind: 'MultiClusterIngress' });
    expect(duration.value).toEqual([12, 30]);
    expect(duration.line._aws.CloudWatchMetrics[0]!.Metrics).toEqual([
      { Name: 'ReconcileDuration', Unit: 'Milliseconds' },
    ]);
  });

  it('counts retry-later and invalid objects (by reason) under their own names', () => {
    const m = enabled();
    m.reconciled('MultiClusterService', 'retry_later', 5);
    m.reconciled('MultiClusterIngress', 'invalid', 3, 'InvalidAnnotation');
    m.reconciled('MultiClusterIngress', 'invalid', 4, 'InvalidAnnotation');
    m.flush();
    const lines = emfLines(written);
    expect(metric(lines, 'RetryLater', { Kind: 'MultiClusterService' }).value).toBe(1);
    const invalid = metric(lines, 'InvalidObjects', {
      Kind: 'MultiClusterIngress',
      Reason: 'InvalidAnnotation',
    });
    expect(invalid.value).toBe(2);
    expect(invalid.line._aws.CloudWatchMetrics[0]!.Dimensions).toEqual([['service', 'Kind', 'Reason']]);
    expect(metric(lines, 'InvalidObjects', {}).value).toBe(2);
    expect(metric(lines, 'Reconciles', { Outcome: 'invalid' }).value).toBe(2);
    expect(metric(lines, 'Reconciles', {}).value).toBe(3);
  });

  it('counts waiting apart from retry-later and failure: waiting is progress', () => {
    const m = enabled();
    m.reconciled('MultiClusterIngress', 'waiting', 5);
    m.reconciled('MultiClusterIngress', 'waiting', 6);
    m.reconciled('MultiClusterService', 'failed', 7);
    m.flush();
    const lines = emfLines(written);
    expect(metric(lines, 'Waiting', { Kind: 'MultiClusterIngress' }).value).toBe(2);
    expect(lines.some((l) => 'RetryLater' in l)).toBe(false);
    expect(metric(lines, 'Reconciles', { Outcome: 'waiting' }).value).toBe(2);
    expect(metric(lines, 'Reconciles', { Outcome: 'failed' }).value).toBe(1);
  });

  it('counts ELBv2 calls and throttles by action', () => {
    const m = enabled();
    m.elbv2Call('DescribeLoadBalancers', false);
    m.elbv2Call('DescribeLoadBalancers', true);
    m.elbv2Call('CreateLoadBalancer', false);
    m.flush();
    const lines = emfLines(written);
    expect(metric(lines, 'Elbv2Calls', { Action: 'DescribeLoadBalancers' }).value).toBe(2);
    expect(metric(lines, 'Elbv2Calls', { Action: 'CreateLoadBalancer' }).value).toBe(1);
    expect(metric(lines, 'Elbv2Throttles', { Action: 'DescribeLoadBalancers' }).value).toBe(1);
    expect(lines.some((l) => 'Elbv2Throttles' in l && l.Action === 'CreateLoadBalancer')).toBe(false);
  });

  it('splits more than 99 samples over several lines, each keeping its dimensions', () => {
    const m = enabled();
    for (let i = 0; i < 250; i++) m.reconciled('MultiClusterIngress', 'unchanged', i);
    m.flush();
    const lines = emfLines(written).filter((l) => 'ReconcileDuration' in l);
    expect(lines.map((l) => (l.ReconcileDuration as number[]).length)).toEqual([99, 99, 52]);
    expect(lines.every((l) => l.Kind === 'MultiClusterIngress')).toBe(true);
    expect(lines.flatMap((l) => l.ReconcileDuration as number[])).toEqual([...Array(250).keys()]);
  });

  it('writes each thing once: a flush forgets what it wrote', () => {
    const m = enabled();
    m.reconciled('MultiClusterIngress', 'created', 1);
    m.flush();
    const before = written.length;
    m.flush();
    expect(written.length).toBe(before);
  });

  it('keeps nothing until enabled, and the middleware enables then flushes per invocation', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'Test/ci');
    const m = new OperatorMetrics();
    m.reconciled('MultiClusterIngress', 'created', 1);
    m.flush();
    expect(emfLines(written)).toEqual([]);
    const mw = publishMetrics(m);
    mw.before();
    m.reconciled('MultiClusterIngress', 'updated', 1);
    mw.onError();
    const updated = metric(emfLines(written), 'Reconciles', { Outcome: 'updated' });
    expect(updated.value).toBe(1);
    expect(updated.line._aws.CloudWatchMetrics[0]!.Namespace).toBe('Test/ci');
  });

  it('writes nothing where no namespace is configured (local runs)', () => {
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', '');
    const m = new OperatorMetrics();
    const mw = publishMetrics(m);
    mw.before();
    m.reconciled('MultiClusterIngress', 'created', 1);
    mw.after();
    expect(m.enabled).toBe(false);
    expect(emfLines(written)).toEqual([]);
  });
});
