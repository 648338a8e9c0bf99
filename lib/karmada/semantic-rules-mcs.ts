/**
 * The rules Karmada's multiclusterservice validating webhook enforces on top of the CRD schema
 * (see semantic-rules.ts, whose helpers they share): read only with the MCS validator
 * (validate-mcs.ts), outside the function bundles' start set.
 */
import {
  Collector,
  dns1035Label,
  isObj,
  isStr,
  items,
  maxLen,
  metadataName,
  PORT_RANGE,
  validPort,
  type Check,
  type ValidationIssue,
} from './semantic-rules.js';

export const EXPOSURE_TYPES = ['CrossCluster', 'LoadBalancer'] as const;

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const dnsLabel: Check = (v) =>
  maxLen(v, 63) ??
  (DNS1123_LABEL.test(v)
    ? undefined
    : "must be a DNS-1123 label (lowercase alphanumerics and '-', starting and ending with an alphanumeric)");

/** Karmada's cluster names are DNS-1123 labels of at most 48 characters. */
const clusterName: Check = (v) => maxLen(v, 48) ?? dnsLabel(v);

/** Webhook rules for a MultiClusterService; the schema is checked separately. */
export function multiClusterServiceRules(obj: unknown): ValidationIssue[] {
  const c = new Collector();
  if (!isObj(obj)) return c.issues;
  metadataName(c, obj, dns1035Label);
  const spec = obj.spec;
  if (!isObj(spec)) return c.issues;

  const types = items(spec.types).filter(isStr);
  items(spec.types).forEach((t, i) => {
    if (isStr(t) && !(EXPOSURE_TYPES as readonly string[]).includes(t)) {
      c.add(`spec.types[${i}]`, `must be one of ${EXPOSURE_TYPES.join(', ')}`);
    }
  });
  if (new Set(types).size > 1) c.add('spec.types', 'must not contain more than one distinct type');

  const seen = new Set<string>();
  items(spec.ports).forEach((p, i) => {
    if (!isObj(p)) return;
    const at = `spec.ports[${i}]`;
    if (isStr(p.name) && p.name !== '') {
      c.add(
        `${at}.name`,
        dnsLabel(p.name) ?? (seen.has(p.name) ? `duplicate port name "${p.name}"` : undefined),
      );
      seen.add(p.name);
    }
    if (typeof p.port === 'number') c.add(`${at}.port`, validPort(p.port) ? undefined : PORT_RANGE);
  });

  for (const key of ['providerClusters', 'consumerClusters'] as const) {
    items(spec[key]).forEach((sel, i) => {
      if (isObj(sel)) c.str(`spec.${key}[${i}].name`, sel.name, clusterName, true);
    });
  }
  return c.issues;
}
