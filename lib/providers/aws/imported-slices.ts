/**
 * Which EndpointSlices may become targets: only the ones Karmada's endpointslice controller
 * derived from what a member cluster reported. Anyone who may create EndpointSlices in a namespace
 * can give one the `derived-<svc>` label, the `imported-<cluster>-` name and every annotation
 * Karmada writes; without a check against what only Karmada writes, the load balancer would send
 * traffic to whatever address such a slice lists.
 *
 * What only Karmada writes is the Work in the cluster's execution namespace `karmada-es-<cluster>`
 * (tenants cannot write there). How the two fit (karmada-io/karmada,
 * pkg/controllers/mcs/service_export_controller.go `reportEndpointSlice`/`getEndpointSliceWorkMeta`,
 * pkg/controllers/mcs/endpointslice_controller.go `collectEndpointSliceFromWork`/`deriveEndpointSlice`,
 * pkg/controllers/ctrlutil/work.go `CreateOrUpdateWork`, pkg/util/names/names.go):
 * - the service-export controller writes, for each member EndpointSlice `<slice>` of an exported
 *   Service `<ns>/<svc>`, a Work in `karmada-es-<cluster>` labelled
 *   `endpointslice.karmada.io/namespace: <ns>` and `endpointslice.karmada.io/name: <svc>`, whose one
 *   manifest is that EndpointSlice (`metadata.name: <slice>`, `metadata.namespace: <ns>`); Karmada's
 *   Work webhook gives it `work.karmada.io/permanent-id`;
 * - the endpointslice controller derives from that Work the slice `imported-<cluster>-<slice>` in
 *   `<ns>`, labelled `kubernetes.io/service-name: derived-<svc>` and with the Work's permanent ID,
 *   annotated `work.karmada.io/namespace` and `work.karmada.io/name` with the Work's namespace and
 *   name. No owner reference: the Work is in another namespace.
 * So a slice is Karmada's when the Work its annotations name exists and says all of that back: its
 * labels name the slice's namespace and Service, its permanent ID is the slice's, and one of its
 * manifests is the member slice the slice's name was derived from. A slice that names no Work, or a
 * Work that disagrees, is left out, and reported.
 *
 * One GET of a Work per slice, by name: the functions never list Works (each holds every manifest
 * Karmada propagates to its cluster, Secrets included) and use of a Work only its labels and its
 * manifests' kind, name and namespace (none of it is logged). A failed read (403: the RBAC of infra/functions-rbac is not
 * applied) fails the reconcile: an unverifiable slice must not look like a missing endpoint, which
 * would deregister every target.
 */
import { DERIVED_SERVICE_PREFIX, SERVICE_NAME_LABEL } from '../../karmada/constants.js';
import type { EndpointSlice } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';
import type { KubeObject } from '../../kube/types.js';
import type { ProviderContext } from '../../provider/contract.js';
import { EXECUTION_SPACE_PREFIX, IMPORTED_SLICE_PREFIX, WORK_NAMESPACE_KEY } from './model/targets.js';
import { announceBestEffort } from '../../provider/announce.js';

/** The Warning on the object whose Service has a slice that is left out. */
export const ENDPOINT_SLICE_IGNORED = 'EndpointSliceIgnored';
export const WORK_NAME_ANNOTATION = 'work.karmada.io/name';
export const WORK_PERMANENT_ID_LABEL = 'work.karmada.io/permanent-id';
/** The exported Service's namespace and name, on the Work (pkg/util/constants.go). */
export const WORK_SERVICE_NAMESPACE_LABEL = 'endpointslice.karmada.io/namespace';
export const WORK_SERVICE_NAME_LABEL = 'endpointslice.karmada.io/name';

/** A Work as far as the check reads it. */
export interface Work extends KubeObject {
  spec?: { workload?: { manifests?: unknown[] } };
}

/** The Work a slice says it was derived from (its namespace, name and cluster), if it says so at all. */
export function claimedWork(
  slice: Readonly<EndpointSlice>,
): { namespace: string; name: string; cluster: string } | undefined {
  const annotations = slice.metadata.annotations ?? {};
  const namespace = annotations[WORK_NAMESPACE_KEY] ?? '';
  const name = annotations[WORK_NAME_ANNOTATION] ?? '';
  if (!namespace.startsWith(EXECUTION_SPACE_PREFIX) || !name) return undefined;
  return { namespace, name, cluster: namespace.slice(EXECUTION_SPACE_PREFIX.length) };
}

/** The manifest's kind, name and namespace, when it has them. */
function manifestRef(m: unknown): { kind?: unknown; name?: unknown; namespace?: unknown } {
  if (typeof m !== 'object' || m === null) return {};
  const { kind, metadata } = m as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } };
  return { kind, name: metadata?.name, namespace: metadata?.namespace };
}

