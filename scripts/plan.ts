/**
 * `npm run plan -- <file-or-directory>... [--config cloud.yaml] [--kubeconfig path] [--simulator]
 *   [--namespace ns] [--json | --graph]`
 *
 * Prints the change plan the AWS provider would apply for every MultiClusterIngress and
 * MultiClusterService in the given manifests, without changing anything (a dry run). Paths are
 * read as `kubectl apply -f` reads them: files or directories, several documents each, and a
 * namespaced object without `metadata.namespace` lands in `default` (or `--namespace`). The
 * manifests may hold the Services and EndpointSlices the objects need when no kubeconfig is given.
 * - `--simulator`: against an in-process, empty ELBv2 simulator (what a first deploy would do);
 *   `--config` is optional then (defaults fit the simulator's network). Without `--config`, when
 *   the manifests' Clusters are in several Regions (`spec.region`), it plans over those Regions,
 *   an empty simulator each, as a configuration with `regions:` would; `--regions` chooses them.
 * - otherwise: against the account and Region of `--config` (credentials from the environment).
 * - `--kubeconfig`: read Services and EndpointSlices from that Karmada control plane instead.
 * - `--graph`: the load-balancer topology as a Mermaid flowchart instead (one object: the diagram;
 *   several: Markdown, a fenced `mermaid` block per object).
 * - a configuration with `regions:` (lib/providers/aws/regions/): each object's plan in every
 *   Region, under its Region (with `--simulator`, an empty simulator per Region); the manifests'
 *   Cluster objects say each cluster's Region (`spec.region`). `--graph` draws every Region's load
 *   balancer, and the Global Accelerator in front with each Region's dial.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ec2ClientFor, startEc2Simulator, type Ec2Simulator } from '../dev/ec2-sim/index.js';
import { endpointsIn, gaClientFor, startGaSimulator } from '../dev/ga-sim/index.js';
import { elbv2ClientFor, startElbv2Simulator, type Elbv2Simulator } from '../dev/elbv2-sim/index.js';
import { withKarmadaCollection } from '../dev/local/karmada-collection.js';
import { parseRegionsFlag } from '../dev/local/regions-flag.js';
import { simulatorConfigText, simulatorRegionsConfigText } from '../dev/local/sim-config.js';
import { describePlan } from '../dev/plan/describe.js';
import { loadManifests, UsageError } from '../dev/plan/manifests.js';
import { errorMessage } from '../lib/errors.js';
import { MCI_FINALIZER } from '../lib/karmada/constants.js';
import { validGroupNameOf } from '../lib/karmada/ingress-group.js';
import { withFinalizer } from '../lib/kube/finalizers.js';
import { decorateIngress } from '../lib/reconcile/mci.js';
import type { MultiClusterIngress, MultiClusterService } from '../lib/karmada/types.js';
import type { KubeClient } from '../lib/kube/client.js';
import type { KubeObject } from '../lib/kube/types.js';
import { createLogger, silentLogger } from '../lib/log/logger.js';
import {
  AwsProvider,
  createElbv2Client,
  formatPlan,
  parseAwsConfig,
  type AwsProviderConfig,
} from '../lib/providers/aws/index.js';
import { buildMultiRegionProvider } from '../lib/providers/aws/regions/build.js';
import { topologyOf } from '../lib/topology/source.js';
import { toMermaid } from '../lib/topology/mermaid.js';
import type { Topology } from '../lib/topology/types.js';
import { MemoryKube } from '../test/support/memory-kube.js';

/** The manifests the README walks through, each planned by test/dev/examples.test.ts. */
const EXAMPLES_DIR = 'examples';

/** The usage, and the examples to try it on (each file's first comment line says what it is). */
function usage(): string {
  const dir = join(import.meta.dirname, '..', EXAMPLES_DIR);
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
    : [];
  return [
    'usage: npm run plan -- <file-or-directory>... [--config cloud.yaml | --simulator [--regions r1,r2]] [--kubeconfig path] [--namespace ns] [--json | --graph]',
    ...(files.length > 0
      ? [
          `examples (${EXAMPLES_DIR}/README.md says what each shows and how to apply it):`,
          ...files.map((f) => `  npm run plan -- ${EXAMPLES_DIR}/${f} --simulator`),
        ]
      : []),
  ].join('\n');
}

