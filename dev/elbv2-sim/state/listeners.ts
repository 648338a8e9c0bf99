import type {
  AddListenerCertificatesInput,
  AddListenerCertificatesOutput,
  Certificate,
  ProtocolEnum,
  CreateListenerInput,
  CreateListenerOutput,
  DeleteListenerInput,
  DescribeListenerCertificatesInput,
  DescribeListenerCertificatesOutput,
  DescribeListenersInput,
  DescribeListenersOutput,
  Listener,
  ModifyListenerInput,
  ModifyListenerOutput,
  RemoveListenerCertificatesInput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, quotaReached, required, validation } from '../errors.js';
import type { ListenerRecord, LoadBalancerRecord } from './model.js';
import { normalizeActions, renderActions } from './actions.js';
import { attributesAfterProtocolChange, defaultListenerAttributes } from './listener-attributes.js';
import { normalizeMutualAuthentication, renderMutualAuthentication } from './mutual-auth.js';
import { checkRoutingQuotas } from './quotas.js';
import { paginate } from './store.js';
import type { Store } from './store.js';
import { applyTags, checkTagQuota } from './tags.js';
import { checkEnum, checkPort, checkTags } from './validate.js';

const PROTOCOLS = { application: ['HTTP', 'HTTPS'], network: ['TCP', 'TLS', 'UDP', 'TCP_UDP'] } as const;
const SECURE = new Set(['HTTPS', 'TLS']);
const DEFAULT_SSL_POLICY = 'ELBSecurityPolicy-2016-08';
const CERT_ARN = /^arn:aws:(acm:[a-z0-9-]+:\d{12}:certificate\/.+|iam::\d{12}:server-certificate\/.+)$/;

export function renderListener(store: Store, l: ListenerRecord): Listener {
  return {
    ListenerArn: l.arn,
    LoadBalancerArn: l.loadBalancerArn,
    Port: l.port,
    Protocol: l.protocol,
    Certificates: l.defaultCertificate ? [{ CertificateArn: l.defaultCertificate }] : undefined,
    SslPolicy: l.sslPolicy,
    DefaultActions: renderActions(store.rules.get(l.defaultRuleArn)?.actions ?? []),
    AlpnPolicy: l.alpnPolicy ? [...l.alpnPolicy] : undefined,
    MutualAuthentication: renderMutualAuthentication(l),
  };
}

function checkCertificate(arn: string | undefined): string {
  if (!arn) throw required('certificates.member.certificateArn');
  if (!CERT_ARN.test(arn)) throw new SimError('CertificateNotFound', `Certificate '${arn}' not found`);
  return arn;
}

function checkProtocol(lb: LoadBalancerRecord, protocol: ProtocolEnum | undefined): ProtocolEnum {
  if (!protocol) throw required('protocol');
  if (!(PROTOCOLS[lb.type] as readonly string[]).includes(protocol)) {
    throw new SimError(
      'UnsupportedProtocol',
      `Protocol '${protocol}' is not supported by ${lb.type} load balancers`,
    );
  }
  return protocol;
}

function checkSslPolicy(policy: string | undefined): void {
  if (policy !== undefined && !policy.startsWith('ELBSecurityPolicy-')) {
    throw new SimError('SSLPolicyNotFound', `SSL policy '${policy}' not found`);
  }
}

function checkPortFree(store: Store, lbArn: string, port: number, except?: string): void {
  if (store.listenersOf(lbArn).some((l) => l.port === port && l.arn !== except)) {
    throw new SimError(
      'DuplicateListener',
      `A listener already exists on port ${port} of load balancer '${lbArn}'`,
    );
  }
}

