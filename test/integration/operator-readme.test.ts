/**
 * What the README has an operator apply and type, run for real: the shipped IngressClass manifests
 * (each makes the provider with that controller serve a MultiClusterIngress of its class), and the
 * `kubectl … -o jsonpath` lines of "When a load balancer is not ready" against the API stand-in.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cluster, minimalIngress, serveMultiClusterService, serveService } from '../../dev/local/scenario.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { notify, startHarness, type Harness } from '../support/harness.js';
import { commands, readmeSection } from '../support/readme.js';

const ROOT = resolve(import.meta.dirname, '../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const manifest = (file: string) =>
  parse(readFileSync(join(ROOT, 'infra/ingressclass', file), 'utf8')) as KubeObject & {
    spec: { controller: string };
  };

function withClass(name: string, className?: string): KubeObject {
  const mci = minimalIngress(name) as KubeObject & { spec: Record<string, unknown> };
  return {
    ...mci,
    spec: { ...mci.spec, ...(className ? { ingressClassName: className } : {}) },
  } as KubeObject;
}

describe('IngressClass manifests (infra/ingressclass)', () => {
  it('the walkthrough applies aws.yaml, whose controller is its providerIngressClass', () => {
    const deploy = readmeSection('Deploy to AWS');
    expect(deploy).toContain('apply -f infra/ingressclass/aws.yaml');
    expect(deploy).toContain(`--param="providerIngressClass=${manifest('aws.yaml').spec.controller}"`);
  });

  it.each(['aws.yaml', 'fake.yaml'])(
    '%s: the provider with its controller serves MultiClusterIngresses of that class, no other',
    async (file) => {
      const ingressClass = manifest(file);
      h = await startHarness({
        controllers: ['multiclusteringress'],
        runtime: { providerIngressClass: ingressClass.spec.controller },
      });
      const other = {
        ...ingressClass,
        metadata: { name: 'someone-else' },
        spec: { controller: 'example.com/lb' },
      };
      const ours = withClass('ours', ingressClass.metadata.name);
      const theirs = withClass('theirs', 'someone-else');
      await h.seed([ingressClass, other as KubeObject, cluster('member1'), serveService(), ours, theirs]);
      const results = await h.deliver(notify(ours, 'added'), notify(theirs, 'added'));
      expect(results.map((r) => r.results.map((x) => x.outcome))).toEqual([['created'], ['ignored']]);
    },
  );

  it('fake.yaml is the default class: a MultiClusterIngress without ingressClassName is served', async () => {
    const ingressClass = manifest('fake.yaml');
    h = await startHarness({
      controllers: ['multiclusteringress'],
      runtime: { providerIngressClass: ingressClass.spec.controller },
    });
    const mci = withClass('no-class');
    await h.seed([ingressClass, cluster('member1'), serveService(), mci]);
    const [result] = await h.deliver(notify(mci, 'added'));
    expect(result?.results.map((x) => x.outcome)).toEqual(['created']);
  });
});

describe.skipIf(!hasKubectl)('"When a load balancer is not ready", with kubectl', () => {
  it('the README`s kubectl lines read the MCI annotation condition, the MCS condition and the Warning Events', async () => {
    h = await startHarness({ controllers: ['multiclusteringress', 'multiclusterservice'] });
    const fakeClass = manifest('fake.yaml');
    const bad = {
      ...minimalIngress(),
      spec: { rules: [{ http: { paths: [{ path: '/x', pathType: 'Prefix', backend: {} }] } }] },
    } as KubeObject;
    await h.seed([fakeClass, cluster('member1'), serveService(), bad, serveMultiClusterService()]);
    await h.deliver(notify(bad, 'added'), notify(serveMultiClusterService(), 'added'));

    const lines = commands(readmeSection('When a load balancer is not ready'), 'kubectl ');
    expect(lines).toHaveLength(3);
    // Each line as the shell runs it, pointed at the API stand-in instead of the Karmada context.
    const kubectl = async (line: string) => {
      expect(line).toContain('--context karmada-apiserver');
      const target = `--kubeconfig ${h!.kubeconfigPath} --cache-dir ${join(h!.dir, 'kube-cache')}`;
      return (await run('bash', ['-c', line.replace('--context karmada-apiserver', target)])).stdout;
    };
    const [mciLine, mcsLine, eventsLine] = lines as [string, string, string];

    const mciCondition = JSON.parse(await kubectl(mciLine));
    expect(mciCondition).toMatchObject({ type: 'LoadBalancerReady', status: 'False', reason: 'InvalidSpec' });
    expect(mciCondition.message).toMatch(/\. Next: fix the field named above/);

    const mcsCondition = JSON.parse(await kubectl(mcsLine));
    expect(mcsCondition).toMatchObject({ type: 'LoadBalancerReady', status: 'True' });

    const events = await kubectl(eventsLine);
    const [header, ...rows] = events.trim().split('\n');
    expect(header).toMatch(/^REASON\s+MESSAGE$/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(
      /^InvalidSpec\s+invalid MultiClusterIngress: .*\. Next: fix the field named above/,
    );
  });
});
