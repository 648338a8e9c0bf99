/**
 * Tenant guardrails: what the operator lets a MultiClusterIngress or MultiClusterService ask for,
 * the way AWS Load Balancer Controller's IngressClassParams pins scheme, subnets and the rest.
 * The policy is part of the provider configuration (`tenantPolicy`), a list of rules; a rule
 * applies to the objects of its `kinds` (MultiClusterIngress, MultiClusterService; a rule with
 * `ingressClasses` must name them, since a MultiClusterService has no IngressClass) in the
 * namespaces its label selector matches, and every rule that applies must hold. Each rule may:
 * - pin or limit the scheme, the subnets and the security groups (subnet discovery keeps to the
 *   allowed subnets: `allowedSubnets`);
 * - allow only listed certificates (ARN patterns), and require that a certificate's names
 *   (declared next to it, no ACM call) cover the hosts of the listener's rules;
 * - allow only listed SSL policies;
 * - allow or deny load-balancer and target-group attributes and tag keys (key patterns);
 * - limit the managed security group's sources (`inboundCidrs`), the Elastic IPs
 *   (`eipAllocations`), the OIDC identity providers (`oidc`), allow or refuse an accelerator
 *   (`globalAccelerator`), and require a web ACL on ALBs (`requireWebAcl`);
 * - cap the load balancers per namespace (the oldest objects keep theirs).
 *
 * Closed by default: where no applicable rule sets one of the exposure fields, the object gets
 * only what the configuration gives it (POLICY_DEFAULTS below: its scheme or internal, its subnets
 * or the role-tagged ones, its security groups or the managed one, discovered certificates, no
 * Elastic IP, no OIDC provider, an accelerator only where public exposure is allowed anyway).
 *
 * The check runs on the model the build step produced (accelerator intent included), before
 * anything is deployed; a violation is an InvalidObjectError naming the annotation and the rule,
 * which the lifecycle reports as a Warning Event and LoadBalancerReady=False without a mutating
 * AWS call. A value the annotation did not set is a default (the provider configuration's or
 * LBC's), and the message says so. `exposureViolation` is the pure core: the policy, the
 * configuration's defaults, who the object is (kind, namespace and its labels, IngressClass) and
 * the stack; `checkTenantPolicy` reads what the rules need from Karmada and adds the namespace cap.
 */
// Costs nothing at run time: this module is only loaded by the provider's configuration and the
// provider, so the factory is loaded already. It tells esbuild so: otherwise the code this chunk
// shares with the provider's is split into chunks of their own, each one more file for every cold
// start to load (bench/README.md).
import './factory.js';
import { InvalidObjectError } from '../../errors.js';
import type { IngressClass } from '../../karmada/types.js';
import type { KubeClient } from '../../kube/client.js';
import { DEFAULT_INGRESS_CLASS_ANNOTATION } from '../../karmada/constants.js';
import { Resources } from '../../kube/resources.js';
import { validGroupNameOf } from '../../karmada/ingress-group.js';
import type { KubeObject } from '../../kube/types.js';
import { ALB_KEYS, NLB_KEYS, type CommonKeys } from './model/annotations/keys.js';
import {
  FRONTEND_NLB_ID,
  LOAD_BALANCER_ID,
  resourcesOf,
  ResourceTypes,
  type Action,
  type AuthenticateOidcSpec,
  type LoadBalancerSpec,
  type Stack,
} from './model/types.js';
import { CAPACITY_TAG, RESERVED_TAG_KEYS, SHIELD_TAG, WAF_TAG } from './tagging.js';
import { validateTenantPolicySchema } from '../../generated/tenant-policy-validator.js';
import { configIssues } from '../config-issues.js';
import { patternMatches } from './model/wildcard.js';
import type { CertificateAllowList } from './model/certificates.js';
import { inCidr, inCidr6, parseIPv4, parseIPv6 } from './model/ip.js';
import { SUBNET_ROLE_TAGS } from './model/subnets.js';
import { GA_KEYS } from './accelerator/keys.js';
import type { VpcSubnet } from './vpc-network.js';
import type {
  KeyPatterns,
  LabelSelector,
  PolicyKind,
  PolicyReads,
  PolicySubject,
  Scheme,
  TenantPolicy,
  TenantRule,
} from './tenant-policy-types.js';

export type {
  OidcProvider,
  PolicyKind,
  PolicyReads,
  PolicySubject,
  SharedGroup,
  TenantPolicy,
  TenantRule,
} from './tenant-policy-types.js';