export function createListener(store: Store, input: CreateListenerInput): CreateListenerOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  const protocol = checkProtocol(lb, input.Protocol);
  const port = checkPort(input.Port);
  checkSslPolicy(input.SslPolicy);
  const certs = input.Certificates ?? [];
  if (SECURE.has(protocol) && certs.length !== 1)
    throw validation(`A certificate must be specified for ${protocol} listeners`);
  if (!SECURE.has(protocol) && certs.length > 0)
    throw validation(`Certificates are only allowed for HTTPS and TLS listeners`);
  const certificate = certs[0] ? checkCertificate(certs[0].CertificateArn) : undefined;
  const tags = checkTags(input.Tags);
  checkTagQuota(store, tags);
  const actions = normalizeActions(store, { lb, protocol }, input.DefaultActions);
  checkPortFree(store, lb.arn, port);
  if (store.listenersOf(lb.arn).length >= store.limits.listenersPerLoadBalancer) {
    throw quotaReached(
      'TooManyListeners',
      'listeners per load balancer',
      store.limits.listenersPerLoadBalancer,
    );
  }
  checkRoutingQuotas(store, lb, actions);
  const mutualAuthentication = normalizeMutualAuthentication(
    store,
    lb.arn,
    protocol,
    input.MutualAuthentication,
  );
  const [, lbPath] = lb.arn.split(':loadbalancer/');
  const listenerId = store.newHexId();
  const arn = store.arn(`listener/${lbPath}/${listenerId}`);
  const defaultRuleArn = store.arn(`listener-rule/${lbPath}/${listenerId}/${store.newHexId()}`);
  const listener: ListenerRecord = {
    seq: store.nextSeq(),
    arn,
    loadBalancerArn: lb.arn,
    port,
    protocol,
    sslPolicy: SECURE.has(protocol) ? (input.SslPolicy ?? DEFAULT_SSL_POLICY) : undefined,
    defaultCertificate: certificate,
    extraCertificates: [],
    alpnPolicy: checkAlpnPolicy(protocol, input.AlpnPolicy),
    defaultRuleArn,
    mutualAuthentication,
    attributes: new Map(),
  };
  listener.attributes = defaultListenerAttributes(listener);
  store.listeners.set(arn, listener);
  store.rules.set(defaultRuleArn, {
    seq: store.nextSeq(),
    arn: defaultRuleArn,
    listenerArn: arn,
    priority: 'default',
    conditions: [],
    actions,
    transforms: [],
  });
  if (tags.length > 0) applyTags(store, arn, tags);
  return { Listeners: [renderListener(store, listener)] };
}

export function describeListeners(store: Store, input: DescribeListenersInput): DescribeListenersOutput {
  let items: ListenerRecord[];
  if (input.ListenerArns?.length) {
    if (input.LoadBalancerArn)
      throw validation('Listener ARNs and a load balancer ARN cannot be specified together');
    items = [...new Set(input.ListenerArns.map((arn) => store.listener(arn)))];
  } else if (input.LoadBalancerArn) {
    items = store.listenersOf(store.loadBalancer(input.LoadBalancerArn).arn);
  } else {
    throw validation('You must specify either listener ARNs or a load balancer ARN');
  }
  const { page, nextMarker } = paginate(items, input.Marker, input.PageSize);
  return { Listeners: page.map((l) => renderListener(store, l)), NextMarker: nextMarker };
}

export function modifyListener(store: Store, input: ModifyListenerInput): ModifyListenerOutput {
  const listener = store.listener(input.ListenerArn);
  const lb = store.loadBalancer(listener.loadBalancerArn);
  const protocol = input.Protocol !== undefined ? checkProtocol(lb, input.Protocol) : listener.protocol;
  const port = input.Port !== undefined ? checkPort(input.Port) : listener.port;
  checkSslPolicy(input.SslPolicy);
  checkPortFree(store, lb.arn, port, listener.arn);
  const certs = input.Certificates;
  if (certs && certs.length > 1) throw validation('Only one default certificate can be specified');
  const certificate = certs?.[0]
    ? checkCertificate(certs[0].CertificateArn)
    : SECURE.has(protocol)
      ? listener.defaultCertificate
      : undefined;
  if (SECURE.has(protocol) && !certificate)
    throw validation(`A certificate must be specified for ${protocol} listeners`);
  const defaultRule = store.rules.get(listener.defaultRuleArn);
  const actions = input.DefaultActions?.length
    ? normalizeActions(store, { lb, protocol, previous: defaultRule?.actions }, input.DefaultActions)
    : undefined;
  if (actions) checkRoutingQuotas(store, lb, actions, listener.defaultRuleArn);
  const mutualAuthentication = normalizeMutualAuthentication(
    store,
    lb.arn,
    protocol,
    input.MutualAuthentication,
    listener,
  );
  const alpnPolicy = checkAlpnPolicy(protocol, input.AlpnPolicy);
  // Everything validated: apply as one step so a failed call changes nothing.
  const protocolChanged = protocol !== listener.protocol;
  listener.protocol = protocol;
  if (protocolChanged) listener.attributes = attributesAfterProtocolChange(listener);
  if (protocol !== 'HTTPS') listener.mutualAuthentication = undefined;
  else if (mutualAuthentication) listener.mutualAuthentication = mutualAuthentication;
  listener.port = port;
  listener.defaultCertificate = certificate;
  listener.sslPolicy = SECURE.has(protocol)
    ? (input.SslPolicy ?? listener.sslPolicy ?? DEFAULT_SSL_POLICY)
    : undefined;
  if (!SECURE.has(protocol)) listener.extraCertificates = [];
  if (input.AlpnPolicy) listener.alpnPolicy = alpnPolicy;
  else if (protocol !== 'TLS') listener.alpnPolicy = undefined;
  if (actions && defaultRule) defaultRule.actions = actions;
  return { Listeners: [renderListener(store, listener)] };
}

