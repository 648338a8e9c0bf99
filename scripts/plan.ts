/**
 * `npm run plan -- <mci-or-mcs.yaml> [--config cloud.yaml] [--kubeconfig path] [--simulator] [--json]`
 *
 * Prints the change plan the AWS provider would apply for a MultiClusterIngress or
 * MultiClusterService, without changing anything (a dry run). The YAML file holds the object,
 * and may hold the Services and EndpointSlices it needs when no kubeconfig is given.
 * - `--simulator`: against an in-process, empty ELBv2 simulator (what a first deploy would do);
 *   `--config` is optional then (defaults fit the simulator's network).
 * - otherwise: against the account and Region of `--config` (credentials from the environment).
 * - `--kubeconfig`: read Services and EndpointSlices from that Karmada control plane instead.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { elbv2ClientFor, SIM_NETWORK, startElbv2Simulator } from '../dev/elbv2-sim/index.js';
import type { MultiClusterIngress, MultiClusterService } from '../lib/karmada/types.js';
import type { KubeClient } from '../lib/kube/client.js';
import type { KubeObject } from '../lib/kube/types.js';
import { createLogger, silentLogger } from '../lib/log/logger.js';
import { AwsProvider, createElbv2Client, formatPlan, parseAwsConfig } from '../lib/providers/aws/index.js';
import { MemoryKube } from '../test/support/memory-kube.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    config: { type: 'string' },
    kubeconfig: { type: 'string' },
    simulator: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const file = positionals[0];
if (!file) {
  console.error(
    'usage: npm run plan -- <mci-or-mcs.yaml> [--config cloud.yaml] [--kubeconfig path] [--simulator] [--json]',
  );
  process.exit(2);
}
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const docs = parseAllDocuments(readFileSync(file, 'utf8'))
  .map((d) => d.toJS() as KubeObject | null)
  .filter((d): d is KubeObject => d !== null && typeof d === 'object');
const target = docs.find((d) => d.kind === 'MultiClusterIngress' || d.kind === 'MultiClusterService');
if (!target) {
  console.error(`${file}: no MultiClusterIngress or MultiClusterService in it`);
  process.exit(2);
}
target.metadata.namespace ??= 'default';

const simulatorConfig = `
region: us-east-1
vpc: { id: ${SIM_NETWORK.vpcId}, cidrs: [${SIM_NETWORK.vpcCidr}] }
subnets: [${SIM_NETWORK.subnets
  .filter((s) => !s.public)
  .map((s) => s.subnetId)
  .join(', ')}]
ownerId: plan-preview
`;
const config = parseAwsConfig(
  values.config ? readFileSync(values.config, 'utf8') : values.simulator ? simulatorConfig : undefined,
);

let kube: KubeClient;
if (values.kubeconfig) {
  const { createKubeClient, loadKubeConfig } = await import('../lib/kube/client-node.js');
  kube = createKubeClient(loadKubeConfig({ file: values.kubeconfig }));
} else {
  kube = new MemoryKube(docs.filter((d) => d !== target));
}

const sim = values.simulator ? await startElbv2Simulator() : undefined;
try {
  const client = sim ? elbv2ClientFor(sim) : createElbv2Client(config);
  const logger = values.verbose ? createLogger() : silentLogger;
  const provider = new AwsProvider(config, { kube, logger }, { client });
  const ctx = { signal: AbortSignal.timeout(60_000), logger, resync: true };
  const result = await provider.plan(ctx, target as MultiClusterIngress | MultiClusterService);
  const where = sim
    ? 'an empty ELBv2 simulator'
    : `${config.region}${config.endpoint ? ` (${config.endpoint})` : ''}`;
  if (values.json) {
    console.log(JSON.stringify(result.plan, null, 2));
  } else {
    console.log(
      `# ${target.kind} ${target.metadata.namespace}/${target.metadata.name ?? ''} against ${where}`,
    );
    for (const line of formatPlan(result.plan)) console.log(line);
  }
} catch (err) {
  console.error(`plan failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await sim?.close();
}
