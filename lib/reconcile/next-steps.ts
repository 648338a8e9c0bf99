/**
 * What an operator does next, for every Warning Event and every `LoadBalancerReady=False`
 * condition: the message says what failed, then "Next: …" says how to get the object served.
 * Reasons are the InvalidObjectError reasons of the reconcilers and providers, the lifecycle's own
 * failure reasons, and the providers' announcements (`Replacing<Resource>`);
 * test/unit/next-steps.test.ts reads lib/ and fails when a reason has no entry here.
 */
import {
  CancelledError,
  findCause,
  OwnershipConflictError,
  ProviderConfigError,
  RetryLaterError,
} from '../errors.js';

const RECONCILED_ON_CHANGE = 'the object is reconciled again as soon as it changes';

/** Reasons whose next step does not depend on the cause. */
export const NEXT_STEPS: Readonly<Record<string, string>> = {
  // Karmada's CRD validation (lib/karmada/validate.ts) and InvalidObjectError's default.
  InvalidSpec: `fix the field named above in the object (kubectl edit); ${RECONCILED_ON_CHANGE}`,
  InvalidAnnotation: `fix or remove the annotation named above (the README lists every key and its values); ${RECONCILED_ON_CHANGE}`,
  LimitExceeded:
    'stay within the ELBv2 quota named above: split the object, combine hosts or paths into fewer rules, or shorten the name; nothing was created in AWS',
  ServiceNotFound:
    'create the Service in the same namespace on the Karmada API server (or fix the name); the load balancer is built when it appears',
  NoPorts: 'add a port to the Service, or list the ports to expose in spec.ports of the MultiClusterService',
  ServicePortNotFound:
    'use a port the Service defines (by number, or by name for an Ingress backend), or add it to the Service',
  NotLoadBalancer: 'add LoadBalancer to spec.types to get a load balancer',
  // The multi-Region AWS provider (lib/providers/aws/regions/).
  ClusterRegionUnknown:
    "set the Cluster object's spec.region to one of the provider configuration's regions, or map the cluster in its clusterRegions (or add its Region to regions); the other clusters are served meanwhile",
  ClusterWeightsPerRegion: `nothing is broken: inside each Region the weights split that Region's traffic among its clusters, as asked; to move traffic between Regions, set multicluster.karmada.io/global-accelerator-traffic-dials (a Region whose clusters are all at weight 0 is drained, its dial at 0, without it), or name only one Region's clusters in the weights to silence this`,
  UnsupportedProtocol:
    "NLB listeners are TCP or UDP: change the port's protocol, or leave the port out of spec.ports",
  UnsupportedBackend:
    'use a service backend (service.name and service.port); resource backends are not supported',
  InvalidBackend: `give the backend service.name and service.port (number or name); ${RECONCILED_ON_CHANGE}`,
  InvalidPath:
    'remove * and ? from Exact and Prefix paths, or use pathType ImplementationSpecific to pass an ELBv2 path pattern as it is',
  UnregistrableTarget:
    "only private addresses (RFC 1918, 100.64.0.0/10) can be IPv4 targets, and no link-local, loopback or multicast address an IPv6 one: check the member cluster's EndpointSlice for that Service (pods on public addresses cannot sit behind the load balancer)",
  SecurityGroupSourcesIgnored: `remove the source annotations named above (inbound-cidrs, security-group-prefix-lists; load-balancer-source-ranges on a MultiClusterService), or the security-groups annotation (then the load balancer gets a managed group that applies them); the load balancer is served either way`,
  NlbSecurityGroupsDisabled:
    'remove the security-group annotations named above, or disable-nlb-sg (only before the NLB exists: AWS adds no security groups to an NLB created without them); the NLB is served either way',
  NlbKeptWithoutSecurityGroups:
    'the NLB serves as before, with no source restriction; to have the security groups applied, set service.beta.kubernetes.io/aws-load-balancer-name to a new name (the NLB is replaced and its DNS name changes: point clients at the new hostname in status.loadBalancer), or delete and recreate the MultiClusterService',
  NlbSecurityGroupsRequired: `remove service.beta.kubernetes.io/aws-load-balancer-disable-nlb-sg (the NLB keeps security groups), or delete the MultiClusterService and create it again with the annotation to get an NLB without; ${RECONCILED_ON_CHANGE}`,
  SubnetNotFound: `list subnet IDs, or names (Name tags) of subnets in the configured VPC, in the subnets annotation named above; ${RECONCILED_ON_CHANGE}`,
  SubnetsNotDiscovered:
    'tag subnets of the configured VPC with the role tag named above (kubernetes.io/role/elb for internet-facing, kubernetes.io/role/internal-elb for internal), one per Availability Zone, or list subnets in the annotation named above; tags are read again within 10 minutes',
  DualstackRequired: `set alb.ingress.kubernetes.io/ip-address-type: dualstack on the MultiClusterIngress (service.beta.kubernetes.io/aws-load-balancer-ip-address-type: dualstack on a MultiClusterService), or drop IPv6 from the Service's spec.ipFamilies; ${RECONCILED_ON_CHANGE}`,
  AuthSecretNotFound: `create the Secret named in auth-idp-oidc's secretName in the MultiClusterIngress's namespace, with keys clientID and clientSecret (kubectl create secret generic <name> --from-literal=clientID=… --from-literal=clientSecret=…), or fix the name; if the Secret exists, apply infra/functions-rbac/oidc-secrets in that namespace so the functions may read it; ${RECONCILED_ON_CHANGE}`,
  InvalidAuthSecret: `add the missing key to the Secret named in auth-idp-oidc (it needs clientID and clientSecret, both non-empty); ${RECONCILED_ON_CHANGE}`,
  ReplacingLoadBalancer:
    'the load balancer is recreated and its DNS name changes: point DNS records and clients at the new hostname in status.loadBalancer once the object is ready (revert the change named above to keep the old one)',
  IngressGroupConflict: `make the setting named above agree with the member ahead of this one (it keeps its place: change this MultiClusterIngress, or ask that member's owners), ask for nothing the tenant policy rule named above forbids, or give this MultiClusterIngress another group.name; the rest of the group keeps being served, and this one joins as soon as it agrees`,
  IngressGroupRouteTaken:
    'route other hosts or paths than the ones named above (a member of another namespace ahead of this one routes them first), or give this MultiClusterIngress another group.name; the rest of the group keeps being served, and this one joins as soon as its routes are its own',
  TenantPolicyViolation: `change the object to what the tenant policy rule named above allows (for a discovered certificate: request or import one the rule allows, or name an allowed one in certificate-arn; for the default: what the provider configuration gives), or ask the operator to change the rule, or add one, in tenantPolicy of the provider configuration; ${RECONCILED_ON_CHANGE}`,
  IngressGroupNotShared:
    'name a group of this namespace in group.name, or ask the operator to list this namespace under the group in tenantPolicy.sharedGroups of the provider configuration',
  ReplacingTargetGroup:
    'nothing to do: the new target group takes the targets and the old one is deleted once no listener uses it; expect a short gap while targets register',
  UnsupportedAnnotation:
    "the load balancer is served without the annotations named above: remove them, fix a misspelt key, or use what the README's key table suggests instead; the rest of the object is unaffected",
  UnusedRoutingAnnotation:
    "nothing is broken: the annotations named above match no backend, so they change nothing; fix the name after actions./conditions./transforms. to a backend's service.name (and port.name use-annotation for an action), or remove them",
  InvalidClusterWeights: `fix the cluster-weights annotation named above: comma-separated <cluster>=<weight> (0-999, at least one above 0, \`*\` for every other cluster), naming only clusters the object's Services are placed in, and at most 5 distinct weights on a backend in more than 5 clusters (cluster-weights-from takes only \`placement\`); ${RECONCILED_ON_CHANGE}`,
  PlacementWeightsUnavailable: `the backend named above takes its weights from Karmada's placement (cluster-weights-from: placement), which has none to give yet: make its Service's selector match a Deployment or StatefulSet's pod template labels, let a PropagationPolicy place that workload, or give it replicas; or set explicit weights with multicluster.karmada.io/cluster-weights; the object is reconciled again when Karmada reschedules the workload`,
  ClusterDrained:
    'nothing to do: the cluster named above takes no new requests (weight 0) and its targets are deregistered once the deregistration delay has passed; give it a weight above 0 (or lift the TrafficControl block) to restore it',
  ClusterRestored:
    'nothing to do: the cluster named above takes its share again; its targets were registered before the weight came back',
  InvalidAcceleratorAnnotation: `fix or remove the global-accelerator annotation named above (the README's Global Accelerator section lists the keys and their values); nothing was created in Global Accelerator; ${RECONCILED_ON_CHANGE}`,
  GlobalAcceleratorNotConfigured: `remove the global-accelerator annotation named above (or set it to "false"), or ask the operator to configure globalAccelerator in the provider configuration (and a tenant policy that allows the accelerator); nothing was created in Global Accelerator; ${RECONCILED_ON_CHANGE}`,
  AcceleratorLimitExceeded: `stay within the Global Accelerator quota named above: fewer listen ports or MCS ports (one listener each), or delete accelerators the account no longer uses (ours being deleted count until Global Accelerator has removed them), or ask AWS for a higher quota (Service Quotas, Global Accelerator); ${RECONCILED_ON_CHANGE}`,
  // Ownership conflicts (lib/providers/aws/ownership-conflict.ts): permanent, not retried.
  LoadBalancerNameInUse: `give this object (or the other one, when it is named above) another name with the load-balancer-name annotation, or remove the annotation to get a name of its own; ${RECONCILED_ON_CHANGE}, and at each resync`,
  OwnershipConflict: `a resource under the name this object needs exists in AWS without this deployment's ownership tags, and is never touched: give the object another name with the load-balancer-name annotation (for a load balancer), or ask the operator to delete or rename that resource; ${RECONCILED_ON_CHANGE}, and at each resync`,
  EndpointSliceIgnored:
    'only EndpointSlices Karmada derived from a member cluster (from its Work in karmada-es-<cluster>) give targets: delete the slice named above if someone wrote it by hand, and export the Service from its member clusters for Karmada to collect their endpoints; the rest of the object is served',
  AcceleratorRecordRejected:
    'nothing to do on the object: its accelerator was reconciled as Global Accelerator holds it, and nothing the record named was changed; tell the operator, since only the functions should write the ConfigMaps of the record namespace (recordNamespace in the provider configuration)',
  UnsupportedTargetType:
    "nothing to do: the load balancer is served with target type ip (the pods' IPs); remove the target-type annotation, or set it to ip, to silence this",
};

