/** An AWS provider configuration that fits the ELBv2 simulator's account, VPC and private subnets. */
import { SIM_NETWORK, SIM_REGION } from '../elbv2-sim/config.js';

export function simulatorConfigText(ownerId: string, endpoint?: string): string {
  return JSON.stringify({
    region: SIM_REGION,
    ...(endpoint ? { endpoint } : {}),
    ownerId,
    vpc: { id: SIM_NETWORK.vpcId, cidrs: [SIM_NETWORK.vpcCidr] },
    subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
  });
}