/**
 * Why `slice` cannot be one Karmada derived, from the slice alone (pure): it names no Work in an
 * execution namespace, or its name is not derived for that namespace's cluster.
 */
export function sliceProblem(slice: Readonly<EndpointSlice>): string | undefined {
  const name = slice.metadata.name ?? '';
  const claimed = claimedWork(slice);
  if (!claimed || claimed.cluster === '')
    return `it names no Work in an execution namespace (annotations ${WORK_NAMESPACE_KEY}, ${WORK_NAME_ANNOTATION})`;
  const prefix = `${IMPORTED_SLICE_PREFIX}${claimed.cluster}-`;
  // The name must agree with the execution space it claims to come from.
  if (!name.startsWith(prefix) || name.length === prefix.length)
    return `its name is not ${prefix}<slice> for the execution namespace ${claimed.namespace} it names`;
  return undefined;
}

/**
 * Why Karmada did not write `slice` (pure), given the Work it names (undefined: that Work does not
 * exist); undefined when the Work says Karmada did. The reasons name only the slice's own fields and
 * the Work's name, never what else the Work holds.
 */
export function notKarmadas(
  slice: Readonly<EndpointSlice>,
  work: Readonly<Work> | undefined,
): string | undefined {
  const problem = sliceProblem(slice);
  const claimed = claimedWork(slice);
  if (problem !== undefined || !claimed) return problem;
  const namespace = slice.metadata.namespace ?? '';
  const serviceLabel = slice.metadata.labels?.[SERVICE_NAME_LABEL] ?? '';
  const service = serviceLabel.startsWith(DERIVED_SERVICE_PREFIX)
    ? serviceLabel.slice(DERIVED_SERVICE_PREFIX.length)
    : '';
  const where = `Work ${claimed.namespace}/${claimed.name}`;
  if (!work) return `${where}, which it names, does not exist`;
  const labels = work.metadata.labels ?? {};
  if (
    labels[WORK_SERVICE_NAMESPACE_LABEL] !== namespace ||
    !service ||
    labels[WORK_SERVICE_NAME_LABEL] !== service
  )
    return `${where} is not the export of Service ${namespace}/${service || '?'}`;
  if (labels[WORK_PERMANENT_ID_LABEL] !== slice.metadata.labels?.[WORK_PERMANENT_ID_LABEL])
    return `its ${WORK_PERMANENT_ID_LABEL} label is not the one of ${where}`;
  const member = (slice.metadata.name ?? '').slice(`${IMPORTED_SLICE_PREFIX}${claimed.cluster}-`.length);
  const derivedFrom = (work.spec?.workload?.manifests ?? [])
    .map(manifestRef)
    .some((m) => m.kind === 'EndpointSlice' && m.name === member && m.namespace === namespace);
  if (!derivedFrom) return `${where} holds no EndpointSlice ${namespace}/${member} to derive it from`;
  return undefined;
}

/** Called for each slice left out, with the reason (for a log line and a Warning Event). */
export type IgnoredSlice = (slice: Readonly<EndpointSlice>, why: string) => void | Promise<void>;

/**
 * The slices of `slices` that Karmada derived from a Work (one GET of a Work per slice that could
 * be one); the others are left out and told to `ignored`.
 */
export async function importedSlicesOnly(
  kube: KubeClient,
  slices: readonly EndpointSlice[],
  ignored?: IgnoredSlice,
): Promise<EndpointSlice[]> {
  const out: EndpointSlice[] = [];
  for (const slice of slices) {
    const claimed = claimedWork(slice);
    const work =
      claimed && sliceProblem(slice) === undefined
        ? await kube.get<Work>(Resources.Work, claimed.namespace, claimed.name)
        : undefined;
    const why = notKarmadas(slice, work);
    if (why === undefined) out.push(slice);
    else await ignored?.(slice, why);
  }
  return out;
}

/**
 * The reconcile's reporter of left-out slices: a log line, and a Warning Event on the object (the
 * slice is in its namespace; repeats aggregate into the Event's count). None without a reconcile
 * (a fingerprint pass, a topology): the slice is left out all the same.
 */
export function reportIgnoredSlices(ctx: ProviderContext | undefined): IgnoredSlice | undefined {
  if (!ctx) return undefined;
  return async (slice, why) => {
    const name = slice.metadata.name ?? '';
    ctx.logger.warn('EndpointSlice left out: Karmada did not derive it from a member cluster', {
      slice: `${slice.metadata.namespace ?? ''}/${name}`,
      why,
    });
    await announceBestEffort(ctx, 'a warning Event', {
      reason: ENDPOINT_SLICE_IGNORED,
      message: `EndpointSlice ${name} is not one Karmada derived from a member cluster (${why}): its endpoints are not targets`,
    });
  };
}
