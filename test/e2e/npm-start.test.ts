/**
 * `npm start` as a newcomer runs it: a fresh state directory, no AWS account, no network. The test
 * waits for the narrated status, applies a change with real kubectl, sees the new status, and
 * stops the process with Ctrl-C (SIGINT).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import {
  DescribeLoadBalancersCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it, vi } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

/** Waits until the output matches `pattern`; the failure shows the output so far. */
function waitFor(output: () => string, pattern: RegExp, timeout: number): Promise<RegExpMatchArray> {
  return vi.waitFor(
    () => {
      const m = output().match(pattern);
      expect(m, `waiting for ${pattern}; output so far:\n${output()}`).not.toBeNull();
      return m!;
    },
    { timeout, interval: 50 },
  );
}

/** `npm start` with these arguments, its output so far, and Ctrl-C. */
function npmStart(args: string[]) {
  const child = spawn('npm', ['start', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, KUBECONFIG: '' },
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return {
    output: () => out,
    wait: (pattern: RegExp, timeoutMs = 60_000) => waitFor(() => out, pattern, timeoutMs),
    async stop(): Promise<string> {
      // Ctrl-C reaches the whole process group, npm and the pipeline alike.
      process.kill(-child.pid!, 'SIGINT');
      await new Promise<void>((r) => child.on('close', () => r()));
      return out;
    },
  };
}

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
    const child = spawn('npm', ['start', '--', '--state', state, '--fresh'], {
      cwd: ROOT,
      env: { ...process.env, KUBECONFIG: '' },
      detached: true,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      await waitFor(() => out, /mci default\/minimal-ingress: status\.loadBalancer = 1\.2\.3\.[45]/, 60_000);
      await waitFor(() => out, /mcs default\/serve: status\.loadBalancer = 1\.2\.3\.[45]/, 30_000);
      expect(out).toMatch(/finalizer karmada\.io\/multi-cluster-ingress-controller added/);
      expect(out).toMatch(/EnsuredLoadBalancer: Created load balancer: 1\.2\.3\.4/);
      const kubeconfig = (await waitFor(() => out, /kubeconfig:\s+(\S+)/, 5_000))[1]!;
      const kubectl = (...args: string[]) =>
        run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(state, 'kube-cache'), ...args]);

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
      await waitFor(() => out, /mci default\/second-ingress: status\.loadBalancer = 1\.2\.3\.4/, 30_000);
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
      await waitFor(() => out, /mci default\/second-ingress: deleted from the API server/, 30_000);
    } finally {
      // Ctrl-C reaches the whole process group, npm and the pipeline alike.
      process.kill(-child.pid!, 'SIGINT');
      await new Promise<void>((r) => child.on('close', () => r()));
    }
    expect(out).toMatch(/stopping\.\.\./);
    // the API server is gone: nothing is left running
    const url = out.match(/API server:\s+(\S+)/)![1]!;
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  }, 120_000);

  it('--provider aws: tells plans, keeps the simulator across a restart, and says what a switch keeps', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-aws-'));
    const port = await freePort();
    const first = npmStart(['--state', state, '--fresh', '--provider', 'aws', '--elbv2-port', String(port)]);
    let dns: string;
    let kubeconfig: string;
    try {
      dns = (await first.wait(/mci default\/minimal-ingress: status\.loadBalancer = (internal-\S+)/))[1]!;
      kubeconfig = (await first.wait(/kubeconfig:\s+(\S+)/, 5_000))[1]!;
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
      if (hasAwsCli) {
        const { stdout } = await run('sh', ['-c', `${cli![1]} elbv2 describe-load-balancers --output json`]);
        expect(stdout.toLowerCase()).toContain(dns);
      }

      // A deletion: its DeletedLoadBalancer Event is told before the object leaves the API server.
      const kubectl = (...args: string[]) =>
        run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(state, 'kube-cache'), ...args]);
      await kubectl('delete', 'mcs', 'serve', '--wait=false');
      await first.wait(/mcs default\/serve: deleted from the API server/, 30_000);
      const told = first.output();
      const eventAt = told.indexOf('event on mcs default/serve: Normal DeletedLoadBalancer');
      expect(eventAt).toBeGreaterThan(-1);
      expect(eventAt).toBeLessThan(told.indexOf('mcs default/serve: deleted from the API server'));
    } finally {
      await first.stop();
    }

    // Restarted without --fresh: same simulator port, same load balancer, no Event told twice.
    const second = npmStart(['--state', state, '--provider', 'aws']);
    try {
      await second.wait(
        new RegExp(
          `mci default/minimal-ingress: in the API server \\(status\\.loadBalancer = ${dns.replace(/\./g, '\\.')}\\)`,
        ),
      );
      await second.wait(/mci default\/minimal-ingress: plan: no changes \(fingerprint matches\)/, 30_000);
      await second.wait(/Events from earlier runs are not repeated/, 10_000);
      expect((await second.wait(/ELBv2:\s+simulator at (\S+) /, 10_000))[1]).toBe(`http://127.0.0.1:${port}`);
      expect(second.output()).not.toMatch(/EnsuredLoadBalancer|DeletedLoadBalancer|\+ create LoadBalancer/);
    } finally {
      await second.stop();
    }

    // Switching providers without --fresh says what is kept.
    const third = npmStart(['--state', state, '--provider', 'fake']);
    try {
      await third.wait(/switching from --provider aws to fake without --fresh; keeping:/, 30_000);
      expect(third.output()).toContain(`the simulator's load balancers (${join(state, 'elbv2-state.json')})`);
    } finally {
      await third.stop();
    }
  }, 240_000);
});
