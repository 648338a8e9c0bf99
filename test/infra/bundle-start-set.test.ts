/**
 * What a function does not load at a cold start stays out of its start set: each function bundled
 * as `osls package` ships it (scripts/function-build.ts), its start set read from esbuild's
 * metafile exactly as the bundle benchmark reads it (bench/start-set.ts, the deployed start paths
 * of bench/bundles.ts). The code only a rarer path runs is a chunk of its own, shipped in the
 * function's `<name>.chunks/` folder and loaded at its first use; a module-level import that
 * pulled it back into the start set would fail here.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYED } from '../../bench/bundles.js';
import { startSet } from '../../bench/start-set.js';
import { functionBuildOptions } from '../../scripts/function-build.js';

const ROOT = resolve(import.meta.dirname, '../..');
const FUNCTIONS = ['sqs', 'invoke', 'http'] as const;

/** Loaded at first use (the module that loads it, and when). */
const LAZY = [
  // lib/providers/aws/lazy-parts.ts: a change, a drift check, a create, a deletion, the sweep.
  'lib/providers/aws/deploy/full-path.ts',
  'lib/providers/aws/deploy/discover.ts',
  'lib/providers/aws/deploy/plan.ts',
  'lib/providers/aws/deploy/deletion.ts',
  'lib/providers/aws/deploy/listener.ts',
  'lib/providers/aws/deploy/listener-rule.ts',
  'lib/providers/aws/deploy/load-balancer.ts',
  'lib/providers/aws/deploy/target-group.ts',
  'lib/providers/aws/deploy/security-group.ts',
  // lib/providers/aws/lazy-parts.ts: the first read of the VPC's network from EC2.
  'lib/providers/aws/ec2/vpc-reader.ts',
  // lib/providers/aws/lazy-parts.ts: the first stack with a web ACL or a Shield protection.
  'lib/providers/aws/edge/wafv2-client.ts',
  'lib/providers/aws/edge/shield-client.ts',
  // lib/providers/aws/lazy-parts.ts: the first stack whose HTTPS listeners discover certificates.
  'lib/providers/aws/edge/acm-client.ts',
  // lib/providers/aws/lazy-parts.ts: the first stack that has to call Global Accelerator.
  'lib/providers/aws/accelerator/ga-client.ts',
  // lib/providers/aws/lazy-parts.ts: the first stack with an accelerator intent, a deletion that
  // finds an accelerator record, the sweep over GA.
  'lib/providers/aws/accelerator/reconcile.ts',
  'lib/providers/aws/accelerator/plan.ts',
  // lib/providers/aws/lazy-parts.ts: the first stack with a managed security group.
  'lib/providers/aws/ec2/security-groups.ts',
  // lib/providers/aws/config.ts: a configured tenant policy; lib/providers/aws/provider.ts: the first model build.
  'lib/providers/aws/tenant-policy.ts',
  'lib/generated/tenant-policy-validator.js',
  // lib/providers/aws/model/annotations/unknown-keys.ts: the first warning about an ignored key.
  'lib/providers/aws/model/annotations/ignored-keys.ts',
  'lib/providers/aws/model/annotations/lbc-keys.ts',
  // lib/providers/aws/model/parts.ts: the first object with LBC's routing annotations.
  'lib/providers/aws/model/annotations/routing.ts',
  'lib/providers/aws/model/annotations/json-config.ts',
  // lib/providers/aws/lazy-parts.ts: the first MultiClusterIngress that is (or was) in an IngressGroup.
  'lib/providers/aws/ingress-groups-part.ts',
  'lib/providers/aws/ingress-groups.ts',
  'lib/providers/aws/model/ingress-group.ts',
  'lib/providers/aws/model/route-overlap.ts',
  'lib/providers/aws/ingress-group-admission.ts',
  'lib/providers/aws/ingress-group-record.ts',
  // lib/reconcile/lifecycle.ts: the first warning.
  'lib/reconcile/next-steps.ts',
  // lib/reconcile/run.ts: the first request of a controller other than the MCI's.
  'lib/reconcile/lazy-controllers.ts',
  'lib/reconcile/mcs.ts',
  'lib/reconcile/service-export.ts',
  'lib/reconcile/service-locations.ts',
  'lib/reconcile/crd-installation.ts',
  'lib/karmada/validate-mcs.ts',
  'lib/karmada/semantic-rules-mcs.ts',
  'lib/generated/mcs-validator.js',
  'lib/karmada/policies.ts',
];

/** functions/sqs.ts: the first batch with a failed record. */
const LAZY_IN_SQS = ['lib/runtime/sqs-retry.ts'];

const built = new Map<string, { meta: Metafile; dir: string }>();

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'bundle-start-set-'));
  for (const fn of FUNCTIONS) {
    const dir = join(out, fn);
    const result = await build({
      ...functionBuildOptions(),
      absWorkingDir: ROOT,
      entryPoints: [`functions/${fn}.ts`],
      outdir: dir,
      metafile: true,
      logLevel: 'silent',
    });
    built.set(fn, { meta: result.metafile, dir });
  }
}, 120_000);

describe.each(FUNCTIONS)('the %s function as it ships', (fn) => {
  const lazy = fn === 'sqs' ? [...LAZY, ...LAZY_IN_SQS] : LAZY;

  it('does not load at its start what only a rarer path runs', () => {
    const { meta } = built.get(fn)!;
    const start = startSet(meta, ROOT, `functions/${fn}.ts`, DEPLOYED[fn]!.lazy);
    // What the start path does need is there: the fast path of a reconcile, the MCI's controller.
    for (const needed of [
      'lib/providers/aws/deploy/deployer.ts',
      'lib/providers/aws/deploy/targets-only.ts',
      'lib/reconcile/mci.ts',
      'lib/generated/mci-validator.js',
    ]) {
      expect(start.inputs, needed).toContain(needed);
    }
    expect(lazy.filter((m) => start.inputs.has(m))).toEqual([]);
    // The EC2 client (about 1 MiB) comes with its chunk only, and so do its own dependencies; so
    // do the WAFv2 and Shield clients.
    expect(
      [...start.inputs].filter((m) =>
        /@aws-sdk\/(client-ec2|middleware-sdk-ec2|client-wafv2|client-shield|client-acm)\//.test(m),
      ),
    ).toEqual([]);
  });

  it('ships each of them in a chunk of its own folder', () => {
    const { meta, dir } = built.get(fn)!;
    const chunks = new Set(readdirSync(join(dir, `${fn}.chunks`)));
    for (const module of lazy) {
      const holders = Object.entries(meta.outputs).filter(([, o]) => module in o.inputs);
      expect(holders.length, module).toBe(1);
      const [file] = holders[0]!;
      expect(basename(resolve(ROOT, file)), module).toMatch(/\.js$/);
      expect(chunks, module).toContain(basename(file));
    }
    // The EC2 client is in the function's package, outside its start set (above).
    const ec2 = Object.values(meta.outputs).filter((o) =>
      Object.keys(o.inputs).some((i) => i.includes('@aws-sdk/client-ec2/')),
    );
    expect(ec2.length).toBeGreaterThan(0);
  });
});
