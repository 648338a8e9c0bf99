/**
 * Global Accelerator's side of a stack: the desired accelerator (model.ts), the state read from
 * GA or recorded after our last completed apply (discover.ts, record.ts), and the calls a plan
 * makes (plan.ts). Only the accelerator can carry tags: its listeners and endpoint groups are ours
 * because their accelerator is.
 */
import type {
  CreateAcceleratorCommandInput,
  CreateEndpointGroupCommandInput,
  CreateListenerCommandInput,
  DeleteAcceleratorCommandInput,
  DeleteEndpointGroupCommandInput,
  DeleteListenerCommandInput,
  TagResourceCommandInput,
  UntagResourceCommandInput,
  UpdateAcceleratorCommandInput,
  UpdateEndpointGroupCommandInput,
  UpdateListenerCommandInput,
} from '@aws-sdk/client-global-accelerator';
import type { OperationKind } from '../deploy/operation-kind.js';
import type { Planned } from '../deploy/refs.js';
import { TAG_PREFIX } from '../tagging.js';
import type {
  AcceleratorIpAddressType,
  AcceleratorSettings,
  ClientAffinity,
  EndpointHealthCheck,
} from './keys.js';

/**
 * On an accelerator we are retiring (replaced, no longer wanted, or its object gone): when it was
 * disabled. Such an accelerator is never the stack's again; the reconcile or the sweep deletes it
 * once GA has deployed the disable.
 */
export const RETIRING_TAG = `${TAG_PREFIX}/retiring`;

/** GA's API lives in this Region only, whatever the Regions of the endpoints. */
export const GA_API_REGION = 'us-west-2';

/** GA's default quotas (Service Quotas can raise them; the defaults are what we check). */
export const GA_QUOTAS = {
  acceleratorsPerAccount: 20,
  listenersPerAccelerator: 10,
  endpointsPerEndpointGroup: 10,
} as const;

/**
 * One Region's load balancer as the regional deploy has it (the seam with lib/providers/aws/regions/).
 * `drained`: every cluster of the Region is blocked (trafficBlockClusters) or at weight 0.
 */
export interface RegionalEndpoint {
  region: string;
  /** Undefined only in a dry run that would create the load balancer. */
  loadBalancerArn: string | undefined;
  drained: boolean;
}

/**
 * What a stack carries for Global Accelerator (Stack.accelerator), set by the provider when the
 * accelerator path has to run: the object asks for one (`settings`), or may have had one.
 */
export interface AcceleratorIntent {
  /** Undefined: the stack wants no accelerator (one it had is retired). */
  settings?: AcceleratorSettings;
  /** The clusters the object knows, and those TrafficControl blocks (drained.ts). */
  clusters: string[];
  blocked: string[];
}

/** `before` the regional deploys (dials going to 0 only), or `after` them (everything). */
export type AcceleratorPhase = 'before' | 'after';

export type GaProtocol = 'TCP' | 'UDP';

export interface DesiredEndpoint {
  id: string;
  weight: number;
  clientIpPreservation: boolean;
}

export interface DesiredEndpointGroup {
  /** `TCP:443@us-east-1`. */
  id: string;
  region: string;
  dial: number;
  healthCheck: Required<
    Pick<EndpointHealthCheck, 'protocol' | 'port' | 'intervalSeconds' | 'thresholdCount'>
  > &
    Pick<EndpointHealthCheck, 'path'>;
  endpoints: DesiredEndpoint[];
}

export interface DesiredListener {
  /** `TCP:443`. */
  id: string;
  protocol: GaProtocol;
  port: number;
  clientAffinity: ClientAffinity;
  endpointGroups: DesiredEndpointGroup[];
}

export interface DesiredAccelerator {
  name: string;
  ipAddressType: AcceleratorIpAddressType;
  tags: Record<string, string>;
  listeners: DesiredListener[];
}

export interface ActualEndpointGroup {
  arn: string;
  region: string;
  dial: number;
  healthCheck: {
    protocol?: string;
    port?: number;
    path?: string;
    intervalSeconds?: number;
    thresholdCount?: number;
  };
  endpoints: DesiredEndpoint[];
}

export interface ActualListener {
  arn: string;
  protocol: string;
  portRanges: Array<{ from: number; to: number }>;
  clientAffinity: string;
  endpointGroups: ActualEndpointGroup[];
}

export interface ActualAccelerator {
  arn: string;
  name: string;
  ipAddressType: string;
  enabled: boolean;
  /** `DEPLOYED` or `IN_PROGRESS`. */
  status: string;
  dnsName: string;
  dualStackDnsName?: string;
  /** Its static IP addresses, IPv4 first. */
  ips: string[];
  tags: Record<string, string>;
  createdAt?: number;
  /** Read for the accelerator the stack keeps (not for one being retired). */
  listeners?: ActualListener[];
}

/** Every mutating GA action the code may call (the IAM policy is checked against the code). */
export interface GaMutatingInputs {
  CreateAccelerator: CreateAcceleratorCommandInput;
  UpdateAccelerator: UpdateAcceleratorCommandInput;
  DeleteAccelerator: DeleteAcceleratorCommandInput;
  TagResource: TagResourceCommandInput;
  UntagResource: UntagResourceCommandInput;
  CreateListener: CreateListenerCommandInput;
  UpdateListener: UpdateListenerCommandInput;
  DeleteListener: DeleteListenerCommandInput;
  CreateEndpointGroup: CreateEndpointGroupCommandInput;
  UpdateEndpointGroup: UpdateEndpointGroupCommandInput;
  DeleteEndpointGroup: DeleteEndpointGroupCommandInput;
}

export type GaMutatingAction = keyof GaMutatingInputs;

export const GA_MUTATING_ACTIONS: readonly GaMutatingAction[] = [
  'CreateAccelerator',
  'CreateEndpointGroup',
  'CreateListener',
  'DeleteAccelerator',
  'DeleteEndpointGroup',
  'DeleteListener',
  'TagResource',
  'UntagResource',
  'UpdateAccelerator',
  'UpdateEndpointGroup',
  'UpdateListener',
];

/** GA's reads (ga-client.ts). */
export const GA_READ_ACTIONS = [
  'DescribeAccelerator',
  'ListAccelerators',
  'ListEndpointGroups',
  'ListListeners',
  'ListTagsForResource',
] as const;

/** A planned GA call; a create `produces` the ARN its resource ID's placeholder stands for. */
export type GaPlannedCall = {
  [A in GaMutatingAction]: { action: A; input: Planned<GaMutatingInputs[A]>; produces?: string };
}[GaMutatingAction];

/** A GA call as it is sent: its placeholders resolved (reconcile.ts). */
export type GaCall = {
  [A in GaMutatingAction]: { action: A; input: GaMutatingInputs[A]; produces?: string };
}[GaMutatingAction];

export type GaResource = 'Accelerator' | 'AcceleratorListener' | 'EndpointGroup';

/** One step of an accelerator plan, shaped like the ELBv2 plan's operations (deploy/operations.ts). */
export interface AcceleratorOperation {
  op: OperationKind;
  resource: GaResource;
  id: string;
  detail: string;
  calls: GaPlannedCall[];
}
