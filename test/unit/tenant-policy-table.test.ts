/**
 * The README's table of the annotations that widen exposure (lib/providers/aws/tenant-policy-table.ts,
 * written by scripts/gen-readme-keys.ts) against the check itself: for every key of every row, a
 * stack built from an object with that annotation is refused naming that key, by a rule that sets
 * the row's field, and, where the row says the default refuses it, by the default with no rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { allModelParts, type ModelParts } from '../../lib/providers/aws/model/parts.js';
import { acceleratorSettings } from '../../lib/providers/aws/accelerator/keys.js';
import { ALB_KEYS, NLB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import { buildIngressStack } from '../../lib/providers/aws/model/ingress.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import type { ModelConfig, Stack } from '../../lib/providers/aws/model/types.js';
import { EXPOSURE_ROWS } from '../../lib/providers/aws/tenant-policy-table.js';
import {
  exposureViolation,
  policyDefaults,
  type PolicyKind,
  type TenantRule,
} from '../../lib/providers/aws/tenant-policy.js';
import { config, collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import type { MultiClusterService } from '../../lib/karmada/types.js';

const F = ALB_KEYS.frontendNlb;
const EIP = 'eipalloc-0aaaaaaaaaaaaaaa1';
const IDP = JSON.stringify({
  issuer: 'https://idp.example.com',
  authorizationEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  userInfoEndpoint: 'https://idp.example.com/userinfo',
  secretName: 'oidc',
});
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/a';
const internetFacing = { schemes: ['internal', 'internet-facing'] as TenantRule['schemes'] };

/** How to make a stack ask for each key, and a rule that refuses it. `byDefault`: the default refuses it too. */
interface Probe {
  kind: PolicyKind;
  annotations: Record<string, string>;
  refusing: Omit<TenantRule, 'name'>;
  byDefault: boolean;
  /** The configuration, over the fixtures'. */
  config?: Partial<ModelConfig>;
  /** The field named, when not the key itself. */
  field?: string;
  /** For the default's check: a rule that opens what comes before (the scheme of an Elastic IP's NLB). */
  opening?: Omit<TenantRule, 'name'>;
}

