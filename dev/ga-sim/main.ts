/**
 * Runs the Global Accelerator simulator standalone for manual poking:
 *   npx tsx dev/ga-sim/main.ts [--port 4567] [--seed 7] [--deploy-ms 2000] [--throttle 0.1] [--latency 20]
 *                              [--state ga-state.json]
 * Prints the endpoint URL on the first line of stdout so scripts can capture it; then
 *   aws --endpoint-url <url> --region us-west-2 globalaccelerator list-accelerators
 */
import { parseArgs } from 'node:util';
import { startGaSimulator } from './index.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    'deploy-ms': { type: 'string' },
    state: { type: 'string' },
    throttle: { type: 'string' },
    internal: { type: 'string' },
    unavailable: { type: 'string' },
    drop: { type: 'string' },
    latency: { type: 'string' },
  },
});

const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));

const sim = await startGaSimulator({
  host: values.host,
  port: Number(values.port),
  seed: Number(values.seed),
  ...(values['deploy-ms'] !== undefined ? { deployMs: Number(values['deploy-ms']) } : {}),
  ...(values.state ? { persistFile: values.state } : {}),
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
  `Global Accelerator simulator: account ${sim.accountId}, API Region ${sim.region} only, changes deploy in ${sim.state.deployMs} ms`,
);

const stop = () => {
  console.error('Global Accelerator simulator: calls', JSON.stringify(sim.calls.all()));
  void sim.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
