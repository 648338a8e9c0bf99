/**
 * The Global Accelerator simulator (dev/test only): standard accelerators, listeners, endpoint
 * groups and accelerator tags on Global Accelerator's wire protocol (awsJson1_1,
 * `GlobalAccelerator_V20180706.*`), for the real @aws-sdk/client-global-accelerator and the
 * `aws globalaccelerator` CLI. Served for us-west-2 only, as the real API is. See README.md.
 */
import {
  GlobalAcceleratorClient,
  type GlobalAcceleratorClientConfig,
} from '@aws-sdk/client-global-accelerator';
import { simClientConfig, type SimClientOptions } from '../elbv2-sim/client.js';
import { SIM_ACCOUNT_ID } from '../elbv2-sim/config.js';
import { SimPersistence, savedIdSeed, type StateFileFormat } from '../elbv2-sim/persist.js';
import { startJsonSimServer, type JsonSimOptions, type JsonSimServer } from '../json-sim/server.js';
import { GA_API_REGION, GA_TARGET_PREFIX, type SimEndpointView } from './model.js';
import { GaState, type GaStateOptions } from './state.js';

export { DEFAULT_GA_LIMITS, GA_API_REGION, GA_TARGET_PREFIX } from './model.js';
export type { GaLimits, SimEndpointView } from './model.js';
export { GaState } from './state.js';
export type { GaSnapshotAccelerator, GaSnapshotListener } from './state.js';

const FORMAT: StateFileFormat = { id: 'ga-sim/v1', label: 'a Global Accelerator simulator state file' };

/** The calls that only read: every other one may have changed the state (and is persisted). */
const READS = /^(Describe|List)/;

export interface GaSimulatorOptions extends JsonSimOptions, Omit<GaStateOptions, 'seed'> {
  /**
   * JSON state file: loaded at start if present, written (debounced) after every call that can
   * change state and on close, as the ELBv2 simulator's.
   */
  persistFile?: string;
}

export interface GaSimulator extends JsonSimServer {
  /** The Region a client must be configured with: us-west-2. */
  readonly region: string;
  readonly accountId: string;
  readonly state: GaState;
  snapshot(): ReturnType<GaState['snapshot']>;
}

export async function startGaSimulator(options: GaSimulatorOptions = {}): Promise<GaSimulator> {
  const seed = options.seed ?? 1;
  const idSeed = (options.persistFile ? savedIdSeed(options.persistFile, FORMAT) : undefined) ?? seed;
  const state = new GaState({ ...options, seed: idSeed });
  const persistence = options.persistFile
    ? new SimPersistence(options.persistFile, state, idSeed, 200, FORMAT)
    : undefined;
  persistence?.load();
  const server = await startJsonSimServer(
    {
      targetPrefix: GA_TARGET_PREFIX,
      servedRegions: [GA_API_REGION],
      faultCodes: {
        throttle: 'ThrottlingException',
        internal: 'InternalServiceErrorException',
        unavailable: 'ServiceUnavailableException',
      },
      actions: {
        CreateAccelerator: (i) => state.createAccelerator(i),
        DescribeAccelerator: (i) => state.describeAccelerator(i),
        ListAccelerators: (i) => state.listAccelerators(i),
        UpdateAccelerator: (i) => state.updateAccelerator(i),
        DeleteAccelerator: (i) => state.deleteAccelerator(i),
        TagResource: (i) => state.tagResource(i),
        UntagResource: (i) => state.untagResource(i),
        ListTagsForResource: (i) => state.listTags(i),
        CreateListener: (i) => state.createListener(i),
        DescribeListener: (i) => state.describeListener(i),
        ListListeners: (i) => state.listListeners(i),
        UpdateListener: (i) => state.updateListener(i),
        DeleteListener: (i) => state.deleteListener(i),
        CreateEndpointGroup: (i) => state.createEndpointGroup(i),
        DescribeEndpointGroup: (i) => state.describeEndpointGroup(i),
        ListEndpointGroups: (i) => state.listEndpointGroups(i),
        UpdateEndpointGroup: (i) => state.updateEndpointGroup(i),
        DeleteEndpointGroup: (i) => state.deleteEndpointGroup(i),
        AddEndpoints: (i) => state.addEndpoints(i),
        RemoveEndpoints: (i) => state.removeEndpoints(i),
      },
    },
    {
      ...options,
      afterCall: (action) => {
        if (persistence && !READS.test(action)) persistence.changed();
        options.afterCall?.(action);
      },
    },
  );
  return {
    ...server,
    region: GA_API_REGION,
    accountId: SIM_ACCOUNT_ID,
    state,
    snapshot: () => state.snapshot(),
    close: () => {
      persistence?.flush();
      return server.close();
    },
  };
}

/** A real Global Accelerator client pointed at the simulator (us-west-2), with dummy credentials. */
export function gaClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<GlobalAcceleratorClientConfig> } = {},
): GlobalAcceleratorClient {
  return new GlobalAcceleratorClient({
    ...(simClientConfig(sim, options) as GlobalAcceleratorClientConfig),
    ...options.config,
  });
}

/**
 * Endpoint resolution over ELBv2 simulators (one per Region): an endpoint exists while one of
 * them has that load balancer.
 */
export function endpointsIn(
  sims: ReadonlyArray<{ state: { store: { loadBalancers: ReadonlyMap<string, SimEndpointView> } } }>,
): (arn: string) => SimEndpointView | undefined {
  return (arn) => {
    for (const sim of sims) {
      const lb = sim.state.store.loadBalancers.get(arn);
      if (lb) return lb;
    }
    return undefined;
  };
}