export const POLICY_KINDS: readonly PolicyKind[] = ['MultiClusterIngress', 'MultiClusterService'];

/** What rules.N.kinds must say, beside what the schema checks. */
function kindsIssues(configFile: unknown): string[] {
  const rules = (configFile as { tenantPolicy?: { rules?: unknown } } | null)?.tenantPolicy?.rules;
  if (!Array.isArray(rules)) return [];
  const issues: string[] = [];
  rules.forEach((rule: Partial<TenantRule> | null, i) => {
    if (rule === null || typeof rule !== 'object' || rule.ingressClasses === undefined) return;
    if (rule.kinds === undefined) {
      issues.push(
        `tenantPolicy.rules.${i}.kinds: required with ingressClasses (a MultiClusterService has no IngressClass): say [MultiClusterIngress], or [MultiClusterIngress, MultiClusterService] for every MultiClusterService of the selected namespaces too`,
      );
    } else if (Array.isArray(rule.kinds) && !rule.kinds.includes('MultiClusterIngress')) {
      issues.push(
        `tenantPolicy.rules.${i}.ingressClasses: only with MultiClusterIngress in kinds (a MultiClusterService has no IngressClass)`,
      );
    }
  });
  return issues;
}

const POLICY_MESSAGES = {
  'tenantPolicy.rules.*.inboundCidrs.*': 'must be an IPv4 or IPv6 CIDR, or a prefix list ID (pl-…)',
};

/**
 * What is wrong with the `tenantPolicy` of a configuration file (config.ts parses the rest),
 * worded from the file's root: `tenantPolicy.rules.0.name: required`. Empty when it is valid.
 */
export function tenantPolicyIssues(configFile: unknown): string[] {
  const schema = configIssues(validateTenantPolicySchema, configFile, POLICY_MESSAGES);
  return schema.length ? schema : kindsIssues(configFile);
}

/**
 * What the configuration gives an object that no rule says otherwise about (the closed default),
 * for one Region: its `scheme`, `subnets`, `securityGroups` and `globalAccelerator`, and the VPC's
 * subnets (to resolve configured names, and to know the role-tagged ones discovery picks from).
 */
export interface PolicyDefaults {
  scheme: Scheme;
  /** IDs or names; absent: discovery by LBC's role tags. */
  subnets?: readonly string[] | undefined;
  /** Absent: the managed security group. */
  securityGroups?: readonly string[] | undefined;
  /** The VPC's subnets, when read (they always are without configured subnets). */
  vpcSubnets?: readonly VpcSubnet[] | undefined;
  /** Global Accelerator as configured: absent, no accelerator at all. */
  globalAccelerator?: { enabled: boolean } | undefined;
}

/** The defaults of a (Region's) provider configuration, with the VPC's network as resolved. */
export function policyDefaults(config: {
  scheme: Scheme;
  subnets?: readonly string[] | undefined;
  securityGroups?: readonly string[] | undefined;
  vpc: { subnets?: readonly VpcSubnet[] | undefined };
  globalAccelerator?: { enabled: boolean } | undefined;
}): PolicyDefaults {
  return {
    scheme: config.scheme,
    subnets: config.subnets,
    securityGroups: config.securityGroups,
    vpcSubnets: config.vpc.subnets,
    globalAccelerator: config.globalAccelerator,
  };
}

/**
 * Who an object is, as the rules select it: everything the pure check needs to know of it
 * besides the stack (policyTarget reads it from Karmada).
 */
export interface PolicyTarget {
  kind: PolicyKind;
  namespace: string;
  /** The namespace's labels (read only when a rule has a namespaceSelector: else `{}`). */
  namespaceLabels: Readonly<Record<string, string>>;
  /** MultiClusterIngress: its IngressClass, or the default one; undefined: none. */
  ingressClassName?: string | undefined;
  /** The object's annotations: a message tells a value they set from a default. */
  annotations?: Readonly<Record<string, string>> | undefined;
}

