/**
 * One chaos run: the Kubernetes API stand-in, two Regions' ELBv2 and EC2 simulators (regions.ts),
 * the HTTP function with the multi-Region AWS provider, and the forwarder between them, all real;
 * a seeded workload while every fault is on; then quiesce, one resync, one orphan sweep, and the
 * invariant check in every Region.
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointsIn, startGaSimulator } from '../../dev/ga-sim/index.js';
import { startKubeApiServer } from '../../dev/kube-apiserver/index.js';
import { seed as seedObjects } from '../../dev/local/pipeline.js';
import type { Cluster } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import { HttpSink } from '../../lib/forwarder/sinks/http.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import { silentLogger } from '../../lib/log/logger.js';
import { enqueueResync } from '../../lib/maintenance/resync.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { createAwsProvider } from '../../lib/providers/aws/index.js';
import { configuredRegions, parseAwsConfig, regionalConfig } from '../../lib/providers/aws/config.js';
import { resolveClusterRegions } from '../../lib/providers/aws/regions/cluster-regions.js';
import { RETIRING_TAG } from '../../lib/providers/aws/accelerator/plan.js';
import { startFunctionHost } from './function-host.js';
import { installProfiler, summarize } from './profiler.js';
import { checkRegions } from './invariants.js';
import { regionsConfigText, startRegions } from './regions.js';
import { CountingSink, FaultySink } from './notification-faults.js';
import { NOTIFICATION_SOURCE, startNotificationSource, type SourceKind } from './notification-source.js';
import { driftByHand, revokeSecurityGroupRuleByHand } from './hand-drift.js';
import { Rng } from './prng.js';
import type { ChaosProfile } from './profile.js';
import type { ChaosFigures } from './report.js';
import { NAMED_SECURITY_GROUP, Workload, type Op } from './workload.js';
import type { Finding } from './invariants.js';
import { OUR_CONTROLLER, worldObjects } from './world.js';

export interface ChaosOptions {
  seed: number;
  profile: ChaosProfile;
  source?: SourceKind;
  /** LOG_LEVEL of the function (default SILENT: the figures are the output). */
  logLevel?: string;
  /** Progress lines. */
  progress?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long a Global Accelerator change deploys (AWS: minutes; long enough to be waited for). */
const GA_DEPLOY_MS = 30;
/** Sweep passes at most: GA's deletion of an orphan's accelerator takes four. */
const SWEEP_PASSES = 8;

