/**
 * The README's "Deploy to AWS" walkthrough up to `osls package`, as CI runs it: the aws provider
 * with the shipped complete configuration (config/aws.example.yaml) and the Lambda VPC params;
 * and the package-time checks failing `osls package` with their message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

type Resource = { Type: string; Properties: Record<string, any>; Condition?: string };
type Template = { Resources: Record<string, Resource>; Outputs: Record<string, any>; Conditions?: any };

const SUBNETS = 'subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f';
const SECURITY_GROUPS = 'sg-0123456789abcdef0';
const WALKTHROUGH_PARAMS = [
  'provider=aws',
  'providerIngressClass=karmada.io/aws',
  'cloudConfig=config/aws.example.yaml',
  'awsOwnerId=karmada-prod',
  'kubeconfigSecretId=karmada/kubeconfig',
  `lambdaSubnetIds=${SUBNETS}`,
  `lambdaSecurityGroupIds=${SECURITY_GROUPS}`,
];

function oslsPackage(params: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'sls-package-aws-'));
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_REGION: 'eu-west-1', SLS_TELEMETRY_DISABLED: '1' };
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'])
    delete env[k];
  const args = ['osls', 'package', '--stage', 'prod', '--region', 'eu-west-1', '--package', out];
  for (const p of params) args.push(`--param=${p}`);
  return { out, done: run('npx', args, { cwd: ROOT, env, timeout: 240_000 }) };
}

/** The failure message osls prints, whatever the stream. */
async function packageError(params: string[]): Promise<string> {
  try {
    await oslsPackage(params).done;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ''}\n${e.stderr ?? ''}`;
  }
  throw new Error('osls package succeeded');
}

let template: Template;
let out: string;

beforeAll(async () => {
  const pkg = oslsPackage(WALKTHROUGH_PARAMS);
  out = pkg.out;
  await pkg.done;
  template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'));
}, 250_000);

const byType = (type: string) => Object.entries(template.Resources).filter(([, r]) => r.Type === type);
const functions = () => byType('AWS::Lambda::Function').map(([, r]) => r.Properties);

describe('osls package with the complete example configuration', () => {
  it('runs every function with the aws provider and the packaged configuration', () => {
    expect(functions()).toHaveLength(5);
    for (const f of functions()) {
      expect(f.Environment.Variables).toMatchObject({
        MULTICLUSTER_PROVIDER: 'aws',
        PROVIDER_INGRESS_CLASS: 'karmada.io/aws',
        CLOUD_CONFIG: 'config/aws.example.yaml',
        KUBECONFIG_SECRET_ID: 'karmada/kubeconfig',
      });
    }
  });

  it('puts every function in the VPC given by the params, with the ENI permissions it needs', () => {
    for (const f of functions()) {
      expect(f.VpcConfig).toEqual({
        SubnetIds: SUBNETS.split(','),
        SecurityGroupIds: [SECURITY_GROUPS],
      });
    }
    const role = template.Resources.IamRoleLambdaExecution!.Properties;
    expect(JSON.stringify(role.ManagedPolicyArns)).toContain('AWSLambdaVPCAccessExecutionRole');
  });

  it('scopes the IAM policy to the configuration`s ownerId', () => {
    const policy = JSON.stringify(byType('AWS::IAM::Policy').map(([, p]) => p.Properties.PolicyDocument));
    expect(policy).toContain('"aws:ResourceTag/multicluster.karmada.io/owner":"karmada-prod"');
  });
});

describe('package-time checks', () => {
  const without = (key: string) => WALKTHROUGH_PARAMS.filter((p) => !p.startsWith(`${key}=`));

  it('fails on a cloudConfig that does not exist', async () => {
    const message = await packageError([...without('cloudConfig'), 'cloudConfig=config/aws.yaml']);
    expect(message).toMatch(/cloudConfig "config\/aws.yaml" does not exist/);
  }, 120_000);

  it('fails on an ownerId that differs from awsOwnerId', async () => {
    const message = await packageError([...without('awsOwnerId'), 'awsOwnerId=karmada-staging']);
    expect(message).toMatch(/has ownerId "karmada-prod" but awsOwnerId is "karmada-staging"/);
  }, 120_000);

  it('fails on half a VPC', async () => {
    const message = await packageError(without('lambdaSecurityGroupIds'));
    expect(message).toMatch(/lambdaSubnetIds and lambdaSecurityGroupIds go together/);
  }, 120_000);
});
