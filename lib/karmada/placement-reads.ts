/**
 * Reads Karmada's placement of the workloads a Service selects (placement.ts): the Deployments and
 * StatefulSets of the Service's namespace (one LIST per kind and namespace, shared through
 * `WorkloadReads`; a pod template's labels cannot be selected on server-side), then the
 * ResourceBinding of each selected workload (one GET each, by its generated name).
 */
import type { KubeClient } from '../kube/client.js';
import { Resources } from '../kube/resources.js';
import {
  isWorkloadBinding,
  selects,
  servicePlacement,
  WORKLOAD_KINDS,
  workloadBindingName,
  type PlacedWorkload,
  type ServicePlacement,
  type Workload,
  type WorkloadKind,
} from './placement.js';
import type { ResourceBinding, Service } from './types.js';

const TYPES = { Deployment: Resources.Deployment, StatefulSet: Resources.StatefulSet } as const;

/** The workloads of a namespace, by namespace: read once per build. */
export type WorkloadReads = Map<string, Promise<Array<{ kind: WorkloadKind; workload: Workload }>>>;

function namespaceWorkloads(kube: KubeClient, namespace: string, reads: WorkloadReads) {
  let read = reads.get(namespace);
  if (!read) {
    read = Promise.all(
      WORKLOAD_KINDS.map(async (kind) =>
        (await kube.list<Workload & { metadata: { name?: string } }>(TYPES[kind], { namespace })).items.map(
          (workload) => ({ kind, workload }),
        ),
      ),
    ).then((lists) => lists.flat());
    reads.set(namespace, read);
  }
  return read;
}

/** The workloads the Service selects, sorted by kind and name, each with its binding if any. */
export async function readPlacedWorkloads(
  kube: KubeClient,
  service: Readonly<Service>,
  reads: WorkloadReads = new Map(),
): Promise<PlacedWorkload[]> {
  const namespace = service.metadata.namespace ?? '';
  const selected = (await namespaceWorkloads(kube, namespace, reads))
    .filter(({ workload }) => selects(service, workload))
    .map(({ kind, workload }) => ({ kind, name: workload.metadata.name ?? '' }))
    .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind.localeCompare(b.kind)));
  return Promise.all(
    selected.map(async ({ kind, name }) => {
      const rb = await kube.get<ResourceBinding>(
        Resources.ResourceBinding,
        namespace,
        workloadBindingName(kind, name),
      );
      return { kind, name, binding: rb && isWorkloadBinding(rb, kind, name) ? rb : undefined };
    }),
  );
}

/** What placement says about the Service now. */
export async function readServicePlacement(
  kube: KubeClient,
  service: Readonly<Service>,
  reads: WorkloadReads = new Map(),
): Promise<ServicePlacement> {
  return servicePlacement(service, await readPlacedWorkloads(kube, service, reads));
}
