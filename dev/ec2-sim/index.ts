import type { AddressInfo } from 'node:net';
import { closeServer } from '../shared/close-server.js';
import { CallCounters } from '../elbv2-sim/calls.js';
import { SIM_ACCOUNT_ID, SIM_REGION, simNetwork, type SimNetwork } from '../elbv2-sim/config.js';
import { Faults, type FaultOptions } from '../elbv2-sim/faults.js';
import type { Elbv2Simulator } from '../elbv2-sim/index.js';
import type { SecurityGroupLimits } from './security-groups.js';
import { requestListener, startServer, SUPPORTED_ACTIONS } from './server.js';
import { serveInProcess, type InProcessHandler } from '../shared/in-process.js';
import { Ec2State } from './state.js';

export { ec2ClientFor } from './client.js';
export { Ec2Error } from './errors.js';
export { Ec2State } from './state.js';
export { subnetTags, ZONE_IDS, zoneIdOf } from './resources.js';
export { DEFAULT_SG_LIMITS, type SgRule } from './security-groups.js';
export { EC2_API_VERSION, SUPPORTED_ACTIONS } from './server.js';

export interface Ec2SimulatorOptions {
  /** Loopback by default; the simulator has no auth. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Seeds the fault dice (default 1). */
  seed?: number;
  faults?: FaultOptions;
  /**
   * The ELBv2 simulator to share security groups with: its load balancers may then only name
   * groups this simulator has, and a group one of them uses (or let go of less than
   * `releaseAttempts` DeleteSecurityGroup calls ago, default 0) is a DependencyViolation here.
   */
  elbv2?: Pick<Elbv2Simulator, 'state'>;
  /** The Region whose network it serves (`simNetwork`): the linked ELBv2 simulator's, else SIM_REGION. */
  region?: string;
  releaseAttempts?: number;
  /** Security group quotas (inbound rules per group, groups per VPC). */
  limits?: Partial<SecurityGroupLimits>;
  /** Serve no socket: ec2ClientFor reaches it through `requestHandler`, in this process. */
  inProcess?: boolean;
}

export interface Ec2Simulator {
  /** Endpoint for the SDK's `endpoint` setting (and the provider's `ec2Endpoint`). */
  readonly url: string;
  readonly port: number;
  readonly region: string;
  readonly accountId: string;
  readonly network: SimNetwork;
  readonly supportedActions: readonly string[];
  readonly state: Ec2State;
  readonly faults: Faults;
  readonly calls: CallCounters;
  /** Set when it serves in process: the SDK's requestHandler for its clients. */
  readonly requestHandler?: InProcessHandler;
  close(): Promise<void>;
}

/**
 * Starts the EC2 simulator over a Region's network, the one its ELBv2 simulator knows. It has no
 * state of its own to lose, so nothing is persisted: a restart serves the same VPC and subnets.
 */
export async function startEc2Simulator(options: Ec2SimulatorOptions = {}): Promise<Ec2Simulator> {
  const store = options.elbv2?.state.store;
  const region = options.region ?? store?.region ?? SIM_REGION;
  if (store && store.region !== region)
    throw new Error(`EC2 simulator for ${region} linked to the ELBv2 simulator of ${store.region}`);
  const network = simNetwork(region);
  const state = new Ec2State(network, options.limits);
  if (store) {
    store.securityGroupDirectory = {
      exists: (id) => state.securityGroups.has(id),
      releaseAttempts: options.releaseAttempts ?? 0,
    };
    state.securityGroups.users = (id) => store.securityGroupUsers(id);
  }
  const faults = new Faults(options.seed ?? 1, options.faults);
  const calls = new CallCounters();
  const host = options.host ?? '127.0.0.1';
  const common = {
    region,
    accountId: SIM_ACCOUNT_ID,
    network,
    supportedActions: SUPPORTED_ACTIONS,
    state,
    faults,
    calls,
  };
  const unlink = () => {
    if (store) store.securityGroupDirectory = undefined;
  };
  if (options.inProcess) {
    const served = serveInProcess('ec2', requestListener({ state, faults, calls }));
    return {
      ...common,
      url: served.url,
      port: 0,
      requestHandler: served.requestHandler,
      close: async () => {
        served.stop();
        unlink();
      },
    };
  }
  const server = await startServer({ state, faults, calls }, host, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    ...common,
    url: `http://${host}:${port}`,
    port,
    close: () => {
      unlink();
      return closeServer(server);
    },
  };
}
