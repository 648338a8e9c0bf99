/**
 * What Karmada writes beside an EndpointSlice it collected from a member cluster, for the local
 * runs, the tests and `npm run plan`, whose scenarios list the derived slices (`imported-<cluster>-
 * <slice>`, labelled `derived-<svc>`) as the AWS provider reads them. In a real control plane each
 * such slice comes from a Work in the cluster's execution namespace, and the provider reads that
 * Work to tell Karmada's slices from hand-written ones (lib/providers/aws/imported-slices.ts). So
 * for every slice that claims to be derived (its name and `work.karmada.io/namespace` agree on
 * the cluster), this gives what Karmada would hold with it, as karmada-io/karmada writes it:
 * - the execution namespace `karmada-es-<cluster>` (pkg/util/names: ExecutionSpacePrefix);
 * - the Work the service-export controller wrote there (pkg/controllers/mcs/service_export_controller.go
 *   `reportEndpointSlice`): labels `endpointslice.karmada.io/namespace`, `…/name` (the Service),
 *   `…/managed-by: ServiceExport` and the webhook's `work.karmada.io/permanent-id`, and one
 *   manifest, the member's EndpointSlice (`<slice>`, labelled with the Service's own name, the
 *   `karmada.io/managed` label and the Work annotations `ctrlutil.CreateOrUpdateWork` adds), with
 *   the derived slice's endpoints and ports;
 * - the derived slice as the endpointslice controller writes it (`collectEndpointSliceFromWork`):
 *   annotated with the Work's namespace and name, labelled with its permanent ID and
 *   `endpointslice.kubernetes.io/managed-by: endpointslice-controller.karmada.io`.
 * A slice that already names its Work keeps that name; otherwise the Work is named as
 * `names.GenerateWorkName` names it, `<slice>-<hash>`. Only the seeding sides use this: a test of
 * a hand-written slice creates it on its own.
 */
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../lib/kube/types.js';

const EXECUTION_SPACE_PREFIX = 'karmada-es-';
const IMPORTED_PREFIX = 'imported-';
const DERIVED_PREFIX = 'derived-';
const WORK_NAMESPACE = 'work.karmada.io/namespace';
const WORK_NAME = 'work.karmada.io/name';
const PERMANENT_ID = 'work.karmada.io/permanent-id';
const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';

type Slice = KubeObject & { addressType?: string; endpoints?: unknown[]; ports?: unknown[] };

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** A UUID-shaped, stable permanent ID (Karmada's webhook gives a random UUID). */
function permanentId(seed: string): string {
  const h = digest(seed);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** `<slice>-<hash>`, the shape of Karmada's GenerateWorkName (its hash: FNV-32a, letters and digits). */
function workName(namespace: string, member: string): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  const hash = [...digest(`${namespace}-${member}-endpointslice`).slice(0, 10)]
    .map((c) => alphabet[parseInt(c, 16) % alphabet.length])
    .join('');
  return `${member}-${hash}`;
}

export interface Collected {
  namespace: KubeObject;
  work: KubeObject;
  /** The derived slice with what Karmada writes on it. */
  slice: KubeObject;
}

/** What Karmada holds with `slice`, or undefined when it does not claim to be a derived slice. */
export function karmadaCollected(slice: Readonly<KubeObject>): Collected | undefined {
  if (slice.kind !== 'EndpointSlice') return undefined;
  const executionSpace = slice.metadata.annotations?.[WORK_NAMESPACE] ?? '';
  const cluster = executionSpace.slice(EXECUTION_SPACE_PREFIX.length);
  const name = slice.metadata.name ?? '';
  const prefix = `${IMPORTED_PREFIX}${cluster}-`;
  const serviceLabel = slice.metadata.labels?.[SERVICE_NAME] ?? '';
  if (!executionSpace.startsWith(EXECUTION_SPACE_PREFIX) || !cluster) return undefined;
  if (!name.startsWith(prefix) || !serviceLabel.startsWith(DERIVED_PREFIX)) return undefined;
  const ns = slice.metadata.namespace ?? 'default';
  const member = name.slice(prefix.length);
  const service = serviceLabel.slice(DERIVED_PREFIX.length);
  const work = slice.metadata.annotations?.[WORK_NAME] ?? workName(ns, member);
  const id = slice.metadata.labels?.[PERMANENT_ID] ?? permanentId(`${executionSpace}/${work}`);
  const { addressType, endpoints, ports } = slice as Slice;
  const content = {
    ...(addressType !== undefined ? { addressType } : {}),
    ...(endpoints !== undefined ? { endpoints } : {}),
    ...(ports !== undefined ? { ports } : {}),
  };
  return {
    namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: executionSpace } },
    work: {
      apiVersion: 'work.karmada.io/v1alpha1',
      kind: 'Work',
      metadata: {
        name: work,
        namespace: executionSpace,
        labels: {
          'endpointslice.karmada.io/namespace': ns,
          'endpointslice.karmada.io/name': service,
          'endpointslice.karmada.io/managed-by': 'ServiceExport',
          [PERMANENT_ID]: id,
        },
      },
      spec: {
        suspendDispatching: true,
        workload: {
          manifests: [
            {
              apiVersion: 'discovery.k8s.io/v1',
              kind: 'EndpointSlice',
              metadata: {
                name: member,
                namespace: ns,
                labels: { [SERVICE_NAME]: service, 'karmada.io/managed': 'true' },
                annotations: { [WORK_NAME]: work, [WORK_NAMESPACE]: executionSpace },
              },
              ...content,
            },
          ],
        },
      },
    } as KubeObject,
    slice: {
      ...slice,
      metadata: {
        ...slice.metadata,
        labels: {
          ...slice.metadata.labels,
          [PERMANENT_ID]: id,
          [MANAGED_BY]: 'endpointslice-controller.karmada.io',
        },
        annotations: { ...slice.metadata.annotations, [WORK_NAME]: work },
      },
    } as KubeObject,
  };
}

/**
 * `objects`, each derived slice preceded by its execution namespace (once) and its Work, and
 * carrying what Karmada writes on it: a Karmada control plane in which those slices were collected.
 */
export function withKarmadaCollection(objects: readonly KubeObject[]): KubeObject[] {
  const out: KubeObject[] = [];
  const spaces = new Set<string>();
  for (const obj of objects) {
    const collected = karmadaCollected(obj);
    if (!collected) {
      out.push(obj);
      continue;
    }
    const space = collected.namespace.metadata.name ?? '';
    if (!spaces.has(space)) {
      spaces.add(space);
      out.push(collected.namespace);
    }
    out.push(collected.work, collected.slice);
  }
  return out;
}