/** ` (IngressGroup shop)`: the plan shown is the group's load balancer, shared with its other members. */
function groupNote(target: Target): string {
  const group = target.kind === 'MultiClusterIngress' ? validGroupNameOf(target) : undefined;
  return group === undefined ? '' : ` (IngressGroup ${group}: the group's load balancer)`;
}

const SIMULATOR_CONFIG = simulatorConfigText('plan-preview');

/**
 * The Regions the manifests' Clusters are in (`spec.region`), in the order they come, when there
 * are several: the Regions `--simulator` plans over without a configuration.
 */
function clusterRegions(objects: readonly KubeObject[]): string[] | undefined {
  const regions = [
    ...new Set(
      objects.flatMap((o) => {
        const region = (o as { spec?: { region?: unknown } }).spec?.region;
        return o.kind === 'Cluster' && typeof region === 'string' ? [region] : [];
      }),
    ),
  ];
  return regions.length > 1 ? regions : undefined;
}

type Target = MultiClusterIngress | MultiClusterService;

async function readConfig(
  path: string | undefined,
  simulator: boolean,
  regions?: readonly string[],
): Promise<AwsProviderConfig> {
  if (path === undefined && !simulator) {
    throw new UsageError('give the provider configuration with --config cloud.yaml, or use --simulator');
  }
  let text = regions ? simulatorRegionsConfigText('plan-preview', regions) : SIMULATOR_CONFIG;
  if (path !== undefined) {
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        `--config ${path}: ${code === 'ENOENT' ? 'no such file' : (code ?? 'cannot be read')}`,
      );
    }
  }
  try {
    return await parseAwsConfig(text);
  } catch (err) {
    throw new UsageError(`--config ${path ?? '(simulator defaults)'}: ${errorMessage(err)}`);
  }
}

