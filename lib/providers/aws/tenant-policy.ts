/**
 * Tenant guardrails: what the operator lets a MultiClusterIngress or MultiClusterService ask for,
 * the way AWS Load Balancer Controller's IngressClassParams pins scheme, subnets and the rest.
 * The policy is part of the provider configuration (`tenantPolicy`), a list of rules; a rule
 * applies to the objects of its IngressClasses (MultiClusterIngress only) in the namespaces its
 * label selector matches, and every rule that applies must hold. Each rule may:
 * - pin or limit the scheme, the subnets and the security groups (subnet discovery keeps to the
 *   allowed subnets: `allowedSubnets`);
 * - allow only listed certificates (ARN patterns), and require that a certificate's names
 *   (declared next to it, no ACM call) cover the hosts of the listener's rules;
 * - allow only listed SSL policies;
 * - allow or deny load-balancer and target-group attributes and tag keys (key patterns);
 * - cap the load balancers per namespace (the oldest objects keep theirs).
 * The check runs on the model the build step produced, before anything is deployed; a violation
 * is an InvalidObjectError naming the annotation and the rule, which the lifecycle reports as a
 * Warning Event and LoadBalancerReady=False without a mutating AWS call. A value the annotation did
 * not set is a default (the provider configuration's or LBC's), and the message says so.
 *
 * New kinds of limits (shared IngressGroups per namespace, say) are new optional fields of a rule
 * and one more check function below.
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
import { FRONTEND_NLB_ID, LOAD_BALANCER_ID, resourcesOf, ResourceTypes, type Stack } from './model/types.js';
import { CAPACITY_TAG, RESERVED_TAG_KEYS, SHIELD_TAG, WAF_TAG } from './tagging.js';
import { validateTenantPolicySchema } from '../../generated/tenant-policy-validator.js';
import { configIssues } from '../config-issues.js';
import { patternMatches } from './model/wildcard.js';
import type { CertificateAllowList } from './model/certificates.js';

interface KeyPatterns {
  allow?: string[];
  deny?: string[];
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{
    key: string;
    operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    values?: string[];
  }>;
}

export interface TenantRule {
  /** Named in every violation message. */
  name: string;
  /** MultiClusterIngresses of these IngressClasses (by name); absent: every object. */
  ingressClasses?: string[];
  /** Objects in namespaces whose labels match; absent: every namespace. */
  namespaceSelector?: LabelSelector;
  schemes?: Array<'internal' | 'internet-facing'>;
  subnets?: string[];
  securityGroups?: string[];
  /** ARN patterns (`*` wildcards), each with the DNS names the certificate covers. */
  certificates?: { allowed: Array<{ arn: string; names?: string[] }>; matchHosts?: boolean };
  sslPolicies?: string[];
  attributes?: KeyPatterns;
  tags?: KeyPatterns;
  maxLoadBalancersPerNamespace?: number;
}

/** An IngressGroup whose load balancer MCIs of several namespaces may share (ingress-groups.ts). */
export interface SharedGroup {
  /** The group.name it applies to. */
  name: string;
  /** The namespaces whose MultiClusterIngresses may join it; any other is refused. */
  namespaces: string[];
}

export interface TenantPolicy {
  rules: TenantRule[];
  /** IngressGroups that span namespaces; every other group is confined to one namespace. */
  sharedGroups?: SharedGroup[];
}

/**
 * What is wrong with the `tenantPolicy` of a configuration file (config.ts parses the rest),
 * worded from the file's root: `tenantPolicy.rules.0.name: required`. Empty when it is valid.
 */
export function tenantPolicyIssues(configFile: unknown): string[] {
  return configIssues(validateTenantPolicySchema, configFile, {});
}

/** The object a stack was built for, as the policy sees it. */
export interface PolicySubject {
  kind: 'MultiClusterIngress' | 'MultiClusterService';
  metadata: KubeObject['metadata'];
  /** MultiClusterIngress: spec.ingressClassName, or the default class it was served under. */
  ingressClassName?: string;
}

