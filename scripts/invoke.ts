/**
 * `npm run invoke -- events/<file>.json [--function sqs|invoke|http]`: runs one function locally
 * with a sample event through the Serverless Framework CLI (`osls invoke local`), exactly as
 * bundled for Lambda. Against a real Karmada when KUBECONFIG is set; otherwise against the
 * Kubernetes API stand-in, started here and seeded with the upstream README's scenario.
 * The function is chosen from the file name (sqs-*, http-*, else invoke) unless given.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { function: { type: 'string' }, provider: { type: 'string', default: 'fake' } },
});
const eventFile = positionals[0];
if (!eventFile) {
  console.error('usage: npm run invoke -- events/<file>.json [--function sqs|invoke|http]');
  process.exit(2);
}
const fn =
  values.function ??
  (basename(eventFile).startsWith('sqs-')
    ? 'sqs'
    : basename(eventFile).startsWith('http-')
      ? 'http'
      : 'invoke');

let stop = async () => {};
let kubeconfig = process.env.KUBECONFIG;
const dir = mkdtempSync(join(tmpdir(), 'mcp-invoke-'));
const cloudConfig = join(dir, 'fake.yaml');
writeFileSync(cloudConfig, `stateFile: ${join(dir, 'fake-load-balancers.json')}\n`);
if (!kubeconfig) {
  const { startKubeApiServer } = await import('../dev/kube-apiserver/index.js');
  const { seed } = await import('../dev/local/pipeline.js');
  const { upstreamScenario } = await import('../dev/local/scenario.js');
  const { createKubeClient, loadKubeConfig } = await import('../lib/kube/client-node.js');
  const api = await startKubeApiServer();
  kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  await seed(createKubeClient(loadKubeConfig({ file: kubeconfig })), upstreamScenario());
  console.error(
    `(no KUBECONFIG: using the Kubernetes API stand-in at ${api.url}, seeded with the upstream scenario)`,
  );
  stop = () => api.close();
}

const args = [
  'osls',
  'invoke',
  'local',
  '--function',
  fn,
  '--path',
  resolve(eventFile),
  '--param',
  `provider=${values.provider}`,
  // serverless.yml has no default for these (a deployment must name them); a local run names
  // placeholders and switches the deployed-values checks off (the stand-in is no deployed Karmada).
  '--param',
  'awsOwnerId=local',
  '--param',
  'karmadaInstanceId=local',
  '--env',
  'AWS_OWNER_ID=',
  '--env',
  'KARMADA_INSTANCE_ID=',
  '--env',
  `KUBECONFIG=${kubeconfig}`,
  '--env',
  `CLOUD_CONFIG=${process.env.CLOUD_CONFIG ?? cloudConfig}`,
  '--env',
  `LOCK_NAMESPACE=${process.env.LOCK_NAMESPACE ?? 'karmada-system'}`,
  '--env',
  `LOG_LEVEL=${process.env.LOG_LEVEL ?? 'INFO'}`,
];
const child = spawn('npx', args, {
  stdio: 'inherit',
  env: { ...process.env, AWS_REGION: process.env.AWS_REGION ?? 'us-east-1', SLS_TELEMETRY_DISABLED: '1' },
});
// osls can hang after a failed build; never wait forever.
const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
const code: number = await new Promise((r) => child.on('exit', (c) => r(c ?? 1)));
clearTimeout(timer);
await stop();
process.exit(code);
