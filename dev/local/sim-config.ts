/** An AWS provider configuration that fits the ELBv2 simulator's account, VPC and private subnets. */
import { SIM_NETWORK, SIM_REGION, simNetwork } from '../elbv2-sim/config.js';

export function simulatorConfigText(ownerId: string, endpoint?: string): string {
  return JSON.stringify({
    region: SIM_REGION,
    ...(endpoint ? { endpoint } : {}),
    ownerId,
    // The VPC's IPv6 block too: a dualstack ALB's IPv6 targets in its subnets are in the VPC.
    vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr], ipv6Cidrs: [SIM_NETWORK.vpcIpv6Cidr] },
    subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    // The simulator's account is a preview's: its objects may be internet-facing in any of its
    // subnets (the closed default would allow internal ones in the private subnets only).
    tenantPolicy: {
      rules: [
        {
          name: 'simulator-preview',
          schemes: ['internal', 'internet-facing'],
          subnets: SIM_NETWORK.subnets.map((s) => s.subnetId),
        },
      ],
    },
  });
}

/**
 * A multi-Region configuration (`regions:`, the first the primary) that fits each Region's
 * simulated VPC and private subnets (simNetwork): what `npm run plan -- --simulator` plans with
 * when the manifests' Clusters are in several Regions. No `globalAccelerator`: an object gets one
 * when annotated `multicluster.karmada.io/global-accelerator: "true"`.
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
  });
}
