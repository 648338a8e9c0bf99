/**
 * Runs the ELBv2 simulator standalone for manual poking and local dev stacks:
 *   npx tsx dev/elbv2-sim/main.ts [--port 4566] [--seed 7] [--throttle 0.1] [--latency 20]
 * Prints the endpoint URL on the first line of stdout so scripts can capture it.
 */
import { parseArgs } from 'node:util';
import { startElbv2Simulator } from './index.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    throttle: { type: 'string' },
    internal: { type: 'string' },
    unavailable: { type: 'string' },
    drop: { type: 'string' },
    latency: { type: 'string' },
    'provisioning-ms': { type: 'string' },
    'initial-ms': { type: 'string' },
  },
});

const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

const sim = await startElbv2Simulator({
  host: values.host,
  port: Number(values.port),
  seed: Number(values.seed),
  provisioningMs: num(values['provisioning-ms']),
  targetHealth: { initialMs: num(values['initial-ms']) },
  faults: {
    throttle: num(values.throttle),
    internal: num(values.internal),
    unavailable: num(values.unavailable),
    drop: num(values.drop),
    latencyMs: num(values.latency),
  },
});
console.log(sim.url);
console.error(
  `ELBv2 simulator: account ${sim.accountId}, region ${sim.region}, VPC ${sim.network.vpcId} (${sim.network.vpcCidr}), ` +
    `subnets ${sim.network.subnets.map((s) => `${s.subnetId}@${s.availabilityZone}`).join(' ')}`,
);

const stop = () => {
  console.error('ELBv2 simulator: calls', JSON.stringify(sim.calls.all()));
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