/** Reads through the Karmada API: the Namespace, and MCIs/MCSs carrying one of `finalizers`. */
export function kubePolicyReads(kube: KubeClient, finalizers: readonly string[]): PolicyReads {
  return {
    async namespaceLabels(namespace) {
      const ns = await kube.get(Resources.Namespace, undefined, namespace);
      return ns?.metadata.labels ?? (ns ? {} : undefined);
    },
    async loadBalancerHolders(namespace) {
      const out: KubeObject[] = [];
      for (const type of [Resources.MultiClusterIngress, Resources.MultiClusterService]) {
        const list = await kube.list<KubeObject>(type, { namespace });
        for (const o of list.items) {
          if (o.metadata.deletionTimestamp) continue;
          if ((o.metadata.finalizers ?? []).some((f) => finalizers.includes(f))) out.push(o);
        }
      }
      return out;
    },
    async defaultIngressClassName() {
      const defaults = (await kube.list<IngressClass>(Resources.IngressClass)).items.filter(
        (c) => c.metadata.annotations?.[DEFAULT_INGRESS_CLASS_ANNOTATION] === 'true',
      );
      return defaults.length === 1 ? defaults[0]?.metadata.name : undefined;
    },
  };
}

export { patternMatches };

export function selectorMatches(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, e.key);
    const value = labels[e.key];
    const inValues = value !== undefined && (e.values ?? []).includes(value);
    if (e.operator === 'In' && !inValues) return false;
    if (e.operator === 'NotIn' && inValues) return false;
    if (e.operator === 'Exists' && !has) return false;
    if (e.operator === 'DoesNotExist' && has) return false;
  }
  return true;
}

/** A DNS name covered by a certificate name (`*.example.com` covers one label). */
function covers(certName: string, host: string): boolean {
  const n = certName.toLowerCase();
  const h = host.toLowerCase();
  if (!n.startsWith('*.')) return n === h;
  const rest = h.slice(h.indexOf('.') + 1);
  return h.includes('.') && rest === n.slice(2);
}

/** The default's name in messages: what holds where no rule sets the field. */
export const DEFAULT_RULE = '(default)';

export class TenantPolicyError extends InvalidObjectError {
  override name = 'TenantPolicyError';
  /** `field`: the annotation at fault (or `metadata.namespace` for the namespace's cap). */
  constructor(
    field: string,
    rule: string,
    message: string,
    /** For the default: which rule field no applicable rule sets, and what holds instead. */
    byDefault?: { unset: string; instead: string },
  ) {
    super(
      byDefault
        ? `${message}: forbidden by the tenant policy's default (no rule that applies sets ${byDefault.unset}: ${byDefault.instead})`
        : `${message}: forbidden by tenant policy rule "${rule}"`,
      { field, reason: 'TenantPolicyViolation' },
    );
  }
}

interface Check {
  target: PolicyTarget;
  stack: Stack;
  rule: TenantRule;
  keys: CommonKeys;
}

/** `annotation <key> = "<value>"`, or that the value came from the provider configuration. */
function origin(target: PolicyTarget, key: string, value: string): string {
  return target.annotations?.[key] !== undefined
    ? `${JSON.stringify(value)} (annotation ${key})`
    : `${JSON.stringify(value)} (a default: no annotation ${key} set it)`;
}

function violation(c: Check, key: string, value: string, what: string): TenantPolicyError {
  return new TenantPolicyError(key, c.rule.name, `${what} ${origin(c.target, key, value)} is not allowed`);
}

function keyAllowed(patterns: KeyPatterns, key: string): boolean {
  if (patterns.deny?.some((p) => patternMatches(p, key))) return false;
  return !patterns.allow || patterns.allow.some((p) => patternMatches(p, key));
}

const matchesAny = (patterns: readonly string[], value: string) =>
  patterns.some((p) => patternMatches(p, value));

/** The managed security group, by its placeholder until the deploy knows its ID (model/security-group.ts). */
const isManagedGroup = (g: string) => g.startsWith('{{sg:');
/** What a rule's securityGroups entry matches to allow the managed group. */
const MANAGED = 'managed';

/** A load balancer of the stack with the annotation keys that place it. */
interface Balancer {
  spec: LoadBalancerSpec;
  scheme: string;
  subnets: string;
  securityGroups: string;
  eipAllocations: string;
}

/** The stack's load balancers: its own, and an ALB's frontend NLB (held to the same rules). */
function balancers(c: Pick<Check, 'stack' | 'keys' | 'target'>): Balancer[] {
  const out: Balancer[] = [];
  for (const r of resourcesOf(c.stack, ResourceTypes.LoadBalancer)) {
    if (r.id === LOAD_BALANCER_ID) {
      out.push({
        spec: r.spec,
        scheme: c.keys.scheme,
        subnets: c.keys.subnets,
        securityGroups: c.keys.securityGroups,
        eipAllocations: NLB_KEYS.eipAllocations,
      });
    } else if (r.id === FRONTEND_NLB_ID) {
      const k = ALB_KEYS.frontendNlb;
      out.push({
        spec: r.spec,
        scheme: k.scheme,
        subnets: k.subnets,
        securityGroups: k.securityGroups,
        eipAllocations: k.eipAllocations,
      });
    }
  }
  return out;
}

