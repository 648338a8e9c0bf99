/** Prometheus metrics, on a registry of our own so tests can run several forwarders in one process. */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface ForwarderMetrics {
  registry: Registry;
  eventsReceived: Counter<'kind' | 'type'>;
  relists: Counter<'kind' | 'reason'>;
  notificationsSent: Counter<'sink' | 'change'>;
  notificationsWaiting: Counter<'sink'>;
  sinkCalls: Counter<'sink'>;
  sinkErrors: Counter<'sink'>;
  pendingObjects: Gauge;
  isLeader: Gauge;
  deliveryLatency: Histogram<'sink'>;
}

export function createMetrics(options: { defaultMetrics?: boolean } = {}): ForwarderMetrics {
  const registry = new Registry();
  if (options.defaultMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    eventsReceived: new Counter({
      name: 'forwarder_events_received_total',
      help: 'Objects seen from the API server, by kind and type (ADDED/MODIFIED/DELETED/LISTED/VANISHED)',
      labelNames: ['kind', 'type'],
      registers,
    }),
    relists: new Counter({
      name: 'forwarder_relists_total',
      help: 'Full lists, by kind and reason (initial, gone, error)',
      labelNames: ['kind', 'reason'],
      registers,
    }),
    notificationsSent: new Counter({
      name: 'forwarder_notifications_sent_total',
      help: 'Notifications delivered to the sink',
      labelNames: ['sink', 'change'],
      registers,
    }),
    notificationsWaiting: new Counter({
      name: 'forwarder_notifications_waiting_total',
      help: 'Notifications the target took but wants again later (its objects wait on the cloud or on another invocation)',
      labelNames: ['sink'],
      registers,
    }),
    sinkCalls: new Counter({
      name: 'forwarder_sink_calls_total',
      help: 'Calls made to the sink',
      labelNames: ['sink'],
      registers,
    }),
    sinkErrors: new Counter({
      name: 'forwarder_sink_errors_total',
      help: 'Sink calls that failed wholly or partly',
      labelNames: ['sink'],
      registers,
    }),
    pendingObjects: new Gauge({
      name: 'forwarder_pending_objects',
      help: 'Objects with a notification waiting for delivery or in delivery',
      registers,
    }),
    isLeader: new Gauge({
      name: 'forwarder_is_leader',
      help: '1 while this replica holds the lease',
      registers,
    }),
    deliveryLatency: new Histogram({
      name: 'forwarder_delivery_latency_seconds',
      help: 'From first observing a change to its successful delivery',
      labelNames: ['sink'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    }),
  };
}