/** One object: its Mermaid diagram; several: Markdown, a fenced `mermaid` block per object. */
function graphs(targets: readonly Target[], topologies: readonly Topology[]): string {
  if (topologies.length === 1) return toMermaid(topologies[0]!);
  return topologies
    .map((t, i) => {
      const target = targets[i]!;
      const head = `${target.kind ?? ''} ${target.metadata.namespace ?? ''}/${target.metadata.name ?? ''}`;
      return `## ${head}\n\n\`\`\`mermaid\n${toMermaid(t)}\`\`\`\n`;
    })
    .join('\n');
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      config: { type: 'string' },
      kubeconfig: { type: 'string' },
      simulator: { type: 'boolean', default: false },
      namespace: { type: 'string', short: 'n', default: 'default' },
      json: { type: 'boolean', default: false },
      graph: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      regions: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new UsageError(usage());
  if (values.regions !== undefined && (!values.simulator || values.config !== undefined)) {
    throw new UsageError(
      '--regions is for --simulator without --config (a configuration names its own Regions)',
    );
  }
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

  const objects = loadManifests(positionals, values.namespace);
  const targets = objects.filter(
    (d): d is KubeObject & Target => d.kind === 'MultiClusterIngress' || d.kind === 'MultiClusterService',
  );
  if (targets.length === 0) {
    throw new UsageError(`${positionals.join(', ')}: no MultiClusterIngress or MultiClusterService in it`);
  }
  // Over several Regions, an empty simulator each: those `--regions` names, else (no
  // configuration) the Regions of the manifests' Clusters. One Region is the one-Region
  // configuration, as `npm start -- --regions us-east-1` runs it.
  let simulatedRegions: string[] | undefined;
  if (values.simulator && values.config === undefined) {
    try {
      simulatedRegions =
        values.regions !== undefined ? parseRegionsFlag(values.regions) : clusterRegions(objects);
    } catch (err) {
      throw new UsageError(errorMessage(err));
    }
    if (simulatedRegions?.length === 1) simulatedRegions = undefined;
  }
  const config = await readConfig(values.config, values.simulator, simulatedRegions);

  let kube: KubeClient;
  if (values.kubeconfig) {
    const { createKubeClient, loadKubeConfig } = await import('../lib/kube/client-node.js');
    kube = createKubeClient(loadKubeConfig({ file: values.kubeconfig }));
  } else {
    // An IngressGroup's members as a reconcile leaves them (finalizer, group label), so each
    // member's plan is its whole group's load balancer.
    const members = targets.filter(
      (t): t is KubeObject & MultiClusterIngress =>
        t.kind === 'MultiClusterIngress' && validGroupNameOf(t) !== undefined,
    );
    // The file's derived EndpointSlices are Karmada's: each with the Work it was derived from
    // (the provider reads that Work before it takes a slice's endpoints).
    kube = new MemoryKube(
      withKarmadaCollection([
        ...objects.filter((d) => !targets.includes(d as KubeObject & Target)),
        ...members.map((m) => decorateIngress(withFinalizer(m, MCI_FINALIZER))),
      ]),
    );
  }

  if (config.regions) {
    return planRegions(config, kube, targets, {
      simulator: values.simulator,
      json: values.json,
      graph: values.graph,
      verbose: values.verbose,
    });
  }

  const sim = values.simulator ? await startElbv2Simulator() : undefined;
  // The same account's EC2 (security groups, the VPC's subnets), as empty as the ELBv2 one.
  const ec2Sim = sim ? await startEc2Simulator({ elbv2: sim }) : undefined;
  // And an empty Global Accelerator (objects that ask for an accelerator plan its creation).
  const gaSim = sim ? await startGaSimulator({ endpoints: endpointsIn([sim]) }) : undefined;
  let failed = 0;
  try {
    const client = sim ? elbv2ClientFor(sim) : createElbv2Client(config);
    const logger = values.verbose ? createLogger() : silentLogger;
    const provider = new AwsProvider(
      config,
      { kube, logger },
      {
        client,
        ...(ec2Sim ? { ec2: ec2ClientFor(ec2Sim) } : {}),
        ...(gaSim ? { ga: gaClientFor(gaSim) } : {}),
      },
    );
    const where = sim
      ? 'an empty ELBv2 simulator'
      : `${config.region}${config.endpoint ? ` (${config.endpoint})` : ''}`;
    const plans: Array<{
      kind: string;
      namespace: string;
      name: string;
      operations?: unknown;
      accelerator?: unknown;
      warnings?: unknown;
      details?: string[];
      error?: string;
    }> = [];
    if (values.graph) {
      const topologies = [];
      for (const target of targets)
        topologies.push(await topologyOf(target, { kube, config, provider, logger }));
      process.stdout.write(graphs(targets, topologies));
      return topologies.filter((t) => t.error !== undefined).length > 0 ? 1 : 0;
    }
    for (const target of targets) {
      const head = {
        kind: target.kind ?? '',
        namespace: target.metadata.namespace ?? '',
        name: target.metadata.name ?? '',
      };
      // What the condition's message would add (the cluster weights and where they come from).
      const details: string[] = [];
      const ctx = {
        signal: AbortSignal.timeout(60_000),
        logger,
        resync: true,
        detail: (line: string) => details.push(line),
      };
      try {
        const { plan, warnings, accelerator } = await provider.plan(ctx, target);
        plans.push({
          ...head,
          operations: plan,
          ...(accelerator ? { accelerator } : {}),
          ...(warnings.length > 0 ? { warnings } : {}),
          ...(details.length > 0 ? { details } : {}),
        });
        if (!values.json) {
          console.log(`# ${head.kind} ${head.namespace}/${head.name}${groupNote(target)} against ${where}`);
          for (const line of details) console.log(line);
          for (const w of warnings) console.log(`warning (${w.reason}): ${w.message}`);
          for (const line of describePlan(plan, (o) => formatPlan([o])[0] ?? '')) console.log(line);
          if (accelerator) {
            // GA's API is global (us-west-2); dials going to 0 are applied before the ELBv2 plan.
            console.log('Global Accelerator:');
            for (const line of formatPlan(accelerator)) console.log(`  ${line}`);
          }
        }
      } catch (err) {
        failed++;
        plans.push({ ...head, error: errorMessage(err) });
        if (!values.json) {
          console.log(`# ${head.kind} ${head.namespace}/${head.name} against ${where}`);
          console.log(`plan failed: ${errorMessage(err)}`);
        }
      }
    }
    if (values.json) console.log(JSON.stringify(plans, null, 2));
  } finally {
    await gaSim?.close();
    await ec2Sim?.close();
    await sim?.close();
  }
  return failed > 0 ? 1 : 0;
}

/**
 * A configuration with `regions:`: each object's plan in every Region, under its Region (a Region
 * without clusters of the object plans the deletion of what it has there, or nothing). With
 * `--simulator`, an empty ELBv2 and EC2 simulator per Region.
 */