/** Every OIDC authentication the stack's listeners and rules do. */
function oidcActions(stack: Stack): AuthenticateOidcSpec[] {
  const actions: Action[] = [
    ...resourcesOf(stack, ResourceTypes.Listener).flatMap((l) => l.spec.defaultActions),
    ...resourcesOf(stack, ResourceTypes.ListenerRule).flatMap((r) => r.spec.actions),
  ];
  return actions.flatMap((a) => (a.type === 'authenticate-oidc' ? [a.oidc] : []));
}

/** Whether the CIDR `inner` lies within `outer` (same family, no shorter prefix). */
export function cidrWithin(inner: string, outer: string): boolean {
  const [innerBase, innerLen] = inner.split('/');
  const [, outerLen] = outer.split('/');
  if (Number(innerLen) < Number(outerLen)) return false;
  const v4 = parseIPv4(innerBase);
  if (v4 !== undefined) return parseIPv4(outer.split('/')[0]) !== undefined && inCidr(v4, outer);
  const v6 = parseIPv6(innerBase);
  return v6 !== undefined && parseIPv6(outer.split('/')[0]) !== undefined && inCidr6(v6, outer);
}

const CHECKS: Array<(c: Check) => void> = [
  function placement(c) {
    for (const b of balancers(c)) {
      if (c.rule.schemes && !c.rule.schemes.includes(b.spec.scheme))
        throw violation(c, b.scheme, b.spec.scheme, 'scheme');
      for (const s of b.spec.subnets)
        if (c.rule.subnets && !matchesAny(c.rule.subnets, s)) throw violation(c, b.subnets, s, 'subnet');
      const groups = c.rule.securityGroups;
      if (!groups) continue;
      for (const g of b.spec.securityGroups ?? []) {
        if (!isManagedGroup(g)) {
          if (!matchesAny(groups, g)) throw violation(c, b.securityGroups, g, 'security group');
        } else if (!matchesAny(groups, MANAGED)) {
          // The rule pins the groups, so it asks for them.
          throw new TenantPolicyError(
            b.securityGroups,
            c.rule.name,
            `a managed security group (no annotation ${b.securityGroups}, none configured) is not allowed; name allowed groups in ${b.securityGroups}`,
          );
        }
      }
    }
  },
  function elasticIps(c) {
    const allowed = c.rule.eipAllocations;
    if (!allowed) return;
    for (const b of balancers(c))
      for (const m of b.spec.subnetMappings ?? [])
        if (m.allocationId !== undefined && !matchesAny(allowed, m.allocationId))
          throw violation(c, b.eipAllocations, m.allocationId, 'Elastic IP allocation');
  },
  function inboundSources(c) {
    const allowed = c.rule.inboundCidrs;
    if (!allowed) return;
    const mci = c.target.kind === 'MultiClusterIngress';
    const cidrKey = mci ? ALB_KEYS.inboundCidrs : NLB_KEYS.sourceRanges;
    const listKey = mci ? ALB_KEYS.securityGroupPrefixLists : NLB_KEYS.securityGroupPrefixLists;
    for (const rule of c.stack.securityGroup?.ingress ?? []) {
      const s = rule.source;
      if ('prefixListId' in s) {
        if (!matchesAny(allowed, s.prefixListId)) throw violation(c, listKey, s.prefixListId, 'prefix list');
        continue;
      }
      const cidr = 'cidrIpv4' in s ? s.cidrIpv4 : s.cidrIpv6;
      if (!allowed.some((a) => cidrWithin(cidr, a))) throw violation(c, cidrKey, cidr, 'inbound source');
    }
    const lb = loadBalancerOf(c.stack);
    // Without security groups an NLB takes traffic from every address: allowed only where the
    // rule allows every address of the families it serves.
    const everyone = (all: string) => allowed.some((a) => cidrWithin(all, a));
    const open = everyone('0.0.0.0/0') && (lb?.ipAddressType === 'ipv4' || everyone('::/0'));
    if (lb?.type === 'network' && !lb.securityGroups?.length && !open) {
      throw new TenantPolicyError(
        NLB_KEYS.disableNlbSecurityGroups,
        c.rule.name,
        'a Network Load Balancer without security groups takes traffic from any source, which inboundCidrs cannot limit',
      );
    }
  },
  function webAcl(c) {
    if (!c.rule.requireWebAcl || c.target.kind !== 'MultiClusterIngress') return;
    const lb = loadBalancerOf(c.stack);
    if (lb && (!lb.webAcl || lb.webAcl.kind === 'none')) {
      throw new TenantPolicyError(
        ALB_KEYS.wafv2AclArn,
        c.rule.name,
        `a load balancer without a web ACL is not allowed; name one in ${ALB_KEYS.wafv2AclArn} or ${ALB_KEYS.wafv2AclName}`,
      );
    }
  },
  function oidcProviders(c) {
    const allowed = c.rule.oidc;
    if (!allowed) return;
    for (const oidc of oidcActions(c.stack)) {
      const provider = allowed.find((p) => patternMatches(p.issuer, oidc.issuer));
      if (!provider) throw violation(c, ALB_KEYS.authIdpOidc, oidc.issuer, 'OIDC issuer');
      for (const endpoint of [oidc.authorizationEndpoint, oidc.tokenEndpoint, oidc.userInfoEndpoint])
        if (!matchesAny(provider.endpoints, endpoint))
          throw violation(c, ALB_KEYS.authIdpOidc, endpoint, `OIDC endpoint of issuer ${oidc.issuer}`);
    }
  },
  function frontendNlbSettings(c) {
    // The NLB in front of an ALB (enable-frontend-nlb) is held to the ALB's attribute and tag rules.
    const lb = resourcesOf(c.stack, ResourceTypes.LoadBalancer).find((r) => r.id === FRONTEND_NLB_ID)?.spec;
    if (!lb) return;
    const k = ALB_KEYS.frontendNlb;
    if (c.rule.attributes)
      for (const key of Object.keys(lb.attributes ?? {}))
        if (!keyAllowed(c.rule.attributes, key))
          throw violation(c, k.attributes, key, 'load balancer attribute');
    if (c.rule.tags)
      for (const key of Object.keys(lb.tags)) {
        if (RESERVED_TAG_KEYS.includes(key)) continue;
        if (!keyAllowed(c.rule.tags, key)) throw violation(c, k.tags, key, 'tag key');
      }
  },
  function certificatesAndSslPolicies(c) {
    const listeners = resourcesOf(c.stack, ResourceTypes.Listener);
    const rules = resourcesOf(c.stack, ResourceTypes.ListenerRule);
    for (const l of listeners) {
      const policy = l.spec.sslPolicy;
      if (policy && c.rule.sslPolicies && !c.rule.sslPolicies.includes(policy))
        throw violation(c, c.keys.sslPolicy, policy, 'SSL policy');
      const allowed = c.rule.certificates;
      if (!allowed || !l.spec.certificates?.length) continue;
      const entries = l.spec.certificates.map((arn) => {
        const entry = allowed.allowed.find((a) => patternMatches(a.arn, arn));
        if (!entry) throw violation(c, c.keys.certificates, arn, 'certificate');
        return entry;
      });
      if (!allowed.matchHosts) continue;
      const hostConditions = rules
        .filter((r) => r.spec.listener.$ref === l.id)
        .flatMap((r) => r.spec.conditions.filter((cond) => cond.field === 'host-header'));
      const regex = hostConditions.find((cond) => cond.field === 'host-header' && cond.regex);
      if (regex) {
        // A regular expression's hosts cannot be checked against the certificates' names.
        throw new TenantPolicyError(
          c.keys.certificates,
          c.rule.name,
          `host regexValues ${JSON.stringify(regex.values)} cannot be checked against the certificates' names; list the hosts as values`,
        );
      }
      const hosts = hostConditions.flatMap((cond) => (cond.field === 'host-header' ? cond.values : []));
      for (const host of hosts) {
        if (!entries.some((e) => (e.names ?? []).some((n) => covers(n, host)))) {
          throw new TenantPolicyError(
            c.keys.certificates,
            c.rule.name,
            `host ${JSON.stringify(host)} is not among the names of the certificates ${l.spec.certificates.join(', ')} (annotation ${c.keys.certificates})`,
          );
        }
      }
    }
  },
  function attributes(c) {
    const patterns = c.rule.attributes;
    if (!patterns) return;
    for (const key of Object.keys(loadBalancerOf(c.stack)?.attributes ?? {}))
      if (!keyAllowed(patterns, key))
        throw violation(c, c.keys.loadBalancerAttributes, key, 'load balancer attribute');
    for (const tg of resourcesOf(c.stack, ResourceTypes.TargetGroup))
      for (const key of Object.keys(tg.spec.attributes ?? {}))
        if (!keyAllowed(patterns, key))
          throw violation(c, c.keys.targetGroupAttributes, key, 'target group attribute');
  },
  function tags(c) {
    const patterns = c.rule.tags;
    if (!patterns) return;
    for (const key of Object.keys(loadBalancerOf(c.stack)?.tags ?? {})) {
      // Ours: the bookkeeping keys, and the capacity record (minimum-load-balancer-capacity).
      if (RESERVED_TAG_KEYS.includes(key) || [CAPACITY_TAG, WAF_TAG, SHIELD_TAG].includes(key)) continue;
      if (!keyAllowed(patterns, key)) throw violation(c, c.keys.tags, key, 'tag key');
    }
  },
];

