/** Shared setup for the forwarder integration tests: the Kubernetes API stand-in, writes, and a forwarder. */
import {
  startKubeApiServer,
  type KubeApiServer,
  type KubeApiServerOptions,
} from '../../dev/kube-apiserver/index.js';
import { Forwarder, type ForwarderOptions } from '../../lib/forwarder/forwarder.js';
import { collectionPath, createKubeApi } from '../../lib/forwarder/kube-api.js';
import { createLeaseStore } from '../../lib/forwarder/lease-store.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { MemoryLogger, type Logger } from '../../lib/log/logger.js';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { kubeConfigFor } from './forwarder-fakes.js';

export type ObjectSpec = { type: ResourceType; obj: KubeObject & Record<string, unknown> };

export class Api {
  constructor(readonly url: string) {}

  private async call(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<KubeObject> {
    const res = await fetch(this.url + path, {
      method,
      headers: { authorization: 'Bearer dev-token', 'content-type': contentType, accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as KubeObject;
  }

  private objectPath(type: ResourceType, namespace: string | undefined, name: string): string {
    return `${collectionPath(type, namespace)}/${encodeURIComponent(name)}`;
  }

  create(type: ResourceType, obj: KubeObject & Record<string, unknown>): Promise<KubeObject> {
    return this.call('POST', collectionPath(type, obj.metadata.namespace), {
      apiVersion: type.apiVersion,
      kind: type.kind,
      ...obj,
    });
  }

  patch(
    type: ResourceType,
    namespace: string | undefined,
    name: string,
    patch: unknown,
  ): Promise<KubeObject> {
    return this.call('PATCH', this.objectPath(type, namespace, name), patch, 'application/merge-patch+json');
  }

  delete(type: ResourceType, namespace: string | undefined, name: string): Promise<KubeObject> {
    return this.call('DELETE', this.objectPath(type, namespace, name));
  }
}

/** One object of each watched type (and a Secret with data), as a user would create them. */
export function sampleObjects(secretValue: string): ObjectSpec[] {
  return [
    {
      type: Resources.MultiClusterIngress,
      obj: {
        metadata: { name: 'web', namespace: 'default' },
        spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
      },
    },
    {
      type: Resources.MultiClusterService,
      obj: { metadata: { name: 'web', namespace: 'default' }, spec: { types: ['LoadBalancer'] } },
    },
    {
      type: Resources.Service,
      obj: { metadata: { name: 'web', namespace: 'default' }, spec: { ports: [{ port: 80 }] } },
    },
    {
      type: Resources.EndpointSlice,
      obj: {
        metadata: { name: 'web-abc', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
        addressType: 'IPv4',
        endpoints: [{ addresses: ['10.0.0.1'] }],
      },
    },
    {
      type: Resources.Secret,
      obj: {
        metadata: {
          name: 'web-tls',
          namespace: 'default',
          annotations: {
            'kubectl.kubernetes.io/last-applied-configuration': `{"data":{"tls.key":"${secretValue}"}}`,
          },
        },
        type: 'kubernetes.io/tls',
        data: { 'tls.key': secretValue, 'tls.crt': secretValue },
      },
    },
    {
      type: Resources.IngressClass,
      obj: { metadata: { name: 'aws' }, spec: { controller: 'karmada.io/aws' } },
    },
    { type: Resources.Cluster, obj: { metadata: { name: 'member1' }, spec: { syncMode: 'Push' } } },
    {
      type: Resources.ResourceBinding,
      obj: {
        metadata: { name: 'web-service', namespace: 'default' },
        spec: { resource: { apiVersion: 'v1', kind: 'Service', name: 'web' } },
      },
    },
  ];
}

export interface Env {
  kube: KubeApiServer;
  api: Api;
  close(): Promise<void>;
}

export async function startEnv(options: KubeApiServerOptions = {}): Promise<Env> {
  const kube = await startKubeApiServer({ bookmarkIntervalMs: 1000, ...options });
  return { kube, api: new Api(kube.url), close: () => kube.close() };
}

export interface TestForwarderOptions extends Partial<ForwarderOptions> {
  /** API server URL for list/watch (may be a proxy). */
  server: string;
  /** API server URL for the Lease; no leader election when undefined. */
  leaseServer?: string;
  sinkUrl?: string;
  logger?: Logger;
}

export const FAST_LEASE = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };

export function makeForwarder(o: TestForwarderOptions): Forwarder {
  const logger = o.logger ?? new MemoryLogger();
  return new Forwarder({
    api: createKubeApi(kubeConfigFor(o.server)),
    sink: o.sink ?? new HttpSink({ url: o.sinkUrl ?? 'http://127.0.0.1:1/' }),
    ...(o.leaseServer
      ? {
          leaseStore: createLeaseStore(
            kubeConfigFor(o.leaseServer),
            'karmada-system',
            'multicluster-forwarder',
          ),
          ...FAST_LEASE,
        }
      : {}),
    identity: o.identity ?? 'test',
    coalesceWindowMs: o.coalesceWindowMs ?? 20,
    resyncPeriodMs: o.resyncPeriodMs ?? 0,
    backoff: o.backoff ?? { initialMs: 20, maxMs: 200 },
    watchTimeoutSeconds: o.watchTimeoutSeconds ?? 60,
    shutdownTimeoutMs: o.shutdownTimeoutMs ?? 5_000,
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.namespaces ? { namespaces: o.namespaces } : {}),
    ...(o.secretNamespaces ? { secretNamespaces: o.secretNamespaces } : {}),
    ...(o.types ? { types: o.types } : {}),
    logger,
  });
}
