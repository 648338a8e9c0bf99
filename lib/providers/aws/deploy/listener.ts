/** Listeners (LBC pkg/deploy/elbv2/listener_synthesizer.go), planned: matched by port on our load balancer. */
import type {
  Listener,
  MutualAuthenticationAttributes,
  Rule,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ListenerResource, MutualAuthenticationSpec } from '../model/types.js';
import { recordToTags } from '../tagging.js';
import { actionsKey, toSdkActions, usesOidc, type ArnResolver } from './actions.js';
import { planTags, type Operation, type PlanContext, type PlannedCall } from './operations.js';
import { arnRef, type Arn } from './refs.js';
import { attributesToSet } from './target-group.js';
import { DEFAULT_QUOTAS } from '../model/limits.js';

/** `k=v, k2=v2`: what the change plan shows of listener attributes (values are short). */
const attributeText = (attrs: ReadonlyArray<{ Key: string; Value: string }>) =>
  `attributes ${attrs.map((a) => `${a.Key}=${a.Value}`).join(', ')}`;

export interface ActualListener {
  listener: Listener;
  /** Non-default certificates (DescribeListenerCertificates), for HTTPS/TLS listeners. */
  extraCertificates: string[];
  /** Non-default rules (DescribeRules), for HTTP/HTTPS listeners we keep. */
  rules: Rule[];
  /** Described only when the desired listener sets attributes. */
  attributes?: Record<string, string>;
  /** Tags of the listener and its rules by ARN: described on resyncs only (drift repair). */
  tags?: ReadonlyMap<string, Record<string, string>>;
}

export const SECURE_PROTOCOLS: readonly string[] = ['HTTPS', 'TLS'];

/**
 * The request's MutualAuthentication: absent in the spec is `off` (so removing the annotation
 * turns mutual TLS off; LBC needs an explicit `off`). A trust store name is replaced by its ARN.
 */
export function toSdkMutualAuthentication(
  spec: MutualAuthenticationSpec | undefined,
  trustStores: ReadonlyMap<string, string>,
): MutualAuthenticationAttributes {
  if (spec?.mode !== 'verify') return { Mode: spec?.mode ?? 'off' };
  return {
    Mode: 'verify',
    TrustStoreArn: trustStores.get(spec.trustStore) ?? spec.trustStore,
    IgnoreClientCertificateExpiry: spec.ignoreClientCertificateExpiry,
    AdvertiseTrustStoreCaNames: spec.advertiseTrustStoreCaNames,
  };
}

/** What DescribeListeners reports, in the request's canonical form (AWS's defaults filled in). */
function mutualAuthenticationKey(m: MutualAuthenticationAttributes | undefined): string {
  const mode = m?.Mode ?? 'off';
  if (mode !== 'verify') return mode;
  return JSON.stringify([
    mode,
    m?.TrustStoreArn ?? '',
    m?.IgnoreClientCertificateExpiry ?? false,
    m?.AdvertiseTrustStoreCaNames ?? 'off',
  ]);
}

const mutualAuthenticationText = (m: MutualAuthenticationAttributes) =>
  `mutual authentication ${m.Mode ?? 'off'}${m.TrustStoreArn ? ` (trust store ${m.TrustStoreArn})` : ''}`;

/** A listener's ALPN policy as compared: AWS reports none, `[]` or `['None']` for no ALPN. */
const alpnKey = (p: readonly string[] | undefined) => (p?.length ? p.join(',') : 'None');

export interface ListenerPlan {
  operations: Operation[];
  /**
   * The listeners on ports no longer served: deleted after the listeners this plan creates and
   * their rules (planStack), so a load balancer whose ports move (HTTP:80 → HTTPS:443 when
   * certificate-arn is added) is never without a listener; first, as LBC does, when creating
   * before deleting would go over the listener quota.
   */
  retired: Operation[];
  /** Listener resource ID → ARN or placeholder, and its actual rules (undefined: created now). */
  deployed: Map<
    string,
    { arn: Arn; rules: Rule[] | undefined; tags?: ReadonlyMap<string, Record<string, string>> }
  >;
}