/** The subnet IDs the configuration gives a load balancer of `scheme`: its subnets, else the role-tagged ones. */
function defaultSubnets(d: PolicyDefaults, scheme: Scheme): ReadonlySet<string> {
  const catalog = d.vpcSubnets ?? [];
  if (d.subnets) {
    return new Set(
      d.subnets.flatMap((s) =>
        s.startsWith('subnet-') ? [s] : catalog.filter((v) => v.tags?.['Name'] === s).map((v) => v.id),
      ),
    );
  }
  const tag = SUBNET_ROLE_TAGS[scheme];
  return new Set(catalog.filter((v) => v.tags?.[tag] === '' || v.tags?.[tag] === '1').map((v) => v.id));
}

/** Whether `rule` allows an accelerator: its globalAccelerator, else its schemes; undefined: it says neither. */
function acceleratorVerdict(rule: TenantRule): boolean | undefined {
  if (rule.globalAccelerator !== undefined) return rule.globalAccelerator;
  return rule.schemes ? rule.schemes.includes('internet-facing') : undefined;
}

/**
 * The accelerator is public exposure (anycast addresses in front of the load balancer, internal
 * or not): every applicable rule that says anything about it must allow it, and where none does
 * the configuration must (GA enabled for every object, or internet-facing its scheme).
 */