/** Cause-dependent steps for the lifecycle's failure reasons, in the order they are checked. */
const FAILURE_STEPS: Array<{ matches: (err: unknown) => boolean; step: string }> = [
  {
    matches: (err) => findCause(err, OwnershipConflictError) !== undefined,
    step: 'a resource with the name this object needs exists in AWS without our ownership tags and is never touched: delete or rename it, or give the object another name with the load-balancer-name annotation',
  },
  {
    matches: (err) => findCause(err, ProviderConfigError) !== undefined,
    step: 'fix the provider configuration (CLOUD_CONFIG) and redeploy; `osls package` validates it before deploying',
  },
  {
    matches: (err) => awsErrorName(err, /^(AccessDenied|UnauthorizedOperation|AuthFailure)/),
    step: "the functions' IAM role may not make the call named above: check that ownerId in the provider configuration equals the awsOwnerId parameter and redeploy; the policy only allows changes to resources tagged with it",
  },
  {
    matches: (err) => awsErrorName(err, /^(CertificateNotFound|InvalidCertificate|UnsupportedCertificate)/),
    step: "check the certificate-arn annotation: the certificate must exist in ACM, in the load balancer's Region, and be issued",
  },
  {
    matches: (err) => awsErrorName(err, /^TrustStore(NotFound|NotReady)/),
    step: "check the mutual-authentication annotation: the trust store (ARN or name) must exist and be active in the load balancer's Region and account; the provider refers to trust stores, it never creates them",
  },
  {
    matches: (err) =>
      awsErrorName(
        err,
        /^(SubnetNotFound|InvalidSubnet|InvalidSecurityGroup|InvalidScheme|AllocationIdNotFound)/,
      ),
    step: 'the subnets, security groups or Elastic IPs named above are wrong for this load balancer: fix the subnets/security-groups/eip-allocations annotation or the provider configuration (one subnet per availability zone, in the configured VPC; each Elastic IP allocation in the Region and associated with nothing else)',
  },
  {
    matches: (err) => awsErrorName(err, /^TooMany/),
    step: 'an AWS account quota is reached: delete unused load balancers or target groups, or ask AWS for a higher quota (Service Quotas, Elastic Load Balancing)',
  },
  {
    matches: (err) => findCause(err, CancelledError) !== undefined,
    step: 'the reconcile ran out of time and is retried automatically; if this repeats, raise the function timeout or lower the work per object',
  },
  {
    matches: (err) => findCause(err, RetryLaterError)?.reason === 'AcceleratorDeleting',
    step: 'nothing to do: Global Accelerator deletes an accelerator only once it is disabled and deployed, which takes minutes; the deletion goes on by itself at each retry, and the finalizer is removed once the accelerator is gone',
  },
  {
    matches: (err) => findCause(err, RetryLaterError) !== undefined,
    step: "transient: it is retried automatically after a backoff; act only if it persists (then see the ELBv2 throttling metric and lower the deployment's elbv2CallsPerSecond, or look for another client using the same account's ELBv2 API)",
  },
  {
    matches: (err) => awsErrorName(err, /^RegionsFailedError$/),
    step: "the Regions marked failed are retried automatically with backoff, and the others are served meanwhile; if one keeps failing, check that Region's endpoints, quotas and the ELBv2 throttling metric",
  },
  {
    matches: (err) => kubeStatus(err) === 403,
    step: "the functions' Kubernetes identity lacks a permission: apply infra/functions-rbac on the Karmada API server",
  },
];