export async function runChaos(options: ChaosOptions): Promise<ChaosFigures> {
  const { seed, profile } = options;
  const started = Date.now();
  const progress = options.progress ?? (() => undefined);
  const dir = await mkdtemp(join(tmpdir(), `chaos-${seed}-`));
  const api = await startKubeApiServer({ bookmarkIntervalMs: 1000 });
  // After every call that can change what a forward names: no rule or listener may forward to a
  // target group that does not exist (an invariant of every moment, not only of the end state).
  const dangling: string[] = [];
  // Two Regions (world.ts: member1 in the first, member2 and member3 in the second), each with
  // its ELBv2, EC2, WAFv2, Shield and ACM simulators.
  const regions = await startRegions(seed, dangling);
  // Global Accelerator in front of the objects that ask for it (workload.ts decides which): its
  // endpoints must be load balancers one Region's ELBv2 has; each change deploys for
  // GA_DEPLOY_MS, and an accelerator is deleted only once disabled and deployed, so deletions take
  // several reconciles.
  const ga = await startGaSimulator({
    seed,
    deployMs: GA_DEPLOY_MS,
    endpoints: endpointsIn(regions.map((r) => r.sim)),
  });
  const cleanup: Array<() => Promise<unknown> | unknown> = [
    ...regions.map((r) => () => r.close()),
    () => ga.close(),
    () => api.close(),
  ];
  try {
    const kubeconfigPath = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
    const cloudConfigPath = join(dir, 'aws.json');
    // No securityGroups: stacks that name none get managed ones (workload.ts decides which).
    const configText = regionsConfigText(regions, {
      ownerId: 'chaos',
      maxAttempts: 3,
      // GA here deploys in GA_DEPLOY_MS, not minutes: a reconcile waiting on it looks again as soon.
      globalAccelerator: { endpoint: ga.url, pollSeconds: (2 * GA_DEPLOY_MS) / 1000 },
      // What the workload annotates (workload.ts): the VPC's default group or a managed one, and
      // an accelerator in front of some stacks.
      tenantPolicy: {
        rules: [
          {
            name: 'chaos-workload',
            securityGroups: [NAMED_SECURITY_GROUP, 'managed'],
            globalAccelerator: true,
          },
        ],
      },
    });
    writeFileSync(cloudConfigPath, configText);
    const kubeConfig = loadKubeConfig({ file: kubeconfigPath });
    const kube = createKubeClient(kubeConfig);

    // Before the function host: its ELBv2 kill switch wraps the SDK's send as it finds it.
    const profiler = installProfiler(Number(new URL(api.url).port));
    cleanup.push(() => profiler.uninstall());
    const fn = await startFunctionHost(
      {
        kubeconfigPath,
        cloudConfigPath,
        providerIngressClass: OUR_CONTROLLER,
        logLevel: options.logLevel ?? 'SILENT',
        region: regions[0]!.region,
      },
      Rng.derive(seed, 'kills'),
      { probability: profile.faults.kill, afterMax: profile.faults.killAfterMax },
      profiler,
    );
    cleanup.unshift(() => fn.close());

    await seedObjects(kube, worldObjects(Rng.derive(seed, 'world'), profile.services));

    const f = profile.faults;
    for (const [i, { sim, edge, ec2 }] of regions.entries()) {
      sim.faults.reseed(seed + 1000 * i);
      sim.faults.set(f.elbv2);
      edge.wafv2.faults.reseed(seed + 1000 * i);
      edge.wafv2.faults.set(f.elbv2);
      ec2.faults.reseed(seed + 1000 * i);
      ec2.faults.set(f.ec2);
    }
    ga.faults.reseed(seed);
    ga.faults.set(f.ga);
    // Whatever the dice say, the first accelerator's create meets a 500 and its first endpoint
    // group's answer is lost after the commit (the SDK's retry, with the same idempotency token,
    // must get that same group): a run with few GA calls still meets GA's faults.
    ga.faults.failNext('CreateAccelerator', 1, { code: 'InternalServiceErrorException', status: 500 });
    ga.faults.failNext('CreateEndpointGroup', 1, { dropAfterCommit: true });
    api.injectConflicts({ probability: f.kubeConflict, seed });
    const counting = new CountingSink(new HttpSink({ url: fn.url, timeoutMs: 60_000, maxBatch: 10 }));
    const faulty = new FaultySink(counting, Rng.derive(seed, 'notifications'), f.notification);
    const source = startNotificationSource(kubeConfig, faulty, options.source ?? NOTIFICATION_SOURCE);
    cleanup.unshift(() => source.stop());

    const workload = new Workload(Rng.derive(seed, 'workload'), kube, {
      ingresses: profile.ingresses,
      services: profile.services,
      recreateWaitMs: profile.recreateWaitMs,
    });
    const phases: Record<string, number> = {};
    let mark = Date.now();
    const phase = (name: string, next?: string) => {
      phases[name] = Date.now() - mark;
      mark = Date.now();
      if (next) profiler.phase(next);
    };
    phase('setup', 'workload');
    const gaps = Rng.derive(seed, 'gaps');
    const slow: Array<{ op: string; ms: number }> = [];
    for (let i = 0; i < profile.operations; i++) {
      const t0 = Date.now();
      const op = await workload.step();
      // CHAOS_TRACE=mci/mci-034 prints each operation on that object as it is applied.
      if (process.env.CHAOS_TRACE === op.target)
        progress(`${new Date().toISOString()} #${op.n} ${op.kind} ${op.target} ${op.detail ?? ''}`);
      if (Date.now() - t0 > 1000) slow.push({ op: `${op.kind} ${op.target}`, ms: Date.now() - t0 });
      const gap = gaps.int(profile.opGapMs[0], profile.opGapMs[1]);
      if (gap) await sleep(gap);
      if ((i + 1) % 100 === 0) progress(`seed ${seed}: ${i + 1}/${profile.operations} operations`);
    }

    phase('workload', 'quiesce');
    if (slow.length)
      progress(`seed ${seed}: slow operations ${slow.map((s) => `${s.op} ${s.ms}ms`).join(', ')}`);
    // Quiesce: no new faults; what is in flight (held, failed, redelivered) is let through.
    faulty.calm();
    fn.calm();
    const elbv2Faults = faultsOf(...regions.map((r) => r.sim.calls.all()));
    const wafv2Faults = faultsOf(...regions.map((r) => r.edge.wafv2.calls.all()));
    const ec2Faults = faultsOf(...regions.map((r) => r.ec2.calls.all()));
    const gaFaults = faultsOf(ga.calls.all());
    ga.faults.clear();
    for (const { sim, edge, ec2 } of regions) {
      sim.faults.clear();
      edge.wafv2.faults.clear();
      ec2.faults.clear();
    }
    const kubeConflicts = api.injectedConflicts;
    api.injectConflicts(null);
    const idle = () => source.pending() + faulty.pending + counting.inFlight + fn.inFlight === 0;
    const drain = async (): Promise<boolean> => {
      const deadline = Date.now() + profile.quiesceTimeoutMs;
      let quietSince = Date.now();
      while (Date.now() < deadline) {
        if (!idle()) quietSince = Date.now();
        else if (Date.now() - quietSince >= 400) return true;
        await sleep(25);
      }
      return false;
    };
    let drained = await drain();
    phase('quiesce', 'resync');
    progress(`seed ${seed}: quiesced (drained ${drained})`);

    // Console edits only the deep check sees; the resync below must repair them.
    // What the invariants see of it before anything repairs it: the edits are real divergences.
    // Counted as findings that were not there before them (a stack may already differ: a lost
    // notification the resync below also repairs).
    const config = await parseAwsConfig(configText);
    const check = async (servesMcs: boolean) =>
      checkRegions({
        kube,
        servesMcs,
        present: workload.expectation().present,
        // Each cluster's Region as the provider reads it (its Cluster's spec.region).
        clusterRegions: resolveClusterRegions(
          (await kube.list<Cluster>(Resources.Cluster)).items,
          config.clusterRegions,
          configuredRegions(config).map((r) => r.region),
        ),
        accelerators: ga.snapshot(),
        regions: configuredRegions(config).map((r, i) => {
          const { sim, edge, ec2 } = regions[i]!;
          return {
            region: r.region,
            snapshot: sim.snapshot(),
            config: regionalConfig(config, r),
            webAcls: {
              of: (arn: string) => edge.wafv2.state.aclOf(arn),
              byName: new Map([...edge.wafv2.state.webAcls.values()].map((a) => [a.Name, a.ARN])),
            },
            securityGroups: ec2.state.securityGroups.all(),
          };
        }),
      });
    const divergences = async () =>
      new Set(
        (await check(true)).findings
          .filter((f) => f.kind === 'diverged')
          .map((f) => `${f.subject} ${f.detail}`),
      );
    const before = await divergences();
    // In every Region: a target deregistered, a rule deleted, a health check changed by hand.
    const handDrift: string[] = regions.flatMap(({ region, sim }) =>
      driftByHand(sim, Rng.derive(seed, `hand-drift-${region}`)).map((e) => `${region} ${e.kind}`),
    );
    // A web ACL disassociated in the console (of any Region): only the deep check sees it.
    const associated = regions.flatMap(({ edge }) =>
      [...edge.wafv2.state.associations.keys()]
        .filter((arn) => edge.wafv2.state.aclOf(arn))
        .map((arn) => ({ arn, waf: edge.wafv2.state })),
    );
    const unhooked =
      associated[Rng.derive(seed, 'hand-drift-waf').int(0, Math.max(0, associated.length - 1))];
    if (unhooked) {
      unhooked.waf.associations.delete(unhooked.arn);
      handDrift.push('disassociate-web-acl');
    }
    // A managed group's inbound rule revoked in the console (in the first Region that has one).
    const sgRng = Rng.derive(seed, 'hand-drift-sg');
    if (regions.some(({ ec2 }) => revokeSecurityGroupRuleByHand(ec2.state.securityGroups, sgRng)))
      handDrift.push('revoke-security-group-rule');
    const driftSeen = [...(await divergences())].filter((f) => !before.has(f)).length;

    // The full resync, handed to the queue as the deployment's goes to SQS: accepted there, then
    // delivered (and redelivered, and waited for) by the same pipeline as every other change.
    const resyncSeen = counting.byChange('resync');
    const resync = await enqueueResync(
      kube,
      {
        send: async (batch) => {
          source.enqueue(batch);
          return { failed: [] };
        },
      },
      silentLogger,
    );
    drained = (await drain()) && drained;
    phase('resync', 'sweep');

    const provider = await createAwsProvider(configText, { kube, logger: silentLogger });
    const sweepOnce = () =>
      sweepOrphans(kube, provider, {
        graceSeconds: 0,
        signal: new AbortController().signal,
        logger: silentLogger,
      });
    const sweep = await sweepOnce();
    // An orphan's security group still held by its deleted load balancer's interfaces is a
    // retry-later: the scheduled sweep's next run deletes it, as this one's next pass does. So is
    // an orphan's accelerator, and one being retired: each pass takes one step of GA's deletion
    // (disable, wait until DEPLOYED, delete its listeners, wait, delete it).
    const retiring = () => ga.snapshot().some((a) => a.Tags[RETIRING_TAG] !== undefined);
    for (let pass = 1; pass < SWEEP_PASSES && (sweep.errors.length > 0 || retiring()); pass++) {
      await sleep(GA_DEPLOY_MS);
      const again = await sweepOnce();
      sweep.deleted.push(...again.deleted.filter((d) => !sweep.deleted.includes(d)));
      sweep.errors = again.errors;
    }
    drained = (await drain()) && drained;
    phase('sweep');

    const invariants = await check(provider.mcsLoadBalancer() !== undefined);
    for (const detail of dangling) {
      invariants.findings.push({ kind: 'dangling', subject: 'elbv2', detail });
      invariants.dangling++;
    }
    return {
      seed,
      profile: profile.name,
      source: source.kind,
      durationMs: Date.now() - started,
      phasesMs: phases,
      operations: workload.stats.operations,
      operationsByKind: workload.stats.byKind,
      objects: { ingresses: profile.ingresses, services: profile.services },
      faults: {
        elbv2: elbv2Faults,
        wafv2: wafv2Faults,
        ec2: ec2Faults,
        ga: gaFaults,
        kubeConflicts,
        notifications: { ...faulty.counts },
        kills: fn.elbv2.kills,
      },
      retries: {
        sdk: fn.elbv2.sdkRetries,
        redeliveries: counting.redelivered,
        failedInvocations: fn.failedInvocations,
        waitingInvocations: fn.waitingInvocations,
        waited: counting.waiting,
        invocations: fn.invocations,
        workloadConflicts: workload.stats.conflictRetries,
        recreateTimeouts: workload.stats.recreateTimeouts,
      },
      elbv2Calls: sum(regions.map((r) => r.sim.calls.total())),
      elbv2CallsByRegion: Object.fromEntries(regions.map((r) => [r.region, r.sim.calls.total()])),
      ec2Calls: sum(regions.map((r) => r.ec2.calls.total())),
      gaCalls: ga.calls.total(),
      acceleratorsDeleted: ga.calls.get('DeleteAccelerator').ok,
      securityGroupsHeld: sum(
        regions.map((r) => r.ec2.calls.get('DeleteSecurityGroup').errorCodes['DependencyViolation'] ?? 0),
      ),
      resync: {
        sent: resync.sent,
        failed: resync.failed,
        ...counting.byChange('resync', resyncSeen),
      },
      handDrift,
      handDriftDiverged: driftSeen,
      sweep: { owned: sweep.owned, deleted: sweep.deleted, errors: sweep.errors.length },
      drained,
      invariants,
      history: historyOf(invariants.findings, workload.log),
      timeProfile: [...summarize(profiler.invocations, profiler.kubePaths), fn.waits()],
    };
  } finally {
    for (const c of cleanup) await Promise.resolve(c()).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** `mci/default/x` → the workload's operations on `mci/x`, numbered. */
function historyOf(findings: Finding[], log: readonly Op[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of findings) {
    const m = /^(mci|mcs)\/[^/]+\/(.+)$/.exec(f.subject);
    if (!m) continue;
    const target = `${m[1]}/${m[2]}`;
    out[f.subject] = log
      .filter((op) => op.target === target)
      .map((op) => `#${op.n} ${op.kind}${op.detail ? ` (${op.detail})` : ''}`);
  }
  return out;
}

/** Injected faults by kind, over one or more simulators' counters. */
function faultsOf(...all: Array<Record<string, { faults: Record<string, number> }>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of all.flatMap((a) => Object.values(a)))
    for (const [kind, n] of Object.entries(c.faults)) out[kind] = (out[kind] ?? 0) + n;
  return out;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
