/**
 * `npm run invoke -- events/<file>.json [--function sqs|invoke|http] [--provider fake|aws]`: runs
 * one function locally with a sample event through the Serverless Framework CLI (`osls invoke
 * local`), exactly as bundled for Lambda. Against a real Karmada when KUBECONFIG is set; otherwise
 * against the Kubernetes API stand-in, started here and put in the state the sample assumes
 * (events/expectations.json), whose expected outcome is printed before the run and checked after.
 * `--provider aws` runs the AWS provider against the ELBv2 simulator, started here too.
 * The function is chosen from the file name (sqs-*, http-*, else invoke) unless given.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadExpectations, matches, prepare, type SampleExpectation } from '../dev/invoke/samples.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { function: { type: 'string' }, provider: { type: 'string', default: 'fake' } },
});
const eventFile = positionals[0];
if (!eventFile) {
  console.error(
    'usage: npm run invoke -- events/<file>.json [--function sqs|invoke|http] [--provider fake|aws]',
  );
  process.exit(2);
}
const fn =
  values.function ??
  (basename(eventFile).startsWith('sqs-')
    ? 'sqs'
    : basename(eventFile).startsWith('http-')
      ? 'http'
      : 'invoke');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const stops: Array<() => Promise<void>> = [];
const env: Record<string, string> = {};
let kubeconfig = process.env.KUBECONFIG;
const dir = mkdtempSync(join(tmpdir(), 'mcp-invoke-'));
let cloudConfig = process.env.CLOUD_CONFIG;
const expectation: SampleExpectation | undefined = loadExpectations()[basename(eventFile)];

if (!kubeconfig) {
  const { startKubeApiServer } = await import('../dev/kube-apiserver/index.js');
  const { createKubeClient, loadKubeConfig } = await import('../lib/kube/client-node.js');
  // kube-system is where the functions read the Karmada instance they serve (its UID).
  const api = await startKubeApiServer({ namespaces: ['default', 'karmada-system', 'kube-system'] });
  stops.push(() => api.close());
  kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  const setup = expectation?.setup ?? 'scenario';
  await prepare(createKubeClient(loadKubeConfig({ file: kubeconfig })), setup);
  console.error(
    `(no KUBECONFIG: using the Kubernetes API stand-in at ${api.url}, seeded with the upstream scenario${
      setup === 'mci-deleting' ? '; minimal-ingress was served and is being deleted' : ''
    })`,
  );
  if (expectation) console.error(`expect: ${expectation.expect}`);
}
if (values.provider === 'aws' && !cloudConfig) {
  const { startElbv2Simulator } = await import('../dev/elbv2-sim/index.js');
  const { awsConfigFor } = await import('../dev/local/pipeline.js');
  const sim = await startElbv2Simulator();
  stops.push(() => sim.close());
  cloudConfig = join(dir, 'aws.json');
  writeFileSync(cloudConfig, awsConfigFor(sim));
  // The SDK insists on credentials; the simulator ignores them.
  env.AWS_ACCESS_KEY_ID = 'local';
  env.AWS_SECRET_ACCESS_KEY = 'local';
  env.AWS_REGION = sim.region;
  console.error(`(--provider aws: the ELBv2 simulator at ${sim.url}, configuration ${cloudConfig})`);
} else if (!cloudConfig) {
  cloudConfig = join(dir, 'fake.yaml');
  writeFileSync(cloudConfig, `stateFile: ${join(dir, 'fake-load-balancers.json')}\n`);
}

// What a deployment names (serverless.yml has no default for them): the configuration's ownerId
// and the UID of kube-system on the Karmada it reaches, so the functions' checks pass as deployed.
const { createKubeClient: kubeClientFor, loadKubeConfig: kubeConfigFor } =
  await import('../lib/kube/client-node.js');
const { karmadaInstanceId } = await import('../lib/providers/aws/instance.js');
const instanceId =
  process.env.KARMADA_INSTANCE_ID ??
  (await karmadaInstanceId(kubeClientFor(kubeConfigFor({ file: kubeconfig })))) ??
  'none';
const { parse: parseYaml } = await import('yaml');
const { readFileSync } = await import('node:fs');
const configured = (parseYaml(readFileSync(cloudConfig, 'utf8')) as { ownerId?: unknown } | null)?.ownerId;
const ownerId = process.env.AWS_OWNER_ID ?? (typeof configured === 'string' ? configured : 'local');

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
  '--param',
  `awsOwnerId=${ownerId}`,
  '--param',
  `karmadaInstanceId=${instanceId}`,
  '--env',
  `KUBECONFIG=${kubeconfig}`,
  '--env',
  `CLOUD_CONFIG=${cloudConfig}`,
  '--env',
  `LOCK_NAMESPACE=${process.env.LOCK_NAMESPACE ?? 'karmada-system'}`,
  '--env',
  `LOG_LEVEL=${process.env.LOG_LEVEL ?? 'INFO'}`,
  ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
];
const child = spawn('npx', args, {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
    SLS_TELEMETRY_DISABLED: '1',
    ...env,
  },
});
let stdout = '';
child.stdout.on('data', (d: Buffer) => {
  stdout += d.toString();
  process.stdout.write(d);
});
// osls can hang after a failed build; never wait forever.
const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
const code: number = await new Promise((r) => child.on('exit', (c) => r(c ?? 1)));
clearTimeout(timer);
for (const stop of stops.reverse()) await stop();

/**
 * osls prints the handler's result as indented JSON whose first line is a lone `{` or `[`; the
 * function's own one-line JSON (logs, EMF metrics) comes before it.
 */
function resultOf(out: string): unknown {
  const start = out.search(/^[{[]$/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(out.slice(start));
  } catch {
    return undefined;
  }
}
if (expectation && !process.env.KUBECONFIG && code === 0) {
  const result = resultOf(stdout);
  console.error(
    result !== undefined && matches(result, expectation.output)
      ? 'as expected.'
      : `NOT as expected: ${expectation.expect}`,
  );
}
process.exit(code);
