/** An AWS provider configuration that fits the ELBv2 simulator's account, VPC and private subnets. */
import { SIM_NETWORK, SIM_REGION, simNetwork } from '../elbv2-sim/config.js';

/**
 * The simulator's account is a preview's: a plan shows what the manifests ask for, so its objects
 * may have what the closed default refuses (internet-facing in any subnet, named certificates,
 * Elastic IPs, identity providers, an accelerator when annotated; `globalAccelerator` is
 * configured, off by default, and the plan's GA client is the GA simulator).
 */
const PREVIEW_POLICY = {
  rules: [
    {
      name: 'simulator-preview',
      schemes: ['internal', 'internet-facing'],
      subnets: ['*'],
      securityGroups: ['*'],
      certificates: { allowed: [{ arn: '*' }] },
      inboundCidrs: ['0.0.0.0/0', '::/0'],
      eipAllocations: ['*'],
      globalAccelerator: true,
      oidc: [{ issuer: '*', endpoints: ['*'] }],
    },
  ],
};

export function simulatorConfigText(ownerId: string, endpoint?: string): string {
  return JSON.stringify({
    region: SIM_REGION,
    ...(endpoint ? { endpoint } : {}),
    ownerId,
    // The VPC's IPv6 block too: a dualstack ALB's IPv6 targets in its subnets are in the VPC.
    vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr], ipv6Cidrs: [SIM_NETWORK.vpcIpv6Cidr] },
    subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    globalAccelerator: { enabled: false },
    tenantPolicy: PREVIEW_POLICY,
  });
}

/**
 * A multi-Region configuration (`regions:`, the first the primary) that fits each Region's
 * simulated VPC and private subnets (simNetwork): what `npm run plan -- --simulator` plans with
 * when the manifests' Clusters are in several Regions. `globalAccelerator` is configured and off by
 * default: an object gets one when annotated `multicluster.karmada.io/global-accelerator: "true"`.
 */
export function simulatorRegionsConfigText(ownerId: string, regions: readonly string[]): string {
  return JSON.stringify({
    ownerId,
    regions: regions.map((region) => {
      const n = simNetwork(region);
      return {
        region,
        vpc: { id: n.vpcId, cidrs: [n.vpcCidr], ipv6Cidrs: [n.vpcIpv6Cidr] },
        subnets: n.subnets.filter((s) => !s.public).map((s) => s.subnetId),
      };
    }),
    globalAccelerator: { enabled: false },
    tenantPolicy: PREVIEW_POLICY,
  });
}
