/**
 * `npm start` as a newcomer runs it: a fresh state directory, no AWS account, no network. The test
 * waits for the narrated status, applies a change with real kubectl, sees the new status, and
 * stops the process with Ctrl-C (SIGINT).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import {
  GlobalAcceleratorClient,
  ListAcceleratorsCommand,
  ListEndpointGroupsCommand,
  ListListenersCommand,
} from '@aws-sdk/client-global-accelerator';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { freePort, npmStart } from './npm-start.support.js';

const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
const run = promisify(execFile);

const hasAwsCli = spawnSync('aws', ['--version'], { stdio: 'ignore' }).status === 0;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
/** A log line of the functions or the forwarder printed as it is: that is for --verbose. */
const RAW_JSON = /^\{"(level|_aws)"/m;

/** The load balancers of one Region's ELBv2 simulator, each with the targets of its target groups. */
async function regionalBalancers(endpoint: string, region: string) {
  const elbv2 = new ElasticLoadBalancingV2Client({ endpoint, region, credentials });
  const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
  return Promise.all(
    lbs.map(async (lb) => {
      const groups = await elbv2.send(
        new DescribeTargetGroupsCommand({ LoadBalancerArn: lb.LoadBalancerArn }),
      );
      const targets: string[] = [];
      for (const tg of groups.TargetGroups ?? []) {
        const health = await elbv2.send(
          new DescribeTargetHealthCommand({ TargetGroupArn: tg.TargetGroupArn }),
        );
        targets.push(...(health.TargetHealthDescriptions ?? []).map((d) => d.Target?.Id ?? ''));
      }
      return { arn: lb.LoadBalancerArn!, type: lb.Type, vpc: lb.VpcId, targets: targets.sort() };
    }),
  );
}

describe.skipIf(!hasKubectl)('npm start', () => {
  it('runs the upstream scenario, reacts to kubectl, and stops on Ctrl-C', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-'));
    const app = npmStart(state, ['--fresh']);
    try {
      await app.wait(/mci default\/minimal-ingress: status\.loadBalancer = 1\.2\.3\.4/);
      await app.wait(/mcs default\/serve: status\.loadBalancer = 1\.2\.3\.4/, 30_000);
      expect(app.output()).toMatch(/finalizer karmada\.io\/multi-cluster-ingress-controller added/);
      expect(app.output()).toMatch(
        /event on mci default\/minimal-ingress: Normal EnsuredLoadBalancer: Created load balancer: 1\.2\.3\.4/,
      );
      const kubectl = app.kubectl;

      // One kubectl patch, one Event; the fake's address stays the one it was created with.
      await kubectl(
        'patch',
        'mci',
        'minimal-ingress',
        '--type',
        'json',
        '-p',
        '[{"op":"replace","path":"/spec/rules/0/http/paths/0/path","value":"/other"}]',
      );
      await app.wait(
        /event on mci default\/minimal-ingress: Normal UpdatedLoadBalancer: Updated load balancer: 1\.2\.3\.4/,
        30_000,
      );
      // the reconciles the condition's write causes come and go meanwhile
      await new Promise((r) => setTimeout(r, 2000));
      expect(
        app.output().match(/event on mci default\/minimal-ingress: Normal UpdatedLoadBalancer.*/g),
      ).toEqual([
        'event on mci default/minimal-ingress: Normal UpdatedLoadBalancer: Updated load balancer: 1.2.3.4',
      ]);
      expect(app.output()).not.toContain('1.2.3.5');

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
      expect(stdout).toBe('1.2.3.4');

      // and deleting it removes the load balancer, then the finalizer, then the object
      await kubectl('delete', 'mci', 'second-ingress', '--wait=false');
      await app.wait(/mci default\/second-ingress: deleted from the API server/, 30_000);
    } finally {
      await app.stop();
    }
    const out = app.output();
    expect(out).toMatch(/stopping\.\.\./);
    expect(out).not.toMatch(RAW_JSON);
    // the API server is gone: nothing is left running
    const url = out.match(/API server:\s+(\S+)/)![1]!;
    await expect(fetch(`${url}/version`)).rejects.toThrow();
  }, 120_000);

  it('--provider aws: tells plans, keeps the simulator across a restart, and says what a switch keeps', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-aws-'));
    const port = await freePort();
    // One Region: the one-Region configuration, as before Regions (the two-Region default is below).
    const first = npmStart(state, [
      '--fresh',
      '--provider',
      'aws',
      '--regions',
      'us-east-1',
      '--elbv2-port',
      String(port),
    ]);
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
      const ec2Url = out.match(/EC2 us-east-1:\s+simulator at (\S+) \(VPC (\S+): /);
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
      // The stand-in writes its state file 200 ms after a change (debounced): the restart below
      // must find the deletion there, so the first run stops well after that, even on a loaded machine.
      await new Promise((r) => setTimeout(r, 2_000));
    } finally {
      await first.stop();
    }

    // Restarted without --fresh: same simulator port, same load balancer, no Event told twice.
    const second = npmStart(state, ['--provider', 'aws', '--regions', 'us-east-1']);
    try {
      await second.wait(
        new RegExp(
          `mci default/minimal-ingress: in the API server \\(status\\.loadBalancer = ${dns.replace(/\./g, '\\.')}\\)`,
        ),
      );
      await second.wait(/mci default\/minimal-ingress: plan: no changes \(fingerprint matches\)/, 30_000);
      await second.wait(/Events from earlier runs are not repeated/, 10_000);
      expect((await second.wait(/ELBv2 us-east-1: simulator at (\S+) /, 10_000))[1]).toBe(
        `http://127.0.0.1:${port}`,
      );
      expect(second.output()).not.toMatch(/switching Regions/);
      // Nothing is seeded again: the MCS deleted in the first run stays deleted.
      await second.wait(/resumed the API objects of the last run .*: nothing is seeded again/, 10_000);
      const { stdout: services } = await second.kubectl('get', 'mcs', '-o', 'name');
      expect(services.trim()).toBe('');
      // The MCI's load balancer is kept, and no Event of the first run is told again.
      const again = second.output();
      expect(again).not.toMatch(/mcs default\/serve/);
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
      await third.wait(/the simulators' load balancers, not served while fake runs:/, 10_000);
      const kept = `      us-east-1: ${join(state, 'elbv2-state.json')}`;
      await third.wait(new RegExp(escape(kept)), 10_000);
      expect(third.output()).toContain(kept);
    } finally {
      await third.stop();
    }
  }, 240_000);

  it('--provider aws in two Regions: an ALB per Region with its own targets, one accelerator in front, deletion across reconciles', async () => {
    const state = mkdtempSync(join(tmpdir(), 'npm-start-regions-'));
    const port = await freePort();
    const app = npmStart(state, ['--fresh', '--provider', 'aws', '--elbv2-port', String(port)]);
    try {
      const status = await app.wait(
        /mci default\/minimal-ingress: status\.loadBalancer = (\S+\.awsglobalaccelerator\.com), (\S+), (\S+)\n/,
      );
      const [hostname, ...ips] = status.slice(1) as [string, string, string];
      const out = app.output();
      // The README shows what a fresh run gives minimal-ingress (the simulator's accelerators are
      // named by their objects, whatever is reconciled first).
      const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
      expect(readme).toContain(
        `mci default/minimal-ingress: status.loadBalancer = ${[hostname, ...ips].join(', ')}\n`,
      );
      // Each Region's plan is told under its name, then the accelerator's.
      expect(out).toMatch(/mci default\/minimal-ingress: plan in us-east-1 \(5 changes\):/);
      expect(out).toMatch(/mci default\/minimal-ingress: plan in eu-west-1 \(5 changes\):/);
      expect(out).toMatch(
        /mci default\/minimal-ingress: Global Accelerator plan \(4 changes\):\n.* {4}\+ create Accelerator: /,
      );
      // Reconciles that found everything as asked recorded no Event (before a change, only the creation's).
      expect(out).not.toMatch(/event on mc[is] default\/\S+: Normal UpdatedLoadBalancer/);
      const { stdout: jsonpath } = await app.kubectl(
        'get',
        'mci',
        'minimal-ingress',
        '-o',
        'jsonpath={.status.loadBalancer.ingress[*].*}',
      );
      expect(jsonpath.split(' ')).toEqual([hostname, ...ips]);

      // Each Region's ELBv2 simulator, at the URL the banner prints (the first on the port asked
      // for): one ALB for the MCI with only its Region's cluster's targets, in its own VPC.
      const banner = [...out.matchAll(/ELBv2 (\S+): simulator at (\S+) /g)].map(
        (m) => [m[1]!, m[2]!] as const,
      );
      expect(banner.map(([region]) => region)).toEqual(['us-east-1', 'eu-west-1']);
      expect(banner[0]![1]).toBe(`http://127.0.0.1:${port}`);
      const albs: Record<string, string> = {};
      const vpcs = new Set<string | undefined>();
      const expected: Record<string, string[]> = {
        'us-east-1': ['10.1.0.11', '10.1.0.12'],
        'eu-west-1': ['10.2.0.21'],
      };
      for (const [region, url] of banner) {
        const lbs = await regionalBalancers(url, region);
        const alb = lbs.filter((lb) => lb.type === 'application');
        expect(alb.map((lb) => lb.targets)).toEqual([expected[region]]);
        expect(alb[0]!.arn).toContain(`:${region}:`);
        albs[region] = alb[0]!.arn;
        vpcs.add(alb[0]!.vpc);
      }
      expect(vpcs.size).toBe(2);

      // The Global Accelerator simulator: the accelerator of the status, an endpoint group per
      // Region naming that Region's ALB.
      const gaCli = out.match(
        /(AWS_ACCESS_KEY_ID=\S+ AWS_SECRET_ACCESS_KEY=\S+ aws --endpoint-url (\S+) --region (us-west-2)) globalaccelerator list-accelerators\n/,
      );
      expect(gaCli).not.toBeNull();
      const ga = new GlobalAcceleratorClient({ endpoint: gaCli![2]!, region: gaCli![3]!, credentials });
      const accelerators = async () => (await ga.send(new ListAcceleratorsCommand({}))).Accelerators ?? [];
      const accelerator = (await accelerators()).find((a) => a.DnsName === hostname);
      expect(accelerator?.IpSets?.flatMap((s) => s.IpAddresses ?? [])).toEqual(ips);
      const listeners = await ga.send(
        new ListListenersCommand({ AcceleratorArn: accelerator!.AcceleratorArn }),
      );
      expect(listeners.Listeners?.map((l) => [l.Protocol, l.PortRanges?.[0]?.FromPort])).toEqual([
        ['TCP', 80],
      ]);
      const groups = await ga.send(
        new ListEndpointGroupsCommand({ ListenerArn: listeners.Listeners![0]!.ListenerArn }),
      );
      expect(
        Object.fromEntries(
          (groups.EndpointGroups ?? []).map((g) => [
            g.EndpointGroupRegion,
            g.EndpointDescriptions?.[0]?.EndpointId,
          ]),
        ),
      ).toStrictEqual(albs);
      if (hasAwsCli) {
        // The banner's command, as a newcomer pastes it.
        const { stdout } = await run('sh', [
          '-c',
          `${gaCli![1]} globalaccelerator list-accelerators --output json`,
        ]);
        expect(stdout).toContain(hostname);
      }

      // kubectl delete waits for the object to go: the accelerator is disabled, deleted once
      // deployed (the simulator takes 2 s per change; the forwarder delivers again after its
      // backoff), then the ALBs, then the finalizer: 4.6 to 5.8 s measured.
      await app.kubectl('delete', 'mci', 'minimal-ingress', '--timeout=60s');
      await app.wait(/mci default\/minimal-ingress: deleted from the API server/, 10_000);
      // Waiting on GA is progress: each step a Normal Event, told once; no Warning.
      const deletion = app.output();
      expect(deletion).toMatch(/mci default\/minimal-ingress: waiting on AWS/);
      const steps =
        deletion.match(/event on mci default\/minimal-ingress: Normal AcceleratorDeleting: .*/g) ?? [];
      expect(steps).toHaveLength(2);
      expect(steps.join('\n')).not.toMatch(/\(x\d+\)/);
      expect(deletion).not.toMatch(/event on mci default\/minimal-ingress: Warning/);
      expect((await accelerators()).map((a) => a.DnsName)).not.toContain(hostname);
      for (const [region, url] of banner) {
        expect((await regionalBalancers(url, region)).map((lb) => lb.arn)).not.toContain(albs[region]);
      }
    } finally {
      await app.stop();
    }
    expect(app.output()).not.toMatch(/undefined\//);
    expect(app.output()).not.toMatch(RAW_JSON);
  }, 120_000);
});