export function planListeners(
  pc: PlanContext,
  lbArn: Arn,
  desired: readonly ListenerResource[],
  actual: readonly ActualListener[],
  resolve: ArnResolver,
  /** Trust store names the stack uses → their ARNs (discovery resolved them). */
  trustStores: ReadonlyMap<string, string> = new Map(),
  /** An OIDC client Secret changed: default actions that authenticate with OIDC are sent again. */
  secretsRotated = false,
): ListenerPlan {
  const operations: Operation[] = [];
  const retired: Operation[] = [];
  const deployed: ListenerPlan['deployed'] = new Map();
  const desiredPorts = new Set(desired.map((d) => d.spec.port));
  for (const a of actual) {
    if (a.listener.Port !== undefined && desiredPorts.has(a.listener.Port)) continue;
    retired.push({
      op: 'delete',
      resource: 'Listener',
      id: `${a.listener.Protocol ?? ''}:${a.listener.Port ?? ''}`,
      detail: 'port no longer served',
      calls: [{ action: 'DeleteListener', input: { ListenerArn: a.listener.ListenerArn } }],
    });
  }
  for (const d of desired) {
    const defaultActions = toSdkActions(d.spec.defaultActions, resolve);
    const secure = SECURE_PROTOCOLS.includes(d.spec.protocol);
    const [defaultCert, ...extraCerts] = secure ? (d.spec.certificates ?? []) : [];
    const tls = secure
      ? {
          ...(defaultCert ? { Certificates: [{ CertificateArn: defaultCert }] } : {}),
          ...(d.spec.sslPolicy ? { SslPolicy: d.spec.sslPolicy } : {}),
        }
      : {};
    // TLS listeners always state their ALPN policy: `None` (AWS's default) when none is asked for.
    const alpn = d.spec.protocol === 'TLS' ? [d.spec.alpnPolicy ?? 'None'] : undefined;
    const https = d.spec.protocol === 'HTTPS';
    const mtls = https ? toSdkMutualAuthentication(d.spec.mutualAuthentication, trustStores) : undefined;
    const a = actual.find((l) => l.listener.Port === d.spec.port);
    const calls: PlannedCall[] = [];
    if (a?.listener.ListenerArn) {
      const arn = a.listener.ListenerArn;
      const changes: string[] = [];
      if (a.listener.Protocol !== d.spec.protocol)
        changes.push(`protocol ${a.listener.Protocol ?? ''} → ${d.spec.protocol}`);
      if (actionsKey(a.listener.DefaultActions) !== actionsKey(defaultActions))
        changes.push('default action');
      else if (secretsRotated && usesOidc(d.spec.defaultActions))
        changes.push('default action (OIDC client secret changed)');
      if (secure && a.listener.Certificates?.[0]?.CertificateArn !== defaultCert)
        changes.push('default certificate');
      if (secure && d.spec.sslPolicy !== undefined && a.listener.SslPolicy !== d.spec.sslPolicy)
        changes.push('ssl policy');
      const mtlsChanged =
        mtls !== undefined &&
        mutualAuthenticationKey(
          a.listener.Protocol === 'HTTPS' ? a.listener.MutualAuthentication : undefined,
        ) !== mutualAuthenticationKey(mtls);
      if (mtls && mtlsChanged) changes.push(mutualAuthenticationText(mtls));
      const alpnChanged = alpn !== undefined && alpnKey(a.listener.AlpnPolicy) !== alpnKey(alpn);
      if (alpnChanged) changes.push(`ALPN policy ${alpn.join(', ')}`);
      if (changes.length > 0) {
        calls.push({
          action: 'ModifyListener',
          input: {
            ListenerArn: arn,
            Port: d.spec.port,
            Protocol: d.spec.protocol,
            DefaultActions: defaultActions,
            ...tls,
            // Sent when it changes or is configured; otherwise AWS keeps what the listener has.
            ...(mtls && (mtlsChanged || d.spec.mutualAuthentication) ? { MutualAuthentication: mtls } : {}),
            ...(alpn && (alpnChanged || d.spec.alpnPolicy) ? { AlpnPolicy: alpn } : {}),
          },
        });
      }
      const have = secure && a.listener.Protocol === d.spec.protocol ? a.extraCertificates : [];
      const add = extraCerts.filter((c) => !have.includes(c));
      const remove = have.filter((c) => !extraCerts.includes(c) && c !== defaultCert);
      if (add.length > 0) {
        changes.push(`+${add.length} certificate(s)`);
        calls.push({
          action: 'AddListenerCertificates',
          input: { ListenerArn: arn, Certificates: add.map((CertificateArn) => ({ CertificateArn })) },
        });
      }
      if (remove.length > 0) {
        changes.push(`-${remove.length} certificate(s)`);
        calls.push({
          action: 'RemoveListenerCertificates',
          input: { ListenerArn: arn, Certificates: remove.map((CertificateArn) => ({ CertificateArn })) },
        });
      }
      // After ModifyListener: a protocol change resets the attributes the new protocol lacks.
      const attrs = attributesToSet(d.spec.attributes, a.attributes);
      if (attrs.length > 0) {
        changes.push(attributeText(attrs));
        calls.push({ action: 'ModifyListenerAttributes', input: { ListenerArn: arn, Attributes: attrs } });
      }
      if (a.tags) {
        const tags = planTags(pc, arn, d.spec.tags, a.tags.get(arn) ?? {});
        changes.push(...tags.changes);
        calls.push(...tags.calls);
      }
      if (calls.length > 0)
        operations.push({ op: 'modify', resource: 'Listener', id: d.id, detail: changes.join('; '), calls });
      deployed.set(d.id, { arn, rules: a.rules, ...(a.tags ? { tags: a.tags } : {}) });
      continue;
    }
    calls.push({
      action: 'CreateListener',
      produces: d.id,
      input: {
        LoadBalancerArn: lbArn,
        Port: d.spec.port,
        Protocol: d.spec.protocol,
        DefaultActions: defaultActions,
        ...tls,
        ...(mtls && d.spec.mutualAuthentication ? { MutualAuthentication: mtls } : {}),
        ...(d.spec.alpnPolicy && alpn ? { AlpnPolicy: alpn } : {}),
        Tags: recordToTags(d.spec.tags),
      },
    });
    if (extraCerts.length > 0) {
      calls.push({
        action: 'AddListenerCertificates',
        input: {
          ListenerArn: arnRef(d.id),
          Certificates: extraCerts.map((CertificateArn) => ({ CertificateArn })),
        },
      });
    }
    // CreateListener takes no attributes: they are set right after it.
    const attrs = attributesToSet(d.spec.attributes, undefined);
    if (attrs.length > 0) {
      calls.push({
        action: 'ModifyListenerAttributes',
        input: { ListenerArn: arnRef(d.id), Attributes: attrs },
      });
    }
    operations.push({
      op: 'create',
      resource: 'Listener',
      id: d.id,
      detail: [
        `${d.spec.protocol}:${d.spec.port}`,
        ...(mtls && d.spec.mutualAuthentication ? [mutualAuthenticationText(mtls)] : []),
        ...(d.spec.alpnPolicy && alpn ? [`ALPN policy ${d.spec.alpnPolicy}`] : []),
        ...(attrs.length ? [attributeText(attrs)] : []),
      ].join('; '),
      calls,
    });
    deployed.set(d.id, { arn: arnRef(d.id), rules: undefined });
  }
  const created = operations.filter((o) => o.op === 'create').length;
  // AWS's default quota (the same for both types), adjustable: beyond it, make room first.
  if (actual.length + created > DEFAULT_QUOTAS.listenersPerApplicationLoadBalancer)
    return { operations: [...retired, ...operations], retired: [], deployed };
  return { operations, retired, deployed };
}