function checkAccelerator(rules: readonly TenantRule[], d: PolicyDefaults, t: PolicyTarget, stack: Stack) {
  if (!stack.accelerator?.settings) return;
  const key = GA_KEYS.enabled;
  const asked =
    t.annotations?.[key] !== undefined
      ? `annotation ${key}: "true"`
      : `globalAccelerator.enabled of the configuration: no annotation ${key} set it`;
  const what = `an accelerator, public anycast addresses in front of the load balancer (${asked}),`;
  let allowedByRule = false;
  for (const rule of rules) {
    const verdict = acceleratorVerdict(rule);
    if (verdict === false) {
      const why =
        rule.globalAccelerator === false
          ? 'globalAccelerator: false'
          : 'no internet-facing scheme and no globalAccelerator: true';
      throw new TenantPolicyError(key, rule.name, `${what} is not allowed (the rule has ${why})`);
    }
    allowedByRule ||= verdict === true;
  }
  if (allowedByRule || d.globalAccelerator?.enabled === true || d.scheme === 'internet-facing') return;
  throw new TenantPolicyError(key, DEFAULT_RULE, `${what} is not allowed`, {
    unset: 'globalAccelerator or schemes',
    instead: `an accelerator only where the configuration enables one for every object or its scheme is internet-facing, and it is ${d.scheme}`,
  });
}

