/**
 * The real `aws globalaccelerator` CLI (botocore's own serialisers and parsers) against the Global
 * Accelerator simulator: create-accelerator, list-accelerators, describe-accelerator, and the
 * us-west-2-only endpoint. Skipped, saying so, where the CLI is not installed (.ci/run installs it).
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';

const run = promisify(execFile);

function awsCliAvailable(): boolean {
  try {
    execFileSync('aws', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const hasAws = awsCliAvailable();
if (!hasAws) console.warn('Global Accelerator simulator CLI tests SKIPPED: the aws CLI is not on PATH');

describe.skipIf(!hasAws)('Global Accelerator simulator: the real aws CLI', () => {
  let sim: GaSimulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    sim = await startGaSimulator({ deployMs: 0 });
    dir = mkdtempSync(join(tmpdir(), 'ga-sim-cli-'));
    // Nothing of the machine's own AWS configuration: dummy credentials, no profile, no IMDS.
    const empty = join(dir, 'empty');
    writeFileSync(empty, '');
    env = {
      PATH: process.env.PATH,
      HOME: dir,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_CONFIG_FILE: empty,
      AWS_SHARED_CREDENTIALS_FILE: empty,
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_PAGER: '',
    };
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const aws = async (region: string, ...args: string[]): Promise<unknown> => {
    const { stdout } = await run(
      'aws',
      ['--endpoint-url', sim.url, '--region', region, '--output', 'json', 'globalaccelerator', ...args],
      // One attempt: the closed connection of the Region check is not worth botocore's backoff.
      { env: { ...env, AWS_RETRY_MODE: 'standard', AWS_MAX_ATTEMPTS: '1' } },
    );
    return JSON.parse(stdout);
  };

  it('create-accelerator, list-accelerators and describe-accelerator', async () => {
    const created = (await aws(
      'us-west-2',
      'create-accelerator',
      '--name',
      'from-cli',
      '--ip-address-type',
      'DUAL_STACK',
      '--tags',
      'Key=owner,Value=cli',
    )) as { Accelerator: Record<string, unknown> };
    expect(created.Accelerator).toMatchObject({
      Name: 'from-cli',
      IpAddressType: 'DUAL_STACK',
      Enabled: true,
      Status: 'IN_PROGRESS',
      DnsName: expect.stringMatching(/^a[0-9a-f]{16}\.awsglobalaccelerator\.com$/),
    });
    const arn = created.Accelerator.AcceleratorArn as string;
    // The CLI sent an IdempotencyToken of its own: the simulator has exactly this accelerator.
    expect(sim.snapshot().map((a) => [a.AcceleratorArn, a.Tags])).toEqual([[arn, { owner: 'cli' }]]);

    const listed = (await aws('us-west-2', 'list-accelerators')) as {
      Accelerators: Array<{ AcceleratorArn: string; Status: string }>;
    };
    expect(listed.Accelerators.map((a) => [a.AcceleratorArn, a.Status])).toEqual([[arn, 'DEPLOYED']]);

    const described = (await aws('us-west-2', 'describe-accelerator', '--accelerator-arn', arn)) as {
      Accelerator: {
        IpSets: Array<{ IpAddressFamily: string; IpAddresses: string[] }>;
        DualStackDnsName: string;
      };
    };
    expect(described.Accelerator.IpSets.map((s) => [s.IpAddressFamily, s.IpAddresses.length])).toEqual([
      ['IPv4', 2],
      ['IPv6', 2],
    ]);
    expect(described.Accelerator.DualStackDnsName).toMatch(/\.dualstack\.awsglobalaccelerator\.com$/);
  });

  it('an unknown accelerator is the service error the CLI names; another Region has no endpoint', async () => {
    const missing =
      'arn:aws:globalaccelerator::123456789012:accelerator/00000000-0000-0000-0000-000000000000';
    const err = (await aws('us-west-2', 'describe-accelerator', '--accelerator-arn', missing).catch(
      (e: unknown) => e,
    )) as { stderr?: string };
    expect(err.stderr).toContain('AcceleratorNotFoundException');
    const elsewhere = (await aws('eu-west-1', '--cli-read-timeout', '2', 'list-accelerators').catch(
      (e: unknown) => e,
    )) as { stderr?: string };
    expect(elsewhere.stderr).toContain('Connection was closed before we received a valid response');
  });
});