const FAILURE_DEFAULT =
  "it is retried automatically with backoff; if it persists, the function's log lines for this object (key namespace/name) carry the full error, and after 8 attempts the notification goes to the dead-letter queue";

/** Reasons whose next step is chosen by the error that caused them. */
export const FAILURE_REASONS = ['SyncLoadBalancerFailed', 'DeleteLoadBalancerFailed'] as const;

/** The next step for a Warning reason, from its cause when it is one of the failure reasons. */
export function nextStep(reason: string, cause?: unknown): string {
  if ((FAILURE_REASONS as readonly string[]).includes(reason)) {
    return FAILURE_STEPS.find((s) => s.matches(cause))?.step ?? FAILURE_DEFAULT;
  }
  return NEXT_STEPS[reason] ?? FAILURE_DEFAULT;
}

/** Events and conditions keep 1024 characters: the message gives way, the next step is kept whole. */
const MAX_MESSAGE = 1024;

/** `message` followed by what to do next. */
export function withNextStep(reason: string, message: string, cause?: unknown): string {
  const step = ` Next: ${nextStep(reason, cause)}.`;
  const base = /[.!?]$/.test(message) ? message : `${message}.`;
  const room = MAX_MESSAGE - step.length;
  return (base.length > room ? `${base.slice(0, Math.max(0, room - 3))}...` : base) + step;
}

function awsErrorName(err: unknown, pattern: RegExp): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 16 && cur != null; i++) {
    const name = (cur as { name?: unknown }).name;
    if (typeof name === 'string' && pattern.test(name)) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}

function kubeStatus(err: unknown): number | undefined {
  let cur: unknown = err;
  for (let i = 0; i < 16 && cur != null; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'number') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}