/** The closed default, for each exposure field no applicable rule sets. */
function checkDefaults(rules: readonly TenantRule[], d: PolicyDefaults, t: PolicyTarget, stack: Stack) {
  const sets = (field: keyof TenantRule) => rules.some((r) => r[field] !== undefined);
  const keys = t.kind === 'MultiClusterIngress' ? ALB_KEYS : NLB_KEYS;
  const all = balancers({ stack, keys, target: t });
  const refuse = (key: string, value: string, what: string, unset: string, instead: string) =>
    new TenantPolicyError(key, DEFAULT_RULE, `${what} ${origin(t, key, value)} is not allowed`, {
      unset,
      instead,
    });
  if (!sets('schemes')) {
    const allowed = new Set<string>(['internal', d.scheme]);
    for (const b of all)
      if (!allowed.has(b.spec.scheme))
        throw refuse(b.scheme, b.spec.scheme, 'scheme', 'schemes', `only the configured scheme ${d.scheme}`);
  }
  if (!sets('subnets')) {
    for (const b of all) {
      const allowed = defaultSubnets(d, b.spec.scheme);
      for (const s of b.spec.subnets)
        if (!allowed.has(s))
          throw refuse(
            b.subnets,
            s,
            'subnet',
            'subnets',
            d.subnets
              ? `only the configured subnets ${d.subnets.join(', ')}`
              : `only the subnets tagged ${SUBNET_ROLE_TAGS[b.spec.scheme]}`,
          );
    }
  }
  if (!sets('securityGroups')) {
    for (const b of all)
      for (const g of b.spec.securityGroups ?? [])
        if (!isManagedGroup(g) && !(d.securityGroups ?? []).includes(g))
          throw refuse(
            b.securityGroups,
            g,
            'security group',
            'securityGroups',
            d.securityGroups
              ? `only the configured security groups ${d.securityGroups.join(', ')}`
              : 'only the managed security group',
          );
  }
  if (!sets('certificates')) {
    const named = t.annotations?.[keys.certificates];
    if (named !== undefined)
      throw refuse(keys.certificates, named, 'certificate', 'certificates', 'only discovered certificates');
  }
  if (!sets('eipAllocations')) {
    for (const b of all)
      for (const m of b.spec.subnetMappings ?? [])
        if (m.allocationId !== undefined)
          throw refuse(b.eipAllocations, m.allocationId, 'Elastic IP allocation', 'eipAllocations', 'none');
  }
  if (!sets('oidc')) {
    const [first] = oidcActions(stack);
    if (first)
      throw refuse(ALB_KEYS.authIdpOidc, first.issuer, 'OIDC issuer', 'oidc', 'no OIDC identity provider');
  }
}

function loadBalancerOf(stack: Stack) {
  return resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID)?.spec;
}

/** Whether `rule` applies to the target. Pure: the target carries its namespace's labels and class. */
export function ruleApplies(rule: TenantRule, target: PolicyTarget): boolean {
  if (!(rule.kinds ?? POLICY_KINDS).includes(target.kind)) return false;
  if (rule.ingressClasses && target.kind === 'MultiClusterIngress') {
    if (!rule.ingressClasses.includes(target.ingressClassName ?? '')) return false;
  }
  return !rule.namespaceSelector || selectorMatches(rule.namespaceSelector, target.namespaceLabels);
}

/** The rules of the policy that apply to the target. */
export function rulesFor(policy: TenantPolicy | undefined, target: PolicyTarget): TenantRule[] {
  return (policy?.rules ?? []).filter((r) => ruleApplies(r, target));
}

/**
 * The first thing the stack exposes that the policy does not let the target have, or undefined.
 * Pure: the policy, the configuration's defaults, who the object is, and the stack (its load
 * balancers, security group, listeners and rules, accelerator intent). For an IngressGroup, run it
 * for every member against the group's stack. The namespace cap (maxLoadBalancersPerNamespace)
 * counts other objects, so it is checkTenantPolicy's.
 */
export function exposureViolation(
  policy: TenantPolicy | undefined,
  defaults: PolicyDefaults,
  target: PolicyTarget,
  stack: Stack,
): TenantPolicyError | undefined {
  const rules = rulesFor(policy, target);
  const keys = target.kind === 'MultiClusterIngress' ? ALB_KEYS : NLB_KEYS;
  try {
    for (const rule of rules) for (const check of CHECKS) check({ target, stack, rule, keys });
    checkDefaults(rules, defaults, target, stack);
    checkAccelerator(rules, defaults, target, stack);
  } catch (err) {
    if (err instanceof TenantPolicyError) return err;
    throw err;
  }
  return undefined;
}

/** The target of a subject, reading only what the policy's rules need (the Namespace, the default IngressClass). */
export async function policyTarget(
  policy: TenantPolicy | undefined,
  subject: PolicySubject,
  reads: PolicyReads,
): Promise<PolicyTarget> {
  const rules = policy?.rules ?? [];
  const namespace = subject.metadata.namespace ?? '';
  const needsLabels = rules.some((r) => r.namespaceSelector);
  const needsClass =
    subject.kind === 'MultiClusterIngress' &&
    subject.ingressClassName === undefined &&
    rules.some((r) => r.ingressClasses);
  return {
    kind: subject.kind,
    namespace,
    namespaceLabels: needsLabels ? ((await reads.namespaceLabels(namespace)) ?? {}) : {},
    ingressClassName: needsClass ? await reads.defaultIngressClassName() : subject.ingressClassName,
    annotations: subject.metadata.annotations,
  };
}

