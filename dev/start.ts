/**
 * `npm start`: the whole lifecycle on this machine, with no AWS account and no Karmada. Starts the
 * Kubernetes API stand-in seeded with the upstream README's scenario, runs the functions with the
 * fake provider on every change, and narrates what happens. It keeps serving the API so you can
 * `kubectl apply`, `edit` and `delete` against it; Ctrl-C stops it.
 *
 *   npm start -- [--provider fake|aws] [--port 6443] [--state .local-state] [--fresh] [--verbose]
 *
 * With `--provider aws` the AWS provider runs against the ELBv2 simulator (dev/elbv2-sim).
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startNarrator } from './local/narrator.js';
import { seed, startPipeline } from './local/pipeline.js';
import { upstreamScenario } from './local/scenario.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
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
say(`starting the Kubernetes API stand-in and the functions (provider: ${provider})...`);
const pipeline = await startPipeline({
  provider,
  stateDir,
  apiPort: Number(values.port),
  persist: true,
  seed: false,
  logLevel: values.verbose ? 'INFO' : 'WARN',
});
const stopNarrator = startNarrator(pipeline.kubeConfig, say);
await seed(pipeline.kube, upstreamScenario());

say(`API server:  ${pipeline.api.url}`);
say(`kubeconfig:  ${pipeline.kubeconfigPath}`);
say(`function:    ${pipeline.functionUrl} (POST notifications here)`);
if (pipeline.elbv2)
  say(`ELBv2:       simulator at ${pipeline.elbv2.url} (account ${pipeline.elbv2.accountId})`);
say('seeded the upstream README scenario: IngressClass fake, MCI minimal-ingress, Service serve, MCS serve.');
say(`try:  export KUBECONFIG=${pipeline.kubeconfigPath}`);
say('      kubectl get mci minimal-ingress -o yaml        # status.loadBalancer.ingress[0].ip');
say('      kubectl edit mci minimal-ingress               # change the path: the load balancer is updated');
say(
  '      kubectl delete mci minimal-ingress             # load balancer deleted, then the finalizer removed',
);
say('Ctrl-C to stop (state is kept in ' + stateDir + '; --fresh starts over).');

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  say('stopping...');
  stopNarrator();
  void pipeline.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
