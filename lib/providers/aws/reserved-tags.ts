/**
 * Tag keys neither the configuration's defaultTags nor a tags annotation may set. Our own prefix
 * (ownership decides what we may delete), AWS's (`aws:`), and other controllers' ownership tags:
 * a load balancer tagged `elbv2.k8s.aws/cluster` or `kubernetes.io/cluster/<name>` would be claimed
 * (and, by their sweeps, deleted) by AWS Load Balancer Controller or a Kubernetes cloud provider.
 * AWS tag keys are case-sensitive, but these tools compare in ways that are not always, and a key
 * differing only in case is never meant innocently: compared case-insensitively.
 */
import { TAG_PREFIX } from './tagging.js';

export const RESERVED_TAG_PREFIXES: readonly string[] = [
  `${TAG_PREFIX}/`,
  'aws:',
  // AWS Load Balancer Controller
  'elbv2.k8s.aws/',
  'ingress.k8s.aws/',
  'service.k8s.aws/',
  // Kubernetes (cloud provider, EKS) ownership
  'kubernetes.io/',
  'k8s.io/',
  'eks:',
];

/** Whose `key` is when it may not be set by configuration or an annotation, else undefined. */
export function reservedTagOwner(key: string): string | undefined {
  const lower = key.toLowerCase();
  const prefix = RESERVED_TAG_PREFIXES.find((p) => lower.startsWith(p));
  if (!prefix) return undefined;
  if (prefix === `${TAG_PREFIX}/`) return 'this provider’s ownership tags';
  if (prefix === 'aws:' || prefix === 'eks:') return 'AWS’s own';
  return `another controller’s ownership tags, ${prefix}*`;
}