async function checkNamespaceCap(rule: TenantRule, subject: PolicySubject, reads: PolicyReads) {
  const max = rule.maxLoadBalancersPerNamespace;
  if (max === undefined) return;
  const ns = subject.metadata.namespace ?? '';
  const self = `${subject.kind}/${subject.metadata.name ?? ''}`;
  const order = (o: KubeObject) =>
    `${o.metadata.creationTimestamp ?? ''}|${o.kind ?? ''}/${o.metadata.name ?? ''}`;
  const holders = (await reads.loadBalancerHolders(ns)).filter(
    (o) => `${o.kind}/${o.metadata.name}` !== self,
  );
  // The members of an IngressGroup share one load balancer: it counts once, and joining a group
  // that has one already adds none.
  const balancerOf = (o: Pick<KubeObject, 'metadata'> & { kind?: string }) => {
    const group = o.kind === 'MultiClusterIngress' ? validGroupNameOf(o as KubeObject) : undefined;
    return group !== undefined ? `group/${group}` : `${o.kind ?? ''}/${o.metadata.name ?? ''}`;
  };
  const own = balancerOf(subject);
  if (own.startsWith('group/') && holders.some((o) => balancerOf(o) === own)) return;
  // The oldest objects keep their load balancers; this one counts after every older holder.
  const mine = `${subject.metadata.creationTimestamp ?? ''}|${self}`;
  const older = new Set(holders.filter((o) => order(o) < mine).map(balancerOf)).size;
  if (older >= max) {
    throw new TenantPolicyError(
      'metadata.namespace',
      rule.name,
      `namespace ${ns} already has ${older} load balancer(s), the most it may have (${max})`,
    );
  }
}

/**
 * Throws TenantPolicyError for the first thing the stack breaks (a rule, or the default where no
 * rule sets a field); resolves when the policy holds. Reads Karmada only for what a rule needs.
 */
export async function checkTenantPolicy(
  policy: TenantPolicy | undefined,
  defaults: PolicyDefaults,
  subject: PolicySubject,
  stack: Stack,
  reads: PolicyReads,
): Promise<void> {
  const target = await policyTarget(policy, subject, reads);
  const refused = exposureViolation(policy, defaults, target, stack);
  if (refused) throw refused;
  for (const rule of rulesFor(policy, target)) await checkNamespaceCap(rule, subject, reads);
}

/**
 * The subnets every applicable rule allows, for subnet discovery to keep to (model/subnets.ts):
 * the VPC's subnets that match each rule's list; undefined when no rule limits subnets. For the
 * members of an IngressGroup, the subnets all of them may use.
 */
export async function allowedSubnets(
  policy: TenantPolicy | undefined,
  subjects: readonly PolicySubject[],
  reads: PolicyReads,
  vpcSubnets: readonly VpcSubnet[] | undefined,
): Promise<string[] | undefined> {
  if (!policy?.rules.some((r) => r.subnets)) return undefined;
  const lists: string[][] = [];
  for (const subject of subjects) {
    for (const rule of rulesFor(policy, await policyTarget(policy, subject, reads)))
      if (rule.subnets) lists.push(rule.subnets);
  }
  if (lists.length === 0) return undefined;
  // Discovery picks among the VPC's subnets: patterns become the IDs they match there.
  const candidates = [...new Set([...(vpcSubnets ?? []).map((s) => s.id), ...lists.flat()])];
  return candidates.filter((id) => !id.includes('*') && lists.every((list) => matchesAny(list, id)));
}

/**
 * The certificates every applicable rule allows (model/certificates.ts keeps discovery to them),
 * undefined when no rule lists certificates. For the members of an IngressGroup, the
 * certificates all of them may use.
 */
export async function allowedCertificates(
  policy: TenantPolicy | undefined,
  subjects: readonly PolicySubject[],
  reads: PolicyReads,
): Promise<CertificateAllowList | undefined> {
  if (!policy?.rules.some((r) => r.certificates)) return undefined;
  // A rule that applies to several members counts once.
  const rules = new Set<TenantRule>();
  for (const subject of subjects) {
    for (const rule of rulesFor(policy, await policyTarget(policy, subject, reads)))
      if (rule.certificates) rules.add(rule);
  }
  if (rules.size === 0) return undefined;
  return {
    rules: [...rules].map((r) => ({ name: r.name, arns: (r.certificates?.allowed ?? []).map((a) => a.arn) })),
  };
}
