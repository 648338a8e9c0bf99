/** What the AWS provider reports as an object's status (balancer.ts makes it). */
import type { IngressLoadBalancerStatus, LoadBalancerStatus } from '../../karmada/types.js';

/** What the AWS provider reports for either kind: the load balancer's DNS name. */
export type AwsLoadBalancerStatus = IngressLoadBalancerStatus & LoadBalancerStatus;
