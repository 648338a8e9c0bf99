/**
 * `npm start` as a newcomer runs it: a fresh state directory, no AWS account, no network. The test
 * waits for the narrated status, applies a change with real kubectl, sees the new status, and
 * stops the process with Ctrl-C (SIGINT).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import {
  DescribeLoadBalancersCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { npmStart } from './npm-start.support.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

const hasAwsCli = spawnSync('aws', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasKubectl)('npm start', () => {
  it('runs the upstream scenario, reacts to kubectl, and stops on Ctrl-C', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const app = npmStart(state, ['--fresh']);
    try {
      await app.wait(/mci default\/minimal-ingress: status\.loadBalancer = 1\.2\.3\.[45]/);
      await app.wait(/mcs default\/serve: status\.loadBalancer = 1\.2\.3\.[45]/, 30_000);
      expect(app.output()).toMatch(/finalizer karmada\.io\/multi-cluster-ingress-controller added/);
      expect(app.output()).toMatch(/EnsuredLoadBalancer: Created load balancer: 1\.2\.3\.4/);
      const kubectl = app.kubectl;

      // a change applied with kubectl: a new MultiClusterIngress gets a load balancer
      const file = join(state, 'second.yaml');
      writeFileSync(
        file,
        [
          'apiVersion: networking.karmada.io/v1alpha1',
          'kind: MultiClusterIngress',
          'metadata:',
          '  name: second-ingress',
          'spec:',
          '  rules:',
          '  - http:',
          '      paths:',
          '      - path: /second',
          '        pathType: Prefix',
          '        backend:',
          '          service:',
          '            name: serve',
          '            port:',
          '              number: 80',
          '',
        ].join('\n'),
      );
      await kubectl('apply', '-f', file);
      await app.wait(/mci default\/second-ingress: status\.loadBalancer = 1\.2\.3\.4/, 30_000);
      const { stdout } = await kubectl(
        'get',
        'mci',
        'second-ingress',
        '-o',
        'jsonpath={.status.loadBalancer.ingress[0].ip}',
      );
      expect(stdout).toMatch(/^1\.2\.3\.[45]$/);

      // and deleting it removes the load balancer, then the finalizer, then the object
      await kubectl('delete', 'mci', 'second-ingress', '--wait=false');
      await app.wait(/mci default\/second-ingress: deleted from the API server/, 30_000);
    } finally {
      await app.stop();
    }
    const out = app.output();
    expect(out).toMatch(/stopping\.\.\./);
    // the API server is gone: nothing is left running
    const url = out.match(/API server:\s+(\S+)/)![1]!;
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  }, 120_000);

  it('--provider aws: tells plans, keeps the simulator across a restart, and says what a switch keeps', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-aws-'));
    const port = await freePort();
    const first = npmStart(state, ['--fresh', '--provider', 'aws', '--elbv2-port', String(port)]);
    let dns: string;
    try {
      dns = (await first.wait(/mci default\/minimal-ingress: status\.loadBalancer = (internal-\S+)/))[1]!;
      const out = first.output();
      expect(out).toMatch(
        /mci default\/minimal-ingress: plan \(5 changes\):\n.* {4}\+ create TargetGroup default\/minimal-ingress-serve:80: /,
      );
      expect(out).toMatch(/ {4}\+ create LoadBalancer: application internal k8s-default-minimali-/);
      expect(out).not.toMatch(/undefined\//);
      expect(out).toContain(`jsonpath='{.status.loadBalancer.ingress[0].hostname}'`);
      // The banner's AWS CLI command works against the simulator, on the port asked for.
      const cli = out.match(
        /(AWS_ACCESS_KEY_ID=\S+ AWS_SECRET_ACCESS_KEY=\S+ aws --endpoint-url (\S+) --region (\S+)) elbv2 describe-load-balancers/,
      );
      expect(cli?.[2]).toBe(`http://127.0.0.1:${port}`);
      const sdk = new ElasticLoadBalancingV2Client({
        endpoint: cli![2]!,
        region: cli![3]!,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const lbs = await sdk.send(new DescribeLoadBalancersCommand({}));
      expect(lbs.LoadBalancers?.map((l) => l.DNSName?.toLowerCase())).toContain(dns);
      // The EC2 simulator beside it serves the VPC whose CIDRs the provider reads.
      const ec2Url = out.match(/EC2:\s+simulator at (\S+) \(VPC (\S+): /);
      const ec2 = new EC2Client({
        endpoint: ec2Url![1]!,
        region: cli![3]!,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      });
      const vpcs = await ec2.send(new DescribeVpcsCommand({ VpcIds: [ec2Url![2]!] }));
      expect(vpcs.Vpcs?.[0]?.CidrBlockAssociationSet?.map((a) => a.CidrBlock)).toEqual([
        '10.0.0.0/16',
        '100.64.0.0/16',
      ]);
      if (hasAwsCli) {
        const { stdout } = await run('sh', ['-c', `${cli![1]} elbv2 describe-load-balancers --output json`]);
        expect(stdout.toLowerCase()).toContain(dns);
      }

      // A deletion: its DeletedLoadBalancer Event is told before the object leaves the API server.
      await first.kubectl('delete', 'mcs', 'serve', '--wait=false');
      await first.wait(/mcs default\/serve: deleted from the API server/, 30_000);
      const told = first.output();
      const eventAt = told.indexOf('event on mcs default/serve: Normal DeletedLoadBalancer');
      expect(eventAt).toBeGreaterThan(-1);
      expect(eventAt).toBeLessThan(told.indexOf('mcs default/serve: deleted from the API server'));
    } finally {
      await first.stop();
    }

    // Restarted without --fresh: same simulator port, same load balancer, no Event told twice.
    const second = npmStart(state, ['--provider', 'aws']);
    try {
      await second.wait(
        new RegExp(
          `mci default/minimal-ingress: in the API server \\(status\\.loadBalancer = ${dns.replace(/\./g, '\\.')}\\)`,
        ),
      );
      await second.wait(/mci default\/minimal-ingress: plan: no changes \(fingerprint matches\)/, 30_000);
      await second.wait(/Events from earlier runs are not repeated/, 10_000);
      expect((await second.wait(/ELBv2:\s+simulator at (\S+) /, 10_000))[1]).toBe(`http://127.0.0.1:${port}`);
      // The MCI's load balancer is kept, and no Event of the first run is told again. (The MCS deleted
      // above is seeded again on this start and may get a new NLB at any moment: that is new work.)
      const again = second.output();
      expect(again).not.toMatch(/mci default\/minimal-ingress: .*EnsuredLoadBalancer/);
      expect(again).not.toMatch(/mci default\/minimal-ingress: plan \(\d+ changes?\)/);
      expect(again).not.toMatch(/DeletedLoadBalancer/);
    } finally {
      await second.stop();
    }

    // Switching providers without --fresh says what is kept.
    const third = npmStart(state, ['--provider', 'fake']);
    try {
      await third.wait(/switching from --provider aws to fake without --fresh; keeping:/, 30_000);
      // Each line is its own write: wait for the one that names the kept simulator state.
      const kept = `the simulator's load balancers (${join(state, 'elbv2-state.json')})`;
      await third.wait(new RegExp(kept.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')), 10_000);
      expect(third.output()).toContain(kept);
    } finally {
      await third.stop();
    }
  }, 240_000);
});
