/**
 * `npm start`: the whole lifecycle on this machine, with no AWS account and no Karmada. Starts the
 * Kubernetes API stand-in seeded with the upstream README's scenario, runs the functions with the
 * fake provider on every change, and narrates what happens. It keeps serving the API so you can
 * `kubectl apply`, `edit` and `delete` against it; Ctrl-C stops it.
 *
 *   npm start -- [--provider fake|aws] [--port 6443] [--elbv2-port 4566] [--topology-port 8080]
 *                [--state .local-state] [--fresh] [--verbose]
 *
 * With `--provider aws` the AWS provider runs against the ELBv2 simulator (dev/elbv2-sim), on a
 * port that stays the same from run to run, with its state kept next to the API objects.
 * A read-only page on 127.0.0.1 draws each object's load-balancer topology and follows changes.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ec2ClientFor } from './ec2-sim/index.js';
import { elbv2ClientFor } from './elbv2-sim/index.js';
import { startNarrator } from './local/narrator.js';
import { simulatorConfigText } from './local/sim-config.js';
import { startTopologyServer } from './local/topology-server.js';
import { silentLogger } from '../lib/log/logger.js';
import { AwsProvider, parseAwsConfig } from '../lib/providers/aws/index.js';
import {
  awsConfigFor,
  LOCAL_CERTIFICATE_DOMAIN,
  LOCAL_WEB_ACL,
  seed,
  startPipeline,
  type Pipeline,
} from './local/pipeline.js';
import { upstreamScenario } from './local/scenario.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'elbv2-port': { type: 'string' },
    'topology-port': { type: 'string', default: '0' },
    state: { type: 'string', default: '.local-state' },
    fresh: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    provider: { type: 'string', default: 'fake' },
  },
});

// This machine runs Node 20 on purpose (bundles target node20); the SDK's notice about future
// versions needing Node 22 is noise in a newcomer's first run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const stateDir = resolve(values.state);
if (values.fresh) rmSync(stateDir, { recursive: true, force: true });

const say = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)}  ${line}`);

if (values.provider !== 'fake' && values.provider !== 'aws') {
  console.error(`--provider must be fake or aws, got "${values.provider}"`);
  process.exit(2);
}
const provider = values.provider;

/** What the last run in this state directory used: its provider, and the simulator's port. */
interface LastRun {
  provider?: string;
  elbv2Port?: number;
}
const lastRunFile = join(stateDir, 'last-run.json');
const lastRun: LastRun = existsSync(lastRunFile)
  ? (JSON.parse(readFileSync(lastRunFile, 'utf8')) as LastRun)
  : {};
/** The simulator's port stays the one an `aws --endpoint-url` command was given last time. */
const DEFAULT_ELBV2_PORT = 4566;

if (lastRun.provider && lastRun.provider !== provider) {
  say(`switching from --provider ${lastRun.provider} to ${provider} without --fresh; keeping:`);
  say(`  - the API objects (${join(stateDir, 'api-objects.json')}): MCIs and MCSs keep their finalizers,`);
  say(`    and their status.loadBalancer changes to ${provider}'s load balancers as they are reconciled;`);
  say(
    lastRun.provider === 'fake'
      ? `  - fake's load balancers (${join(stateDir, 'fake-load-balancers.json')}), left as they are;`
      : `  - the simulator's load balancers (${join(stateDir, 'elbv2-state.json')}), not served while ${provider} runs;`,
  );
  say('  npm start -- --fresh starts over.');
}

say(`starting the Kubernetes API stand-in and the functions (provider: ${provider})...`);
const narrator = startNarrator(say, { verbose: values.verbose });
const start = (elbv2Port: number): Promise<Pipeline> =>
  startPipeline({
    provider,
    stateDir,
    apiPort: Number(values.port),
    elbv2Port,
    persist: true,
    seed: false,
    // Every line reaches the narrator, which tells plans in words and prints only warnings and
    // errors as they are (all of them with --verbose).
    logLevel: 'INFO',
  });
