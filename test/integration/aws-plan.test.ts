/**
 * Change plans (dry runs): the plan computed for create, update and delete is exactly what apply
 * then does — compared with the mutating calls the simulator recorded — and `dryRun: true` makes
 * no mutating call at all.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { plannedActions, type Operation } from '../../lib/providers/aws/index.js';
import { collectedSlice, minimalIngress, path, service } from '../fixtures/aws/objects.js';
import { CERT_A, CERT_B, mcs, startAwsEnv, type AwsEnv } from './aws-env.js';

let env: AwsEnv | undefined;
afterEach(async () => {
  await env?.close();
  env = undefined;
});

const objects = () => [
  service('serve', [
    { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' as const },
    { name: 'admin', port: 8081, targetPort: 9090, protocol: 'TCP' as const },
  ]),
  collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11'] }),
  collectedSlice('member2', 'serve', { addresses: ['172.20.0.20'] }),
];

const withPaths = (paths: ReturnType<typeof path>[], annotations?: Record<string, string>) =>
  minimalIngress({
    metadata: {
      name: 'minimal-ingress',
      namespace: 'default',
      uid: 'mci-uid-1',
      ...(annotations ? { annotations } : {}),
    },
    spec: { rules: [{ http: { paths } }] },
  });

/** Plans (dry run), then applies, and checks the simulator saw exactly the planned mutating calls. */
async function planThenApply(
  e: AwsEnv,
  run: (dryRun: boolean) => Promise<Operation[]>,
): Promise<Operation[]> {
  e.sim.calls.reset();
  const plan = await run(true);
  expect(e.mutatingCalls()).toStrictEqual([]);
  e.sim.calls.reset();
  await run(false);
  expect(e.mutatingCalls()).toStrictEqual(plannedActions(plan));
  return plan;
}