const frontend = { [F.enable]: 'true' };
const PROBES: Record<string, Probe> = {
  [ALB_KEYS.scheme]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.scheme]: 'internet-facing' },
    refusing: { schemes: ['internal'] },
    byDefault: true,
  },
  [NLB_KEYS.scheme]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.scheme]: 'internet-facing' },
    refusing: { schemes: ['internal'] },
    byDefault: true,
  },
  [F.scheme]: {
    kind: 'MultiClusterIngress',
    annotations: { ...frontend, [F.scheme]: 'internet-facing' },
    refusing: { schemes: ['internal'] },
    byDefault: true,
  },
  [ALB_KEYS.subnets]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.subnets]: 'subnet-cccc3333,subnet-dddd4444' },
    refusing: { subnets: ['subnet-aaaa1111'] },
    byDefault: true,
  },
  [NLB_KEYS.subnets]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.subnets]: 'subnet-cccc3333' },
    refusing: { subnets: ['subnet-aaaa1111'] },
    byDefault: true,
  },
  [F.subnets]: {
    kind: 'MultiClusterIngress',
    annotations: { ...frontend, [F.subnets]: 'subnet-cccc3333' },
    refusing: { subnets: ['subnet-aaaa1111', 'subnet-bbbb2222'] },
    byDefault: true,
  },
  [ALB_KEYS.securityGroups]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.securityGroups]: 'sg-0fedcba987' },
    refusing: { securityGroups: ['sg-0123456789'] },
    byDefault: true,
  },
  [NLB_KEYS.securityGroups]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.securityGroups]: 'sg-0fedcba987' },
    refusing: { securityGroups: ['sg-0123456789'] },
    byDefault: true,
  },
  [F.securityGroups]: {
    kind: 'MultiClusterIngress',
    annotations: { ...frontend, [F.securityGroups]: 'sg-0fedcba987' },
    refusing: { securityGroups: ['sg-0123456789'] },
    byDefault: true,
  },
  [ALB_KEYS.inboundCidrs]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.inboundCidrs]: '0.0.0.0/0' },
    refusing: { inboundCidrs: ['10.0.0.0/8'] },
    byDefault: false,
    config: { securityGroups: undefined },
  },
  [ALB_KEYS.securityGroupPrefixLists]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.securityGroupPrefixLists]: 'pl-0123456789abcdef0' },
    refusing: { inboundCidrs: ['10.0.0.0/8'] },
    byDefault: false,
    config: { securityGroups: undefined },
  },
  [NLB_KEYS.sourceRanges]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.sourceRanges]: '0.0.0.0/0' },
    refusing: { inboundCidrs: ['10.0.0.0/8'] },
    byDefault: false,
    config: { securityGroups: undefined },
  },
  [NLB_KEYS.securityGroupPrefixLists]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.securityGroupPrefixLists]: 'pl-0123456789abcdef0' },
    refusing: { inboundCidrs: ['10.0.0.0/8'] },
    byDefault: false,
    config: { securityGroups: undefined },
  },
  [NLB_KEYS.disableNlbSecurityGroups]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.disableNlbSecurityGroups]: 'true' },
    refusing: { inboundCidrs: ['10.0.0.0/8'] },
    byDefault: false,
    config: { securityGroups: undefined },
  },
  [NLB_KEYS.eipAllocations]: {
    kind: 'MultiClusterService',
    annotations: {
      [NLB_KEYS.scheme]: 'internet-facing',
      [NLB_KEYS.subnets]: 'subnet-cccc3333',
      [NLB_KEYS.eipAllocations]: EIP,
    },
    refusing: { ...internetFacing, subnets: ['*'], eipAllocations: ['eipalloc-0b*'] },
    byDefault: true,
    opening: { ...internetFacing, subnets: ['*'] },
  },
  [F.eipAllocations]: {
    kind: 'MultiClusterIngress',
    annotations: {
      ...frontend,
      [F.scheme]: 'internet-facing',
      [F.subnets]: 'subnet-cccc3333',
      [F.eipAllocations]: EIP,
    },
    refusing: { ...internetFacing, subnets: ['*'], eipAllocations: ['eipalloc-0b*'] },
    byDefault: true,
    opening: { ...internetFacing, subnets: ['*'] },
  },
  ['multicluster.karmada.io/global-accelerator']: {
    kind: 'MultiClusterIngress',
    annotations: { 'multicluster.karmada.io/global-accelerator': 'true' },
    refusing: { globalAccelerator: false },
    byDefault: true,
  },
  [F.enable]: {
    kind: 'MultiClusterIngress',
    annotations: { ...frontend, [F.scheme]: 'internet-facing' },
    refusing: { schemes: ['internal'] },
    byDefault: true,
    field: F.scheme,
  },
  [ALB_KEYS.authIdpOidc]: {
    kind: 'MultiClusterIngress',
    annotations: {
      [ALB_KEYS.listenPorts]: '[{"HTTPS":443}]',
      [ALB_KEYS.certificates]: CERT,
      [ALB_KEYS.authType]: 'oidc',
      [ALB_KEYS.authIdpOidc]: IDP,
    },
    refusing: {
      certificates: { allowed: [{ arn: '*' }] },
      oidc: [{ issuer: 'https://idp.example.com', endpoints: ['https://idp.example.com/authorize'] }],
    },
    byDefault: true,
    opening: { certificates: { allowed: [{ arn: '*' }] } },
  },
  [ALB_KEYS.certificates]: {
    kind: 'MultiClusterIngress',
    annotations: { [ALB_KEYS.listenPorts]: '[{"HTTPS":443}]', [ALB_KEYS.certificates]: CERT },
    refusing: { certificates: { allowed: [{ arn: 'arn:aws:acm:*:*:certificate/own-*' }] } },
    byDefault: true,
  },
  [NLB_KEYS.certificates]: {
    kind: 'MultiClusterService',
    annotations: { [NLB_KEYS.certificates]: CERT },
    refusing: { certificates: { allowed: [{ arn: 'arn:aws:acm:*:*:certificate/own-*' }] } },
    byDefault: true,
  },
  [ALB_KEYS.wafv2AclArn]: {
    kind: 'MultiClusterIngress',
    annotations: {},
    refusing: { requireWebAcl: true },
    byDefault: false,
  },
  [ALB_KEYS.wafv2AclName]: {
    kind: 'MultiClusterIngress',
    annotations: {},
    refusing: { requireWebAcl: true },
    byDefault: false,
    field: ALB_KEYS.wafv2AclArn,
  },
};