/** Removes a listener with its rules and their tags (also used when a load balancer goes). */
export function deleteListenerRecord(store: Store, listener: ListenerRecord): void {
  for (const rule of store.rulesOf(listener.arn)) {
    store.rules.delete(rule.arn);
    store.deleteTags(rule.arn);
  }
  store.listeners.delete(listener.arn);
  store.deleteTags(listener.arn);
}

export function deleteListener(store: Store, input: DeleteListenerInput): Record<string, never> {
  deleteListenerRecord(store, store.listener(input.ListenerArn));
  return {};
}

export function addListenerCertificates(
  store: Store,
  input: AddListenerCertificatesInput,
): AddListenerCertificatesOutput {
  const listener = store.listener(input.ListenerArn);
  if (!SECURE.has(listener.protocol))
    throw validation('Certificates can only be added to HTTPS and TLS listeners');
  const arns = (input.Certificates ?? []).map((c) => checkCertificate(c.CertificateArn));
  if (arns.length === 0) throw required('certificates');
  const merged = [...new Set([...listener.extraCertificates, ...arns])];
  if (merged.length + 1 > store.limits.certificatesPerListener) {
    throw new SimError(
      'TooManyCertificates',
      'The quota for the number of certificates per listener has been reached',
    );
  }
  listener.extraCertificates = merged;
  return { Certificates: arns.map((CertificateArn) => ({ CertificateArn, IsDefault: false })) };
}

export function removeListenerCertificates(
  store: Store,
  input: RemoveListenerCertificatesInput,
): Record<string, never> {
  const listener = store.listener(input.ListenerArn);
  const arns = (input.Certificates ?? []).map((c) => c.CertificateArn ?? '');
  if (arns.length === 0) throw required('certificates');
  if (arns.includes(listener.defaultCertificate ?? '\0')) {
    throw new SimError(
      'OperationNotPermitted',
      'The default certificate cannot be removed; use ModifyListener instead',
    );
  }
  listener.extraCertificates = listener.extraCertificates.filter((c) => !arns.includes(c));
  return {};
}

export function describeListenerCertificates(
  store: Store,
  input: DescribeListenerCertificatesInput,
): DescribeListenerCertificatesOutput {
  const listener = store.listener(input.ListenerArn);
  const all: (Certificate & { seq: number })[] = [
    ...(listener.defaultCertificate
      ? [{ CertificateArn: listener.defaultCertificate, IsDefault: true }]
      : []),
    ...listener.extraCertificates.map((CertificateArn) => ({ CertificateArn, IsDefault: false })),
  ].map((c, i) => ({ ...c, seq: i + 1 }));
  const { page, nextMarker } = paginate(all, input.Marker, input.PageSize);
  return {
    Certificates: page.map(({ CertificateArn, IsDefault }) => ({ CertificateArn, IsDefault })),
    NextMarker: nextMarker,
  };
}

const ALPN_POLICIES = ['HTTP1Only', 'HTTP2Only', 'HTTP2Optional', 'HTTP2Preferred', 'None'];

/** API_CreateListener: one ALPN policy, for TLS listeners only. */
function checkAlpnPolicy(protocol: string, policy: readonly string[] | undefined): string[] | undefined {
  if (!policy?.length) return undefined;
  if (policy.length > 1) throw validation('Only one ALPN policy can be specified');
  checkEnum(policy[0], 'alpnPolicy', ALPN_POLICIES);
  if (protocol !== 'TLS')
    throw validation(`ALPN policies are supported only for TLS listeners, not ${protocol}`);
  return [...policy];
}