async function planRegions(
  config: AwsProviderConfig,
  kube: KubeClient,
  targets: readonly Target[],
  options: { simulator: boolean; json: boolean; graph: boolean; verbose: boolean },
): Promise<number> {
  const regions = config.regions ?? [];
  const sims = new Map<string, { elbv2: Elbv2Simulator; ec2: Ec2Simulator }>();
  let gaSim: Awaited<ReturnType<typeof startGaSimulator>> | undefined;
  let failed = 0;
  try {
    if (options.simulator) {
      for (const r of regions) {
        const elbv2 = await startElbv2Simulator({ region: r.region });
        sims.set(r.region, { elbv2, ec2: await startEc2Simulator({ elbv2 }) });
      }
      // And an empty Global Accelerator over them (objects that ask for one plan its creation).
      gaSim = await startGaSimulator({ endpoints: endpointsIn([...sims.values()].map((x) => x.elbv2)) });
    }
    const logger = options.verbose ? createLogger() : silentLogger;
    // No owner claim: a plan never creates anything, and the claim would.
    const provider = buildMultiRegionProvider(config, { kube, logger }, {}, (region, regional) => {
      const sim = sims.get(region);
      return sim
        ? {
            client: elbv2ClientFor(sim.elbv2),
            ec2: ec2ClientFor(sim.ec2),
            ...(gaSim ? { ga: gaClientFor(gaSim) } : {}),
          }
        : { client: createElbv2Client(regional) };
    });
    const where = (region: string) => {
      const endpoint = regions.find((r) => r.region === region)?.endpoint;
      return sims.has(region)
        ? `an empty ELBv2 simulator (${region})`
        : `${region}${endpoint ? ` (${endpoint})` : ''}`;
    };
    if (options.graph) {
      const topologies = [];
      for (const target of targets)
        topologies.push(await topologyOf(target, { kube, config, provider, logger }));
      process.stdout.write(graphs(targets, topologies));
      return topologies.filter((t) => t.error !== undefined).length > 0 ? 1 : 0;
    }
    const out: unknown[] = [];
    for (const target of targets) {
      const head = {
        kind: target.kind ?? '',
        namespace: target.metadata.namespace ?? '',
        name: target.metadata.name ?? '',
      };
      const details: string[] = [];
      const ctx = {
        signal: AbortSignal.timeout(60_000),
        logger,
        resync: true,
        detail: (line: string) => details.push(line),
      };
      const plans = await provider.plan(ctx, target);
      failed += plans.filter((p) => p.error !== undefined).length;
      out.push({
        ...head,
        regions: plans.map((p) =>
          p.result
            ? {
                region: p.region,
                operations: p.result.plan,
                ...(p.result.warnings.length > 0 ? { warnings: p.result.warnings } : {}),
              }
            : { region: p.region, error: p.error },
        ),
        ...(plans.accelerator ? { accelerator: plans.accelerator } : {}),
        ...(plans.warnings ? { warnings: plans.warnings } : {}),
        ...(details.length > 0 ? { details } : {}),
      });
      if (options.json) continue;
      for (const p of plans) {
        console.log(
          `# ${head.kind} ${head.namespace}/${head.name}${groupNote(target)} in ${p.region} against ${where(p.region)}`,
        );
        if (p.error !== undefined) {
          console.log(`plan failed: ${p.error}`);
          continue;
        }
        const { plan, warnings } = p.result!;
        for (const w of warnings) console.log(`warning (${w.reason}): ${w.message}`);
        if (plan.length === 0) console.log('(no change)');
        for (const line of describePlan(plan, (o) => formatPlan([o])[0] ?? '')) console.log(line);
      }
      for (const w of plans.warnings ?? []) console.log(`warning (${w.reason}): ${w.message}`);
      if (plans.accelerator) {
        // GA's API is global (us-west-2): one accelerator over every Region, after their deploys.
        console.log(`# ${head.kind} ${head.namespace}/${head.name}: Global Accelerator, after every Region`);
        for (const line of formatPlan(plans.accelerator)) console.log(line);
      }
      for (const line of details) console.log(line);
    }
    if (options.json) console.log(JSON.stringify(out, null, 2));
  } finally {
    await gaSim?.close();
    for (const sim of sims.values()) {
      await sim.ec2.close();
      await sim.elbv2.close();
    }
  }
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Bad arguments and unreadable files are the user's to fix: one line, no stack trace.
    console.error(err instanceof UsageError ? err.message : `plan failed: ${errorMessage(err)}`);
    process.exitCode = 2;
  },
);
