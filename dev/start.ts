/**
 * `npm start`: the whole lifecycle on this machine, with no AWS account and no Karmada. Starts the
 * Kubernetes API stand-in seeded with the upstream README's scenario, runs the functions with the
 * fake provider on every change, and narrates what happens. It keeps serving the API so you can
 * `kubectl apply`, `edit` and `delete` against it; Ctrl-C stops it.
 *
 *   npm start -- [--provider fake|aws] [--regions us-east-1,eu-west-1] [--port 6443]
 *                [--elbv2-port 4566] [--topology-port 8080] [--state .local-state] [--fresh] [--verbose]
 *
 * With `--provider aws` the AWS provider runs against the simulators (dev/elbv2-sim and its
 * neighbours), by default in two Regions with Global Accelerator in front (`--regions` chooses;
 * one Region is the one-Region configuration), on ports that stay the same from run to run, with
 * their state kept next to the API objects.
 * A read-only page on 127.0.0.1 draws each object's load-balancer topology and follows changes.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { nextLastRun, readLastRun, switchNotice, wantedPorts } from './local/last-run.js';
import { startNarrator } from './local/narrator.js';
import { parseRegionsFlag } from './local/regions-flag.js';
import { topologySourceFor } from './local/topology-provider.js';
import { startTopologyServer } from './local/topology-server.js';
import {
  apiObjectsFile,
  checkClusterRegions,
  elbv2StateFile,
  LOCAL_CERTIFICATE_DOMAIN,
  LOCAL_WEB_ACL,
  seed,
  startPipeline,
} from './local/pipeline.js';
import { scenarioClusterRegions, upstreamScenario } from './local/scenario.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'elbv2-port': { type: 'string' },
    'topology-port': { type: 'string', default: '0' },
    state: { type: 'string', default: '.local-state' },
    fresh: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    provider: { type: 'string', default: 'fake' },
    regions: { type: 'string' },
  },
});

// This machine runs Node 20 on purpose (bundles target node20); the SDK's notice about future
// versions needing Node 22 is noise in a newcomer's first run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const say = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)}  ${line}`);
const usage = (message: string): never => {
  console.error(message);
  process.exit(2);
};

if (values.provider !== 'fake' && values.provider !== 'aws') {
  usage(`--provider must be fake or aws, got "${values.provider}"`);
}
const provider = values.provider as 'fake' | 'aws';
if (values.regions !== undefined && provider !== 'aws') usage('--regions is for --provider aws');
let regions: string[] = [];
try {
  regions = provider === 'aws' ? parseRegionsFlag(values.regions) : [];
} catch (err) {
  usage((err as Error).message);
}
const stateDir = resolve(values.state);
if (values.fresh) rmSync(stateDir, { recursive: true, force: true });

// The scenario is seeded into a fresh state only: a restart picks up where the last run stopped,
// and an object the user deleted stays deleted.
const fresh = !existsSync(apiObjectsFile(stateDir));
const lastRunFile = join(stateDir, 'last-run.json');
const lastRun = readLastRun(lastRunFile);
for (const line of switchNotice(lastRun, { provider, regions }, stateDir)) say(line);

say(`starting the Kubernetes API stand-in and the functions (provider: ${provider})...`);
const narrator = startNarrator(say, { verbose: values.verbose });
// The simulators' ports stay the ones an `aws --endpoint-url` command was given last time.
const explicitPort = values['elbv2-port'] !== undefined ? Number(values['elbv2-port']) : undefined;
const ports = wantedPorts(lastRun, regions, explicitPort);
const pipeline = await startPipeline({
  provider,
  stateDir,
  apiPort: Number(values.port),
  regions,
  elbv2Ports: ports.elbv2,
  gaPort: ports.ga,
  // A port asked for with --elbv2-port must be that one; the others give way to whatever holds them.
  portTaken: (what, port) => {
    if (explicitPort !== undefined && what === `ELBv2 ${regions[0]}`) return false;
    say(`port ${port} is taken: the ${what} simulator takes a free one (--elbv2-port chooses the first)`);
    return true;
  },
  persist: true,
  seed: false,
  // Every line reaches the narrator, which tells plans in words and prints only warnings and
  // errors as they are (all of them with --verbose).
  logLevel: 'INFO',
});
writeFileSync(
  lastRunFile,
  JSON.stringify(
    nextLastRun(
      lastRun,
      provider,
      pipeline.ga
        ? {
            regions,
            elbv2Ports: Object.fromEntries(pipeline.regions.map((r) => [r.region, r.elbv2.port])),
            gaPort: pipeline.ga.port,
          }
        : undefined,
    ),
  ),
);
narrator.watch(pipeline.kubeConfig);
if (fresh) await seed(pipeline.kube, upstreamScenario(provider === 'aws' ? regions : undefined));
if (regions.length > 1) {
  for (const line of await checkClusterRegions(pipeline.kube, scenarioClusterRegions(regions), regions))
    say(line);
}
// The page plans with the function's own configuration over the same simulators.
const topologySource = await topologySourceFor(pipeline);
const topology = await startTopologyServer({
  kubeConfig: pipeline.kubeConfig,
  kube: pipeline.kube,
  port: Number(values['topology-port']),
  ...topologySource,
});

say(`API server:  ${pipeline.api.url}`);
say(`kubeconfig:  ${pipeline.kubeconfigPath}`);
say(`function:    ${pipeline.functionUrl} (POST notifications here)`);
say(`topology:    ${topology.url} (each MCI's and MCS's load balancers, live)`);
for (const { region, elbv2, ec2, edge } of pipeline.regions) {
  const net = ec2.network;
  const zones = [...new Set(net.subnets.map((s) => s.availabilityZone))].join(', ');
  say(
    `ELBv2 ${region}: simulator at ${elbv2.url} (account ${elbv2.accountId}; state in ${elbv2StateFile(stateDir, region)})`,
  );
  say(
    `EC2 ${region}:   simulator at ${ec2.url} (VPC ${net.vpcId}: ${[net.vpcCidr, ...net.secondaryCidrs].join(', ')}; subnets in ${zones})`,
  );
  say(
    `edge ${region}:  WAFv2 ${edge.wafv2.url}, Shield ${edge.shield.url}, ACM ${edge.acm.url} (web ACL ${LOCAL_WEB_ACL}, a certificate for ${LOCAL_CERTIFICATE_DOMAIN})`,
  );
}
const ga = pipeline.ga;
const multiRegion = pipeline.regions.length > 1;
if (ga) {
  say(
    `Global Accelerator: simulator at ${ga.url} (API Region ${ga.region} only; state in ${join(stateDir, 'ga-state.json')}); ${
      multiRegion
        ? `every MCI and MCS gets an accelerator over ${regions.join(' and ')} (annotated multicluster.karmada.io/global-accelerator: "false", none)`
        : 'an MCI or MCS annotated multicluster.karmada.io/global-accelerator: "true" gets an accelerator'
    }`,
  );
}
const where = scenarioClusterRegions(regions);
say(
  fresh
    ? `seeded the upstream README scenario: IngressClass fake, MCI minimal-ingress, Service serve, MCS serve${
        multiRegion ? `; Cluster member1 in ${where.member1}, member2 in ${where.member2}` : ''
      }.`
    : `resumed the API objects of the last run (${apiObjectsFile(stateDir)}): nothing is seeded again, so what you deleted stays deleted (--fresh seeds the scenario anew).`,
);
say(`try:  export KUBECONFIG=${pipeline.kubeconfigPath}`);
const field = pipeline.elbv2 ? 'hostname' : 'ip';
say(
  `      kubectl get mci minimal-ingress -o jsonpath='{.status.loadBalancer.ingress[0].${field}}'   # ${
    multiRegion ? "the accelerator's DNS name (its static IPs follow)" : "the load balancer's address"
  }`,
);
say('      kubectl edit mci minimal-ingress               # change the path: the load balancer is updated');
say(
  multiRegion
    ? '      kubectl delete mci minimal-ingress             # accelerator disabled, deleted once deployed, then the ALBs, then the finalizer'
    : '      kubectl delete mci minimal-ingress             # load balancer deleted, then the finalizer removed',
);
for (const { region, elbv2 } of pipeline.regions) {
  say(
    `      ${awsCommand(elbv2.url, region)} elbv2 describe-load-balancers   # also describe-listeners, describe-rules, describe-target-groups, describe-target-health`,
  );
}
if (ga) {
  const cli = awsCommand(ga.url, ga.region);
  say(`      ${cli} globalaccelerator list-accelerators`);
  say(`      ${cli} globalaccelerator list-listeners --accelerator-arn <AcceleratorArn>`);
  say(`      ${cli} globalaccelerator list-endpoint-groups --listener-arn <ListenerArn>`);
}
say('Ctrl-C to stop (state is kept in ' + stateDir + '; --fresh starts over).');

/** The AWS CLI against a simulator: it checks no credentials, but the CLI wants some. */
function awsCommand(url: string, region: string): string {
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
