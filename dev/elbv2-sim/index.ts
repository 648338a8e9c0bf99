import type { AddressInfo } from 'node:net';
import { closeServer } from '../shared/close-server.js';
import { CallCounters } from './calls.js';
import { SIM_ACCOUNT_ID } from './config.js';
import type { BehaviourOptions, SimNetwork } from './config.js';
import { Faults } from './faults.js';
import type { FaultOptions } from './faults.js';
import { requestListener, startServer, SUPPORTED_ACTIONS } from './server.js';
import { serveInProcess, type InProcessHandler } from '../shared/in-process.js';
import { SimPersistence, savedIdSeed } from './persist.js';
import { Elbv2State } from './state/index.js';
import type { Elbv2Snapshot } from './state/index.js';

export { elbv2ClientFor, taggingClientFor } from './client.js';
export type { SimClientOptions } from './client.js';
export {
  DEFAULT_LIMITS,
  HOSTED_ZONE_IDS,
  hostedZoneIds,
  SIM_ACCOUNT_ID,
  SIM_NETWORK,
  SIM_REGION,
  simNetwork,
} from './config.js';
export type { BehaviourOptions, SimLimits, SimNetwork, SimSubnet, TargetHealthOptions } from './config.js';
export { SimError } from './errors.js';
export { Faults } from './faults.js';
export type { FaultDecision, FaultKind, FaultOptions, FaultRates, ScriptedFailure } from './faults.js';
export { CallCounters } from './calls.js';
export type { ActionCounters, CallOutcome, CallRecord } from './calls.js';
export { Elbv2State } from './state/index.js';
export type { Elbv2Snapshot, SnapshotTarget } from './state/index.js';
export type { HealthOverride } from './state/model.js';
export { SUPPORTED_ACTIONS } from './server.js';

export interface Elbv2SimulatorOptions extends BehaviourOptions {
  /** Loopback by default; the simulator has no auth. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Seeds both the fault dice and the generated resource IDs (default 1). */
  seed?: number;
  faults?: FaultOptions;
  /**
   * JSON state file: loaded at start if present, written (debounced) after every call that can
   * change state and on close. Resources survive a restart; generated IDs do not repeat.
   */
  persistFile?: string;
  /**
   * Called after every ELBv2 call the simulator answered (tests that check an invariant of the
   * state between calls, e.g. that no rule ever forwards to a missing target group).
   */
  afterCall?: (action: string) => void;
  /**
   * Serve no socket: clients reach it through `requestHandler` (elbv2ClientFor and
   * taggingClientFor use it), in this process; `url` is then only a name and `port` 0.
   */
  inProcess?: boolean;
}

export interface Elbv2Simulator {
  /** Endpoint for the SDK's `endpoint` setting, e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly port: number;
  readonly region: string;
  readonly accountId: string;
  readonly network: SimNetwork;
  readonly supportedActions: readonly string[];
  readonly state: Elbv2State;
  readonly faults: Faults;
  readonly calls: CallCounters;
  /** Calls to the Resource Groups Tagging API it also serves (not ELBv2 calls). */
  readonly taggingCalls: CallCounters;
  /** Set when it serves in process: the SDK's requestHandler for its clients. */
  readonly requestHandler?: InProcessHandler;
  snapshot(): Elbv2Snapshot;
  close(): Promise<void>;
}

export async function startElbv2Simulator(options: Elbv2SimulatorOptions = {}): Promise<Elbv2Simulator> {
  const seed = options.seed ?? 1;
  const idSeed = (options.persistFile ? savedIdSeed(options.persistFile) : undefined) ?? seed;
  const state = new Elbv2State({ ...options, seed: idSeed });
  const persistence = options.persistFile
    ? new SimPersistence(options.persistFile, state.store, idSeed)
    : undefined;
  persistence?.load();
  const faults = new Faults(seed, options.faults);
  const calls = new CallCounters();
  const taggingCalls = new CallCounters();
  const host = options.host ?? '127.0.0.1';
  const deps = {
    state,
    faults,
    calls,
    taggingCalls,
    ...(persistence || options.afterCall
      ? {
          afterCall: (action: string) => {
            if (persistence && !action.startsWith('Describe')) persistence.changed();
            options.afterCall?.(action);
          },
        }
      : {}),
  };
  const common = {
    region: state.store.region,
    accountId: SIM_ACCOUNT_ID,
    network: state.store.network,
    supportedActions: SUPPORTED_ACTIONS,
    state,
    faults,
    calls,
    taggingCalls,
    snapshot: () => state.snapshot(),
  };
  if (options.inProcess) {
    const served = serveInProcess('elbv2', requestListener(deps));
    return {
      ...common,
      url: served.url,
      port: 0,
      requestHandler: served.requestHandler,
      close: async () => {
        served.stop();
        persistence?.flush();
      },
    };
  }
  const server = await startServer(deps, host, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return {
    ...common,
    url: `http://${host}:${port}`,
    port,
    close: () => {
      persistence?.flush();
      return closeServer(server);
    },
  };
}