/** What the checks read from Karmada, only when a rule needs it. */
export interface PolicyReads {
  namespaceLabels(namespace: string): Promise<Record<string, string> | undefined>;
  /** The objects in the namespace that hold a load balancer of this provider, the subject included or not. */
  loadBalancerHolders(namespace: string): Promise<KubeObject[]>;
  /** The default IngressClass's name (for a MultiClusterIngress without ingressClassName). */
  defaultIngressClassName(): Promise<string | undefined>;
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

export class TenantPolicyError extends InvalidObjectError {
  override name = 'TenantPolicyError';
  /** `field`: the annotation at fault (or `metadata.namespace` for the namespace's cap). */
  constructor(field: string, rule: string, message: string) {
    super(`${message}: forbidden by tenant policy rule "${rule}"`, {
      field,
      reason: 'TenantPolicyViolation',
    });
  }
}

interface Check {
  subject: PolicySubject;
  stack: Stack;
  rule: TenantRule;
  keys: CommonKeys;
  reads: PolicyReads;
}

/** `annotation <key> = "<value>"`, or that the value came from the provider configuration. */
function origin(subject: PolicySubject, key: string, value: string): string {
  return subject.metadata.annotations?.[key] !== undefined
    ? `${JSON.stringify(value)} (annotation ${key})`
    : `${JSON.stringify(value)} (a default: no annotation ${key} set it)`;
}

function violation(c: Check, key: string, value: string, what: string): TenantPolicyError {
  return new TenantPolicyError(key, c.rule.name, `${what} ${origin(c.subject, key, value)} is not allowed`);
}

function keyAllowed(patterns: KeyPatterns, key: string): boolean {
  if (patterns.deny?.some((p) => patternMatches(p, key))) return false;
  return !patterns.allow || patterns.allow.some((p) => patternMatches(p, key));
}

const CHECKS: Array<(c: Check) => void | Promise<void>> = [
  function scheme(c) {
    const lb = loadBalancerOf(c.stack);
    if (c.rule.schemes && lb && !c.rule.schemes.includes(lb.scheme))
      throw violation(c, c.keys.scheme, lb.scheme, 'scheme');
  },
  function subnets(c) {
    const lb = loadBalancerOf(c.stack);
    for (const s of lb?.subnets ?? [])
      if (c.rule.subnets && !c.rule.subnets.includes(s)) throw violation(c, c.keys.subnets, s, 'subnet');
  },
  function securityGroups(c) {
    const lb = loadBalancerOf(c.stack);
    if (c.rule.securityGroups && c.stack.securityGroup) {
      // A managed group is none of the listed ones: the rule pins the groups, so it asks for them.
      throw new TenantPolicyError(
        c.keys.securityGroups,
        c.rule.name,
        `a managed security group (no annotation ${c.keys.securityGroups}, none configured) is not allowed; name allowed groups in ${c.keys.securityGroups}`,
      );
    }
    for (const g of lb?.securityGroups ?? [])
      if (c.rule.securityGroups && !c.rule.securityGroups.includes(g))
        throw violation(c, c.keys.securityGroups, g, 'security group');
  },
  function frontendNlb(c) {
    // The NLB in front of an ALB (enable-frontend-nlb) is held to the same rules as the ALB.
    const lb = resourcesOf(c.stack, ResourceTypes.LoadBalancer).find((r) => r.id === FRONTEND_NLB_ID)?.spec;
    if (!lb) return;
    const k = ALB_KEYS.frontendNlb;
    if (c.rule.schemes && !c.rule.schemes.includes(lb.scheme))
      throw violation(c, k.scheme, lb.scheme, 'scheme');
    for (const s of lb.subnets)
      if (c.rule.subnets && !c.rule.subnets.includes(s)) throw violation(c, k.subnets, s, 'subnet');
    for (const g of lb.securityGroups ?? [])
      if (c.rule.securityGroups && !c.rule.securityGroups.includes(g) && !g.startsWith('{{sg:'))
        throw violation(c, k.securityGroups, g, 'security group');
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
  async function loadBalancersPerNamespace(c) {
    const max = c.rule.maxLoadBalancersPerNamespace;
    if (max === undefined) return;
    const ns = c.subject.metadata.namespace ?? '';
    const self = `${c.subject.kind}/${c.subject.metadata.name ?? ''}`;
    const order = (o: KubeObject) =>
      `${o.metadata.creationTimestamp ?? ''}|${o.kind ?? ''}/${o.metadata.name ?? ''}`;
    const holders = (await c.reads.loadBalancerHolders(ns)).filter(
      (o) => `${o.kind}/${o.metadata.name}` !== self,
    );
    // The members of an IngressGroup share one load balancer: it counts once, and joining a group
    // that has one already adds none.
    const balancerOf = (o: Pick<KubeObject, 'metadata'> & { kind?: string }) => {
      const group = o.kind === 'MultiClusterIngress' ? validGroupNameOf(o as KubeObject) : undefined;
      return group !== undefined ? `group/${group}` : `${o.kind ?? ''}/${o.metadata.name ?? ''}`;
    };
    const own = balancerOf(c.subject);
    if (own.startsWith('group/') && holders.some((o) => balancerOf(o) === own)) return;
    // The oldest objects keep their load balancers; this one counts after every older holder.
    const mine = `${c.subject.metadata.creationTimestamp ?? ''}|${self}`;
    const older = new Set(holders.filter((o) => order(o) < mine).map(balancerOf)).size;
    if (older >= max) {
      throw new TenantPolicyError(
        'metadata.namespace',
        c.rule.name,
        `namespace ${ns} already has ${older} load balancer(s), the most it may have (${max})`,
      );
    }
  },
];

function loadBalancerOf(stack: Stack) {
  return resourcesOf(stack, ResourceTypes.LoadBalancer).find((r) => r.id === LOAD_BALANCER_ID)?.spec;
}

/** The rules that apply to the subject. */
async function applicable(
  policy: TenantPolicy,
  subject: PolicySubject,
  reads: PolicyReads,
): Promise<TenantRule[]> {
  const out: TenantRule[] = [];
  let labels: Record<string, string> | undefined | null = null;
  for (const rule of policy.rules) {
    if (rule.ingressClasses) {
      if (subject.kind !== 'MultiClusterIngress') continue;
      const cls = subject.ingressClassName ?? (await reads.defaultIngressClassName());
      if (!rule.ingressClasses.includes(cls ?? '')) continue;
    }
    if (rule.namespaceSelector) {
      labels ??= (await reads.namespaceLabels(subject.metadata.namespace ?? '')) ?? {};
      if (!selectorMatches(rule.namespaceSelector, labels)) continue;
    }
    out.push(rule);
  }
  return out;
}

/** Throws TenantPolicyError for the first rule the stack breaks; resolves when every applicable rule holds. */
export async function checkTenantPolicy(
  policy: TenantPolicy | undefined,
  subject: PolicySubject,
  stack: Stack,
  reads: PolicyReads,
): Promise<void> {
  if (!policy?.rules.length) return;
  const keys = subject.kind === 'MultiClusterIngress' ? ALB_KEYS : NLB_KEYS;
  for (const rule of await applicable(policy, subject, reads)) {
    for (const check of CHECKS) await check({ subject, stack, rule, keys, reads });
  }
}

/**
 * The subnets every applicable rule allows (the intersection of their lists), for subnet
 * discovery to keep to (model/subnets.ts); undefined when no rule limits subnets. For the members
 * of an IngressGroup, the subnets all of them may use.
 */
export async function allowedSubnets(
  policy: TenantPolicy | undefined,
  subjects: readonly PolicySubject[],
  reads: PolicyReads,
): Promise<string[] | undefined> {
  if (!policy?.rules.some((r) => r.subnets)) return undefined;
  let allowed: string[] | undefined;
  for (const subject of subjects) {
    for (const rule of await applicable(policy, subject, reads)) {
      if (!rule.subnets) continue;
      allowed = allowed ? allowed.filter((s) => rule.subnets!.includes(s)) : [...rule.subnets];
    }
  }
  return allowed;
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
    for (const rule of await applicable(policy, subject, reads)) if (rule.certificates) rules.add(rule);
  }
  if (rules.size === 0) return undefined;
  return {
    rules: [...rules].map((r) => ({ name: r.name, arns: (r.certificates?.allowed ?? []).map((a) => a.arn) })),
  };
}
