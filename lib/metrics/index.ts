/**
 * The functions' CloudWatch metrics, written as Embedded Metric Format (EMF) log lines by Powertools
 * for AWS Lambda's Metrics utility; CloudWatch Logs turns them into metrics, no API call is made.
 *
 * Recording only aggregates in memory: counts are summed and durations kept per dimension set, and
 * `flush()` (after each invocation, see lib/runtime/lambda.ts) writes one EMF line per dimension
 * set. Until an entry point calls `enable()` nothing is kept, so library code (local tools,
 * benchmarks) can record freely. The metrics, in the namespace `$POWERTOOLS_METRICS_NAMESPACE`
 * (serverless.yml: `<service>/<stage>`; none set, none written), each also under the `service`
 * dimension alone:
 *
 * - `Reconciles` (Count) by `Kind` + `Outcome`, and by `Outcome`: created, updated, unchanged,
 *   deleted, ignored, gone, invalid, waiting, retry_later, failed;
 * - `ReconcileDuration` (Milliseconds) by `Kind`;
 * - `Waiting` (Count) by `Kind`: reconciles that only waited (the cloud applying our change, an
 *   accelerator deploying, another invocation holding the object) and come back later: progress,
 *   not failure;
 * - `RetryLater` (Count) by `Kind`: transient failures sent back to the queue with a delay;
 * - `InvalidObjects` (Count) by `Kind` + `Reason`: objects reported with a Warning, not retried;
 * - `Elbv2Calls` (Count) by `Action`: every ELBv2 API attempt, retries included;
 * - `Elbv2Throttles` (Count) by `Action`: attempts ELBv2 answered with throttling.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/** The metric names (serverless.yml's dashboard and alarms use them; a test checks they match). */
export const METRIC_NAMES = {
  reconciles: 'Reconciles',
  duration: 'ReconcileDuration',
  waiting: 'Waiting',
  retryLater: 'RetryLater',
  invalid: 'InvalidObjects',
  elbv2Calls: 'Elbv2Calls',
  elbv2Throttles: 'Elbv2Throttles',
} as const;

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];
type Dimensions = Record<string, string>;

interface Series {
  name: string;
  unit: Unit;
  /** The dimensions it is published under, besides `service`; `{}` is the service dimension alone. */
  dimensions: Dimensions;
  /** Counts are summed into one value; durations keep every sample. */
  sum: boolean;
  values: number[];
}

/** EMF keeps at most 100 values per metric in one line; Powertools publishes early at 100. */
const MAX_VALUES_PER_LINE = 99;
/** A container that is never flushed (a long local run) stops keeping samples past this. */
const MAX_SAMPLES = 10_000;

export type ReconcileOutcome =
  | 'created'
  | 'updated'
  | 'unchanged'
  | 'deleted'
  | 'ignored'
  | 'gone'
  | 'invalid'
  | 'waiting'
  | 'retry_later'
  | 'failed';

export class OperatorMetrics {
  private readonly series = new Map<string, Series>();
  private samples = 0;
  private sink: Metrics | undefined;

  /**
   * Starts keeping metrics, published through `sink`, or else through Powertools into
   * `$POWERTOOLS_METRICS_NAMESPACE`. Without a namespace (local runs: `npm start`, `osls invoke
   * local`) there is no CloudWatch to read EMF lines, and they would only clutter the output: then
   * nothing is kept.
   */
  enable(sink?: Metrics): void {
    if (this.sink) return;
    const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE;
    if (!sink && !namespace) return;
    this.sink =
      sink ??
      new Metrics({
        namespace,
        // The logger's service name, so that log lines and metrics name the same service.
        serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'multicluster-cloud-provider',
      });
  }

  get enabled(): boolean {
    return this.sink !== undefined;
  }

  reconciled(kind: string, outcome: ReconcileOutcome, durationMs: number, reason?: string): void {
    this.count(METRIC_NAMES.reconciles, [{ Kind: kind, Outcome: outcome }, { Outcome: outcome }, {}]);
    this.add(METRIC_NAMES.duration, MetricUnit.Milliseconds, { Kind: kind }, Math.round(durationMs), false);
    if (outcome === 'waiting') this.count(METRIC_NAMES.waiting, [{ Kind: kind }, {}]);
    if (outcome === 'retry_later') this.count(METRIC_NAMES.retryLater, [{ Kind: kind }, {}]);
    if (outcome === 'invalid')
      this.count(METRIC_NAMES.invalid, [{ Kind: kind, Reason: reason ?? 'Unknown' }, {}]);
  }

  elbv2Call(action: string, throttled: boolean): void {
    this.count(METRIC_NAMES.elbv2Calls, [{ Action: action }, {}]);
    if (throttled) this.count(METRIC_NAMES.elbv2Throttles, [{ Action: action }, {}]);
  }

  /**
   * Writes what was recorded since the last flush, one EMF line per dimension set (a line carrying
   * several sets would repeat their shared keys, which Powertools warns about), and forgets it.
   */
  flush(): void {
    const sink = this.sink;
    const groups = new Map<string, Series[]>();
    for (const s of this.series.values()) {
      const key = JSON.stringify(s.dimensions);
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    this.series.clear();
    this.samples = 0;
    if (!sink) return;
    for (const group of groups.values()) {
      const longest = Math.max(...group.map((s) => s.values.length));
      for (let from = 0; from < longest; from += MAX_VALUES_PER_LINE) {
        sink.addDimensions(group[0]!.dimensions);
        for (const s of group)
          for (const v of s.values.slice(from, from + MAX_VALUES_PER_LINE)) sink.addMetric(s.name, s.unit, v);
        sink.publishStoredMetrics();
      }
    }
  }

  /** One count under each of the dimension sets. */
  private count(name: string, sets: Dimensions[]): void {
    for (const dimensions of sets) this.add(name, MetricUnit.Count, dimensions, 1, true);
  }

  private add(name: string, unit: Unit, dimensions: Dimensions, value: number, sum: boolean): void {
    if (!this.sink) return;
    const key = `${name}|${JSON.stringify(dimensions)}`;
    const s = this.series.get(key);
    if (!s) {
      this.series.set(key, { name, unit, dimensions, sum, values: [value] });
      this.samples++;
    } else if (sum) {
      s.values[0] = (s.values[0] ?? 0) + value;
    } else if (this.samples < MAX_SAMPLES) {
      s.values.push(value);
      this.samples++;
    }
  }
}

/** The container's metrics: recorded by the reconcile loop and the ELBv2 client, flushed per invocation. */
export const metrics = new OperatorMetrics();

/**
 * The middy middleware of the function entry points: metrics are kept from the first invocation on
 * and written at the end of each one, failed or not.
 */
export function publishMetrics(target: OperatorMetrics = metrics) {
  return {
    before: () => target.enable(),
    after: () => target.flush(),
    onError: () => target.flush(),
  };
}