const wantedPort = Number(values['elbv2-port'] ?? lastRun.elbv2Port ?? DEFAULT_ELBV2_PORT);
let pipeline: Pipeline;
try {
  pipeline = await start(provider === 'aws' ? wantedPort : 0);
} catch (err) {
  if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || values['elbv2-port']) throw err;
  say(`port ${wantedPort} is taken: the ELBv2 simulator takes a free one (--elbv2-port chooses)`);
  pipeline = await start(0);
}
writeFileSync(
  lastRunFile,
  JSON.stringify({
    provider,
    ...(pipeline.elbv2 ? { elbv2Port: pipeline.elbv2.port } : { elbv2Port: lastRun.elbv2Port }),
  }),
);
narrator.watch(pipeline.kubeConfig);
await seed(pipeline.kube, upstreamScenario());
const simulator = pipeline.elbv2;
const awsConfig = await parseAwsConfig(
  simulator
    ? awsConfigFor(simulator, {}, pipeline.ec2, pipeline.edge, pipeline.ga)
    : simulatorConfigText('local'),
);
const topology = await startTopologyServer({
  kubeConfig: pipeline.kubeConfig,
  kube: pipeline.kube,
  port: Number(values['topology-port']),
  config: awsConfig,
  ...(simulator
    ? {
        provider: new AwsProvider(
          awsConfig,
          { kube: pipeline.kube, logger: silentLogger },
          {
            client: elbv2ClientFor(simulator),
            ...(pipeline.ec2 ? { ec2: ec2ClientFor(pipeline.ec2) } : {}),
          },
        ),
        note: 'aws provider: the ELBv2 simulator; dashed boxes are changes still to be applied',
      }
    : { note: 'fake provider: the load balancers the aws provider would build for these objects' }),
});

say(`API server:  ${pipeline.api.url}`);
say(`kubeconfig:  ${pipeline.kubeconfigPath}`);
say(`function:    ${pipeline.functionUrl} (POST notifications here)`);
say(`topology:    ${topology.url} (each MCI's and MCS's load balancers, live)`);
const elbv2 = pipeline.elbv2;
if (elbv2) {
  say(
    `ELBv2:       simulator at ${elbv2.url} (account ${elbv2.accountId}, ${elbv2.region}; state in ${join(stateDir, 'elbv2-state.json')})`,
  );
}
const ec2 = pipeline.ec2;
if (ec2) {
  say(
    `EC2:         simulator at ${ec2.url} (VPC ${ec2.network.vpcId}: ${[ec2.network.vpcCidr, ...ec2.network.secondaryCidrs].join(', ')}; its CIDRs and subnet zones)`,
  );
}
const edge = pipeline.edge;
if (edge) {
  say(
    `edge:        WAFv2 ${edge.wafv2.url}, Shield ${edge.shield.url}, ACM ${edge.acm.url} (web ACL ${LOCAL_WEB_ACL}, a certificate for ${LOCAL_CERTIFICATE_DOMAIN})`,
  );
}
const ga = pipeline.ga;
if (ga) {
  say(
    `Global Accelerator: simulator at ${ga.url} (API Region ${ga.region} only; state in ${join(stateDir, 'ga-state.json')}); an MCI or MCS annotated multicluster.karmada.io/global-accelerator: "true" gets an accelerator`,
  );
}
say('seeded the upstream README scenario: IngressClass fake, MCI minimal-ingress, Service serve, MCS serve.');
say(`try:  export KUBECONFIG=${pipeline.kubeconfigPath}`);
const field = elbv2 ? 'hostname' : 'ip';
say(
  `      kubectl get mci minimal-ingress -o jsonpath='{.status.loadBalancer.ingress[0].${field}}'   # the load balancer's address`,
);
say('      kubectl edit mci minimal-ingress               # change the path: the load balancer is updated');
say(
  '      kubectl delete mci minimal-ingress             # load balancer deleted, then the finalizer removed',
);
if (elbv2) {
  say(
    `      ${elbv2Command(elbv2.url, elbv2.region)} elbv2 describe-load-balancers   # also describe-listeners, describe-rules, describe-target-groups, describe-target-health`,
  );
}
if (ga) {
  say(
    `      ${elbv2Command(ga.url, ga.region)} globalaccelerator list-accelerators   # also list-listeners, list-endpoint-groups`,
  );
}
say('Ctrl-C to stop (state is kept in ' + stateDir + '; --fresh starts over).');

/** The AWS CLI against the simulator: it checks no credentials, but the CLI wants some. */
function elbv2Command(url: string, region: string): string {
  return `AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws --endpoint-url ${url} --region ${region}`;
}

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  void topology
    .close()
    .then(() => pipeline.close())
    .then(() => {
      narrator.stop();
      process.exit(0);
    });
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