describe('AWS provider: change plans', () => {
  it('ALB: the dry-run plan for create, update and delete is what apply does', async () => {
    const e = (env = await startAwsEnv(objects()));
    const impl = e.provider.ingress;
    const reconcile = (mci: ReturnType<typeof withPaths>) => async (dryRun: boolean) => {
      if (dryRun) return (await impl.plan(e.ctx, mci)).plan;
      await impl.update(e.ctx, mci);
      return [];
    };
    const create = withPaths([path('/testpath', 'Prefix', 'serve', 80)]);
    const created = await planThenApply(e, reconcile(create));
    expect(created.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'create TargetGroup',
      'modify Targets',
      'create LoadBalancer',
      'create Listener',
      'create ListenerRule',
      'modify LoadBalancer',
    ]);
    expect(e.state()).toStrictEqual(await e.expectedForMci(create));

    // Update: a path in front, a backend port changed (target group replaced), HTTPS added.
    const update = withPaths(
      [path('/testpath/deeper', 'Prefix', 'serve', 80), path('/testpath', 'Prefix', 'serve', 'admin')],
      {
        'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80},{"HTTPS":443}]',
        'alb.ingress.kubernetes.io/certificate-arn': `${CERT_A},${CERT_B}`,
      },
    );
    const updated = await planThenApply(e, reconcile(update));
    expect(updated.map((o) => o.op)).toContain('create');
    expect(plannedActions(updated)).toEqual(
      expect.arrayContaining([
        'CreateTargetGroup',
        'CreateListener',
        'AddListenerCertificates',
        'ModifyRule',
        'CreateRule',
      ]),
    );
    expect(e.state()).toStrictEqual(await e.expectedForMci(update));

    // Delete.
    const deleted = await planThenApply(e, (dryRun) =>
      dryRun ? impl.planDeletion(e.ctx, update) : impl.ensureDeleted(e.ctx, update).then(() => []),
    );
    expect(deleted.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'delete LoadBalancer',
      'delete TargetGroup',
      'delete TargetGroup',
    ]);
    expect(e.sim.snapshot().loadBalancers).toStrictEqual([]);
    expect(e.sim.snapshot().targetGroups).toStrictEqual([]);
  });

  it('NLB: the dry-run plan for create, ports changed and delete is what apply does', async () => {
    const e = (env = await startAwsEnv(objects()));
    const impl = e.provider.service;
    const reconcile = (m: ReturnType<typeof mcs>) => async (dryRun: boolean) => {
      if (dryRun) return (await impl.plan(e.ctx, m)).plan;
      await impl.update(e.ctx, m);
      return [];
    };
    await planThenApply(e, reconcile(mcs('serve', { ports: [{ port: 80 }] })));
    const changed = mcs('serve', { ports: [{ port: 8081 }] });
    const plan = await planThenApply(e, reconcile(changed));
    expect(plan.map((o) => `${o.op} ${o.resource}`)).toStrictEqual([
      'modify LoadBalancer',
      'create TargetGroup',
      'modify Targets',
      // Make before break: the old port stops once the new one serves.
      'create Listener',
      'delete Listener',
      'delete TargetGroup',
      'modify LoadBalancer',
    ]);
    expect(e.state()).toStrictEqual(await e.expectedForMcs(changed));
    await planThenApply(e, (dryRun) =>
      dryRun ? impl.planDeletion(e.ctx, changed) : impl.ensureDeleted(e.ctx, changed).then(() => []),
    );
    expect(e.sim.snapshot().loadBalancers).toStrictEqual([]);
  });

  it('config dryRun: true logs the plan and makes no mutating call', async () => {
    const e = (env = await startAwsEnv(objects(), { config: { dryRun: true } }));
    const mci = withPaths([path('/testpath', 'Prefix', 'serve', 80)]);
    e.sim.calls.reset();
    expect(await e.provider.loadBalancer().ensure(e.ctx, mci)).toBeUndefined();
    await e.provider.mcsLoadBalancer().ensure(e.ctx, mcs('serve'));
    await e.provider.loadBalancer().ensureDeleted(e.ctx, mci);
    expect(e.mutatingCalls()).toStrictEqual([]);
    expect(e.sim.snapshot().loadBalancers).toStrictEqual([]);
    const logged = e.logger.lines.filter((l) => l.message.startsWith('change plan (dry run'));
    expect(logged).toHaveLength(2);
    expect(logged[0]?.fields.operations).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\+ create LoadBalancer/)]),
    );
  });

  it('npm run plan with a regions configuration shows each Region’s stack under its Region', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const out = execFileSync(
      'npx',
      [
        'tsx',
        'scripts/plan.ts',
        'test/fixtures/aws/plan-regions.yaml',
        '--config',
        'test/fixtures/aws/plan-regions-config.yaml',
        '--simulator',
        '--json',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      },
    );
    const [entry, ...more] = JSON.parse(out) as Array<{
      name: string;
      regions: Array<{ region: string; operations: Operation[] }>;
    }>;
    expect(more).toStrictEqual([]);
    expect(entry!.regions.map((r) => r.region)).toStrictEqual(['us-east-1', 'eu-west-1']);
    // Each Region's NLB with its own scheme and only its own cluster's endpoint.
    const registered = entry!.regions.map((r) =>
      r.operations
        .flatMap((o) => o.calls)
        .filter((c) => c.action === 'RegisterTargets')
        .flatMap((c) => (c.input as { Targets: Array<{ Id: string }> }).Targets.map((t) => t.Id)),
    );
    expect(registered).toStrictEqual([['10.0.128.10'], ['10.0.144.20']]);
    const schemes = entry!.regions.map(
      (r) =>
        r.operations.flatMap((o) => o.calls).find((c) => c.action === 'CreateLoadBalancer')?.input as {
          Scheme: string;
        },
    );
    expect(schemes.map((s) => s.Scheme)).toStrictEqual(['internal', 'internet-facing']);
  }, 60_000);

  it('npm run plan --graph over Regions draws each Region’s NLB and the accelerator in front with its dials', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    // The same two Regions, with Global Accelerator on by default.
    const config = join(mkdtempSync(join(tmpdir(), 'plan-graph-regions-')), 'cloud.yaml');
    writeFileSync(
      config,
      `${readFileSync(join(root, 'test/fixtures/aws/plan-regions-config.yaml'), 'utf8')}globalAccelerator: { enabled: true }\n`,
    );
    const out = execFileSync(
      'npx',
      [
        'tsx',
        'scripts/plan.ts',
        'test/fixtures/aws/plan-regions.yaml',
        '--config',
        config,
        '--simulator',
        '--graph',
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      },
    );
    expect(out.startsWith('flowchart LR\n  n1["MultiClusterService<br/>default/serve"]\n')).toBe(true);
    expect(out).toMatch(
      /^ {2}n2\["Global Accelerator<br\/>mcp-plan-preview-mcs-default-serve-[0-9a-f]{8}<br\/>TCP:80<br\/>\(create pending\)"\]:::pending$/m,
    );
    // Each Region its own subgraph, NLB and only its own cluster's target; the dial on the edge.
    const regions = [...out.matchAll(/^ {2}subgraph (n\d+)\["Region ([a-z0-9-]+)"\]$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(regions.map((r) => r[1])).toStrictEqual(['us-east-1', 'eu-west-1']);
    for (const [node] of regions) expect(out).toContain(`n2 -->|"dial 100% (create pending)"| ${node}`);
    const east = out.slice(out.indexOf('"Region us-east-1"'), out.indexOf('"Region eu-west-1"'));
    const west = out.slice(out.indexOf('"Region eu-west-1"'));
    expect(east).toContain('["10.0.128.10:8080');
    expect(east).not.toContain('10.0.144.20');
    expect(west).toContain('["10.0.144.20:8080');
    expect(west).not.toContain('10.0.128.10');
    expect(out.match(/\["NLB k8s-default-serve-/g)).toHaveLength(2);
  }, 60_000);

  it('npm run plan -- <file> --simulator prints the plan of a first deploy', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const out = execFileSync(
      'npx',
      ['tsx', 'scripts/plan.ts', 'test/fixtures/aws/plan-mcs.yaml', '--simulator', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      },
    );
    const [entry, ...more] = JSON.parse(out) as Array<{
      kind: string;
      name: string;
      operations: Operation[];
    }>;
    expect(more).toStrictEqual([]);
    expect(entry).toMatchObject({ kind: 'MultiClusterService', namespace: 'default', name: 'serve' });
    const plan = entry!.operations;
    // The simulators' configuration names no security groups: the NLB gets a managed one first.
    expect(plan.map((o) => `${o.op} ${o.resource} ${o.id}`)).toStrictEqual([
      'create SecurityGroup ManagedLBSecurityGroup',
      'create TargetGroup default/serve:80',
      'modify Targets default/serve:80',
      'create LoadBalancer LoadBalancer',
      'create Listener 80',
      'modify LoadBalancer LoadBalancer',
    ]);
    expect(plan[3]?.calls[0]).toMatchObject({
      action: 'CreateLoadBalancer',
      input: { Type: 'network', Scheme: 'internet-facing' },
    });
  }, 60_000);
});
