/**
 * Records Kubernetes Events on the objects we act on, so `kubectl describe` tells an operator what
 * happened. Repeats are aggregated like client-go's event correlator: the Event's name is derived
 * from the object, reason and message, so a repeat bumps `count` on the existing Event instead of
 * creating a new one. Recording never fails the caller: an Event is best effort.
 */
import { createHash } from 'node:crypto';
import type { KubeClient } from './client.js';
import { isAlreadyExists } from './client.js';
import { Resources } from './resources.js';
import type { KubeObject } from './types.js';
import type { Logger } from '../log/logger.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  record(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void>;
}

export const EVENT_COMPONENT = 'multicluster-cloud-provider';
const MAX_MESSAGE = 1024;

interface CoreEvent extends KubeObject {
  involvedObject: Record<string, string | undefined>;
  reason: string;
  message: string;
  type: EventType;
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  source: { component: string };
  reportingComponent: string;
  reportingInstance: string;
}

export function eventName(obj: KubeObject, type: EventType, reason: string, message: string): string {
  const hash = createHash('sha256')
    .update(`${obj.metadata.uid ?? ''}|${type}|${reason}|${message}`)
    .digest('hex')
    .slice(0, 16);
  return `${(obj.metadata.name ?? 'object').slice(0, 200)}.${hash}`;
}

export class KubeEventRecorder implements EventRecorder {
  constructor(
    private readonly kube: KubeClient,
    private readonly logger: Logger,
    private readonly instance: string = process.env.AWS_LAMBDA_FUNCTION_NAME ?? 'local',
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 3)}...` : message;
    const namespace = obj.metadata.namespace ?? 'default';
    const name = eventName(obj, type, reason, text);
    const ts = this.now().toISOString();
    const event: CoreEvent = {
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        name: obj.metadata.name,
        namespace: obj.metadata.namespace,
        uid: obj.metadata.uid,
        resourceVersion: obj.metadata.resourceVersion,
      },
      reason,
      message: text,
      type,
      count: 1,
      firstTimestamp: ts,
      lastTimestamp: ts,
      source: { component: EVENT_COMPONENT },
      reportingComponent: EVENT_COMPONENT,
      reportingInstance: this.instance,
    };
    try {
      try {
        await this.kube.create(Resources.Event, event);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await this.kube.get<CoreEvent>(Resources.Event, namespace, name);
        await this.kube.patch(Resources.Event, namespace, name, {
          count: (existing?.count ?? 1) + 1,
          lastTimestamp: ts,
        });
      }
    } catch (err) {
      this.logger.warn('could not record event', { reason, error: err });
    }
  }
}

/** Keeps Events in memory: for callers that run without an API server to write to. */
export class MemoryEventRecorder implements EventRecorder {
  readonly events: Array<{ key: string; type: EventType; reason: string; message: string }> = [];
  async record(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    this.events.push({
      key: `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`,
      type,
      reason,
      message,
    });
  }
}
