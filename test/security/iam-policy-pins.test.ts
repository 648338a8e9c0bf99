/**
 * Issue 27, Medium 4: the IAM parameters that back the tenant policy (`awsAllowedSchemes`,
 * `awsAllowedSubnets`, `awsAllowedSecurityGroups`) were empty by default and never compared with
 * the policy. `osls package` now refuses pins that are not exactly what the configuration's
 * policy, closed default included, allows (lib/providers/aws/tenant-policy-pins.ts), and pins of
 * values only known at run time.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { iamPinIssues, type IamPinParams } from '../../lib/providers/aws/tenant-policy-pins.js';
import { checkIamPins, PackageCheckError } from '../../infra/serverless/package-checks.js';

const EXAMPLE = readFileSync(join(import.meta.dirname, '../../config/aws.example.yaml'), 'utf8');
const EXAMPLE_PINS: IamPinParams = {
  awsAllowedSchemes: 'internal',
  awsAllowedSubnets: 'subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f',
  awsAllowedSecurityGroups: 'sg-0123456789abcdef0',
};
const file = (over: Record<string, unknown>) =>
  parseAwsConfig(JSON.stringify({ ...(parse(EXAMPLE) as object), ...over }));
const pins = (over: Partial<IamPinParams> = {}): IamPinParams => ({ ...EXAMPLE_PINS, ...over });

describe('the IAM pins match the tenant policy (issue 27, Medium 4)', () => {
  it('the example configuration with the README walkthrough’s pins passes', async () => {
    expect(iamPinIssues(await parseAwsConfig(EXAMPLE), EXAMPLE_PINS)).toEqual([]);
  });

  it('empty pins do not back a policy whose values are known: the value to set is named', async () => {
    const issues = iamPinIssues(await parseAwsConfig(EXAMPLE), {
      awsAllowedSchemes: '',
      awsAllowedSubnets: '',
      awsAllowedSecurityGroups: '',
    });
    expect(issues).toEqual([
      'awsAllowedSchemes: it is empty, so IAM does not back the tenant policy. Set --param="awsAllowedSchemes=internal"',
      'awsAllowedSubnets: it is empty, so IAM does not back the tenant policy. Set --param="awsAllowedSubnets=subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f"',
      'awsAllowedSecurityGroups: it is empty, so IAM does not back the tenant policy. Set --param="awsAllowedSecurityGroups=sg-0123456789abcdef0"',
    ]);
  });

  it('a pin wider or narrower than the policy is refused, saying which way', async () => {
    const config = await parseAwsConfig(EXAMPLE);
    expect(iamPinIssues(config, pins({ awsAllowedSchemes: 'internal,internet-facing' }))).toEqual([
      expect.stringContaining('IAM would allow internet-facing, which the policy refuses'),
    ]);
    expect(iamPinIssues(config, pins({ awsAllowedSubnets: 'subnet-0aaa1111bbbb2222c' }))).toEqual([
      expect.stringContaining('IAM would refuse subnet-0ddd3333eeee4444f, which the policy allows'),
    ]);
  });

  it('without a tenant policy the closed default is what is pinned: the configured values, and internal', async () => {
    const config = await file({ tenantPolicy: undefined, scheme: 'internet-facing' });
    expect(iamPinIssues(config, pins({ awsAllowedSchemes: 'internet-facing' }))).toEqual([
      expect.stringContaining('IAM would refuse internal, which the policy allows'),
    ]);
    // Both schemes: no pin, and an empty parameter says the same.
    expect(iamPinIssues(config, pins({ awsAllowedSchemes: '' }))).toEqual([]);
  });

  it('a rule that holds only some namespaces leaves the default reachable: the union is pinned', async () => {
    const config = await file({
      scheme: 'internal',
      tenantPolicy: {
        rules: [
          {
            name: 'public-team',
            namespaceSelector: { matchLabels: { exposure: 'public' } },
            schemes: ['internet-facing'],
            subnets: ['subnet-0eee5555ffff6666a'],
          },
        ],
      },
    });
    const issues = iamPinIssues(config, pins());
    expect(issues).toEqual([
      expect.stringContaining('Set --param="awsAllowedSchemes=internal,internet-facing"'),
      expect.stringContaining(
        'Set --param="awsAllowedSubnets=subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f,subnet-0eee5555ffff6666a"',
      ),
    ]);
  });

  it('values only known at run time cannot be pinned: the parameter must stay empty', async () => {
    const discovered = await file({
      subnets: undefined,
      vpc: { id: 'vpc-0abc12345678def00' },
      tenantPolicy: undefined,
    });
    expect(iamPinIssues(discovered, pins())).toEqual([
      expect.stringMatching(
        /^awsAllowedSubnets is .*no subnets: they are discovered by LBC's role tags.*Leave awsAllowedSubnets empty/,
      ),
    ]);
    expect(iamPinIssues(discovered, pins({ awsAllowedSubnets: '' }))).toEqual([]);
    const managed = await file({ securityGroups: undefined, tenantPolicy: undefined });
    expect(iamPinIssues(managed, pins())).toEqual([
      expect.stringContaining('load balancers get managed ones'),
    ]);
  });

  it('osls package’s check refuses the mismatch before anything is built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iam-pins-'));
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config/aws.yaml'), EXAMPLE);
    const params = {
      serviceDir: dir,
      provider: 'aws',
      cloudConfig: 'config/aws.yaml',
      awsOwnerId: 'karmada-prod',
    };
    await expect(checkIamPins({ ...params, ...EXAMPLE_PINS })).resolves.toBeUndefined();
    const refused = checkIamPins({ ...params, ...EXAMPLE_PINS, awsAllowedSchemes: '' });
    await expect(refused).rejects.toBeInstanceOf(PackageCheckError);
    await expect(refused).rejects.toThrow(
      /awsAllowedSchemes: it is empty.*Set --param="awsAllowedSchemes=internal"/,
    );
  });
});