const catalog = ['aaaa1111', 'bbbb2222', 'cccc3333', 'dddd4444'].map((id, i) => ({
  id: `subnet-${id}`,
  cidr: `10.0.${i}.0/24`,
  zone: `us-east-1${'abcd'[i]}`,
}));

function stackOf(p: Probe): { stack: Stack; cfg: ModelConfig } {
  const cfg: ModelConfig = { ...config, vpc: { ...config.vpc, subnets: catalog }, ...p.config };
  const services = [service('serve')];
  const endpointSlices = [collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] })];
  let stack: Stack;
  if (p.kind === 'MultiClusterIngress') {
    const mci = minimalIngress({
      metadata: { name: 'probe', namespace: 'default', annotations: p.annotations },
    });
    const oidcSecrets = [{ name: 'oidc', clientId: 'client', hasClientSecret: true, version: '1' }];
    stack = buildIngressStack({ mci, services, endpointSlices, oidcSecrets, parts, config: cfg });
  } else {
    const mcs: MultiClusterService = {
      apiVersion: 'networking.karmada.io/v1alpha1',
      kind: 'MultiClusterService',
      metadata: { name: 'serve', namespace: 'default', annotations: p.annotations },
      spec: { types: ['LoadBalancer'], ports: [{ port: 80 }] } as MultiClusterService['spec'],
    };
    stack = buildServiceStack({ mcs, service: services[0]!, endpointSlices, config: cfg });
  }
  const settings = acceleratorSettings(p.annotations, false);
  return {
    stack: settings ? { ...stack, accelerator: { settings, clusters: [], blocked: [] } } : stack,
    cfg,
  };
}

let parts: ModelParts;
beforeAll(async () => {
  parts = await allModelParts();
});

describe('the README’s tenant-policy table is what the check enforces', () => {
  const keys = EXPOSURE_ROWS.flatMap((r) => r.keys.map((key) => ({ key, row: r.what })));

  it('has a probe for every key the table lists, and no other', () => {
    expect(Object.keys(PROBES).sort()).toEqual(keys.map((k) => k.key).sort());
  });

  it.each(keys)(
    '$key ($row): refused by a rule that sets the field, and by the default where the row says so',
    ({ key }) => {
      const p = PROBES[key]!;
      const { stack, cfg } = stackOf(p);
      const defaults = policyDefaults({ ...cfg, globalAccelerator: { enabled: false } });
      const target = { kind: p.kind, namespace: 'default', namespaceLabels: {}, annotations: p.annotations };
      const byRule = exposureViolation(
        { rules: [{ name: 'probe', ...p.refusing }] },
        defaults,
        target,
        stack,
      );
      expect(byRule?.field, byRule?.message).toBe(p.field ?? key);
      expect(byRule?.message).toContain('rule "probe"');
      const opening = p.opening ? { rules: [{ name: 'opening', ...p.opening }] } : undefined;
      const byDefault = exposureViolation(opening, defaults, target, stack);
      if (p.byDefault) {
        expect(byDefault?.field, byDefault?.message).toBe(p.field ?? key);
        expect(byDefault?.message).toContain("the tenant policy's default");
      } else expect(byDefault).toBeUndefined();
    },
  );
});
