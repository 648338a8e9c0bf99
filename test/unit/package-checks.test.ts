/**
 * The checks `osls package` runs before building anything (infra/serverless/package-checks.ts),
 * each against a service directory laid out in a temporary folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { functionRolesDocument, PARAMETERS } from '../../infra/iam/function-roles.js';
import {
  checkCloudConfig,
  checkNoSecrets,
  checkRequiredParams,
  checkTemplateRoles,
  findSecrets,
  lambdaVpc,
  PackageCheckError,
  packagedRoles,
} from '../../infra/serverless/package-checks.js';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = readFileSync(join(ROOT, 'config/aws.example.yaml'), 'utf8');
const MULTI_REGION = readFileSync(join(ROOT, 'config/aws.multi-region.example.yaml'), 'utf8');

let dir: string;
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const aws = (cloudConfig: string, awsOwnerId = 'karmada-prod') =>
  checkCloudConfig({ serviceDir: dir, provider: 'aws', cloudConfig, awsOwnerId });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'package-checks-'));
});

describe('cloudConfig check', () => {
  it('accepts the shipped complete examples, and gives back the configuration the roles follow', async () => {
    put('config/aws.yaml', EXAMPLE);
    await expect(aws('config/aws.yaml')).resolves.toMatchObject({
      ownerId: 'karmada-prod',
      region: 'eu-west-1',
    });
    put('config/aws.multi-region.yaml', MULTI_REGION);
    const multi = await aws('config/aws.multi-region.yaml');
    expect(multi?.regions?.map((r) => r.region)).toEqual(['us-east-1', 'eu-west-1']);
    expect(multi?.globalAccelerator).toBeDefined();
  });

  it('fails when the file does not exist, naming it and the example', async () => {
    await expect(aws('config/aws.yaml')).rejects.toThrow(PackageCheckError);
    await expect(aws('config/aws.yaml')).rejects.toThrow(
      /cloudConfig "config\/aws.yaml" does not exist .*config\/aws.example.yaml/,
    );
  });

  it('fails when the file is invalid, with the parser`s field-level message', async () => {
    put('config/aws.yaml', EXAMPLE.replace(/^subnets:.*$/m, 'subnets: []'));
    await expect(aws('config/aws.yaml')).rejects.toThrow(
      /cloudConfig "config\/aws.yaml" is invalid: .*subnets: needs at least 1 item/,
    );
    put('config/aws.yaml', 'region: [unclosed');
    await expect(aws('config/aws.yaml')).rejects.toThrow(
      /is invalid: aws provider configuration is not valid YAML/,
    );
  });

  it('fails when ownerId differs from awsOwnerId, saying why creates would fail and how to fix it', async () => {
    put('config/aws.yaml', EXAMPLE);
    await expect(aws('config/aws.yaml', 'karmada-ci')).rejects.toThrow(
      /has ownerId "karmada-prod" but awsOwnerId is "karmada-ci".*AccessDenied.*--param="awsOwnerId=karmada-prod"/,
    );
  });

  it('fails when the file lies outside config/, which is not packaged', async () => {
    put('aws.yaml', EXAMPLE);
    await expect(aws('aws.yaml')).rejects.toThrow(/is not under config\/: only config\/\*\* is packaged/);
    await expect(aws('config/../aws.yaml')).rejects.toThrow(/is not under config\//);
  });

  it('requires a file for the aws provider; the fake one runs without, and its file is parsed too', async () => {
    await expect(aws('')).rejects.toThrow(/aws provider needs a configuration file/);
    const fake = (cloudConfig: string) =>
      checkCloudConfig({ serviceDir: dir, provider: 'fake', cloudConfig, awsOwnerId: 'x' });
    await expect(fake('')).resolves.toBeUndefined();
    put('config/fake.yaml', 'requestDelayMs: -1\n');
    await expect(fake('config/fake.yaml')).rejects.toThrow(
      /is invalid: fake provider config: requestDelayMs/,
    );
  });

  it('names an unknown provider', async () => {
    await expect(
      checkCloudConfig({ serviceDir: dir, provider: 'gcp', cloudConfig: '', awsOwnerId: 'x' }),
    ).rejects.toThrow(/provider "gcp" is not a built-in provider \(aws, fake\)/);
  });
});

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
  - name: karmada
    cluster: { server: https://karmada.example.com:5443, certificate-authority-data: LS0t }
users:
  - name: fn
    user: { token: abc }
contexts: [{ name: k, context: { cluster: karmada, user: fn } }]
current-context: k
`;

describe('no secrets under config/', () => {
  it('finds nothing in the repository`s own config/', () => {
    expect(findSecrets(ROOT)).toEqual([]);
  });

  it.each([
    ['config/karmada.yaml', KUBECONFIG, /kubeconfig \(kind: Config\)/],
    ['config/k.json', JSON.stringify({ kind: 'Config', clusters: [] }), /kubeconfig \(kind: Config\)/],
    ['config/prod/kubeconfig', 'anything', /name says it is a kubeconfig/],
    ['config/tls.key', 'x', /extension is that of a key/],
    ['config/.env', 'A=1', /name is that of a credentials file/],
    ['config/notes.txt', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n', /private key/],
    ['config/creds.yaml', 'accessKeyId: AKIAABCDEFGHIJKLMNOP\n', /AWS access key ID/],
    ['config/a.yaml', 'aws_secret_access_key = x\n', /AWS secret access key/],
    ['config/sa.txt', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2ln', /bearer token/],
    ['config/b.yaml', 'client-key-data: LS0tLS1\n', /kubeconfig credentials/],
    ['config/c.yaml', 'password: hunter2\n', /token or password field/],
  ])('refuses %s', (file, text, why) => {
    put('config/aws.yaml', EXAMPLE);
    put(file, text);
    const findings = findSecrets(dir);
    expect(findings.map((f) => f.file)).toEqual([file]);
    expect(findings[0]!.why).toMatch(why);
    expect(() => checkNoSecrets(dir)).toThrow(
      new RegExp(`refusing to package a file that looks like a secret: ${file.replace(/\./g, '\\.')} `),
    );
  });

  it('lists every offending file and says where the kubeconfig belongs', () => {
    put('config/one.kubeconfig', KUBECONFIG);
    put('config/nested/two.yaml', KUBECONFIG);
    expect(() => checkNoSecrets(dir)).toThrow(
      /files that look like a secret: config\/nested\/two.yaml .*; config\/one.kubeconfig .*Secrets Manager \(kubeconfigSecretId\)/,
    );
  });
});

describe('Lambda VPC params', () => {
  it('is no VPC when both are empty', () => {
    expect(lambdaVpc('', '')).toBeUndefined();
    expect(lambdaVpc(' , ', '')).toBeUndefined();
  });

  it('splits comma-separated IDs', () => {
    expect(lambdaVpc('subnet-0aaa1111bbbb2222c, subnet-0ddd3333eeee4444f', 'sg-0123456789abcdef0')).toEqual({
      subnetIds: ['subnet-0aaa1111bbbb2222c', 'subnet-0ddd3333eeee4444f'],
      securityGroupIds: ['sg-0123456789abcdef0'],
    });
  });

  it('refuses one without the other, and IDs of the wrong kind', () => {
    expect(() => lambdaVpc('subnet-0aaa1111bbbb2222c', '')).toThrow(/go together: set both/);
    expect(() => lambdaVpc('', 'sg-0123456789abcdef0')).toThrow(/go together/);
    expect(() => lambdaVpc('sg-0123456789abcdef0', 'subnet-0aaa1111bbbb2222c')).toThrow(
      /lambdaSubnetIds: "sg-0123456789abcdef0", lambdaSecurityGroupIds: "subnet-0aaa1111bbbb2222c"/,
    );
  });
});

describe('required params', () => {
  const ALL = {
    awsOwnerId: 'karmada-prod',
    karmadaInstanceId: '6f1d3c2a-8b4e-4f7a-9c1d-2e3f4a5b6c7d',
    forwarderClusterArn: 'arn:aws:eks:eu-west-1:123456789012:cluster/my-host-cluster',
  };

  it('passes when each is set', () => {
    expect(() => checkRequiredParams(ALL)).not.toThrow();
  });

  it('a missing one stops with one line naming it and how to find its value', () => {
    for (const [name, find] of [
      [
        'karmadaInstanceId',
        /kubectl --context karmada-apiserver get namespace kube-system -o jsonpath='\{\.metadata\.uid\}'$/,
      ],
      ['awsOwnerId', /the ownerId of your provider configuration/],
      [
        'forwarderClusterArn',
        /aws eks describe-cluster --name <host cluster> --query cluster\.arn --output text$/,
      ],
    ] as const) {
      for (const value of ['', '  ', undefined]) {
        let message = '';
        try {
          checkRequiredParams({ ...ALL, [name]: value });
        } catch (err) {
          expect(err).toBeInstanceOf(PackageCheckError);
          message = (err as Error).message;
        }
        expect(message.split('\n'), name).toHaveLength(1);
        expect(message).toMatch(new RegExp(`^${name} is not set: pass --param="${name}=<value>", `));
        expect(message).toMatch(find);
      }
    }
  });

  it('several missing ones: a line each', () => {
    expect(() => checkRequiredParams({})).toThrow(
      /^awsOwnerId is not set: .*\nkarmadaInstanceId is not set: .*\nforwarderClusterArn is not set: .*$/,
    );
  });

  it('refuses a forwarderClusterArn that is not an EKS cluster ARN', () => {
    for (const bad of [
      'my-host-cluster',
      'arn:aws:iam::123456789012:role/x',
      'arn:aws:eks:eu-west-1:123:cluster/x',
    ]) {
      expect(() => checkRequiredParams({ ...ALL, forwarderClusterArn: bad }), bad).toThrow(
        /is not an EKS cluster ARN .*aws eks describe-cluster/,
      );
    }
  });
});

describe('the roles follow the packaged configuration', () => {
  const PARAMS = {
    ownerId: 'karmada-prod',
    instanceId: '6f1d3c2a-8b4e-4f7a-9c1d-2e3f4a5b6c7d',
    allowedSchemes: '',
    allowedSubnets: '',
    allowedSecurityGroups: '',
    kubeconfigSecretId: 'multicluster-cloud-provider/kubeconfig',
    kubeconfigParameter: '',
    functionPrefix: 'multicluster-cloud-provider-prod',
  };
  const regionsIn = (doc: unknown) =>
    [
      ...new Set([...JSON.stringify(doc).matchAll(/:elasticloadbalancing:([^:]+):/g)].map((m) => m[1])),
    ].sort();
  const hasGa = (doc: unknown) => JSON.stringify(doc).includes('globalaccelerator:');
  const template = (roles: { Roles: Record<string, unknown> }) => ({ Resources: { ...roles.Roles } });

  it('several Regions and Global Accelerator: every Region, the GA statements, the values filled in', async () => {
    const config = await parseAwsConfig(MULTI_REGION);
    const roles = packagedRoles(config, PARAMS);
    expect(regionsIn(roles)).toEqual(['eu-west-1', 'us-east-1']);
    expect(hasGa(roles.Roles.SqsFunctionRole)).toBe(true);
    expect(JSON.stringify(roles)).not.toContain('${param:');
    expect(JSON.stringify(roles)).toContain('"aws:ResourceTag/multicluster.karmada.io/owner":"karmada-prod"');
    expect(JSON.stringify(roles.Roles.SqsFunctionRole)).toContain('vpc/vpc-0fed98765432cba00');
    expect(() => checkTemplateRoles(template(roles), config, 'eu-west-1', 'config/x.yaml')).not.toThrow();
  });

  it('one Region without Global Accelerator: that Region only, no GA statement', async () => {
    const config = await parseAwsConfig(EXAMPLE);
    const roles = packagedRoles(config, PARAMS);
    expect(regionsIn(roles)).toEqual(['eu-west-1']);
    expect(hasGa(roles)).toBe(false);
    // Whatever Region the functions are deployed to: the load balancers are the configuration's.
    expect(() => checkTemplateRoles(template(roles), config, 'us-east-1', 'config/x.yaml')).not.toThrow();
  });

  it('stops when serverless.yml does not give every value the roles need', async () => {
    const { functionPrefix: _left, ...partial } = PARAMS;
    expect(() => packagedRoles({} as never, partial)).toThrow(/custom.iamParameters lacks functionPrefix/);
    expect(Object.keys(PARAMS).sort()).toEqual(Object.keys(PARAMETERS).sort());
  });

  it('refuses a template whose roles cover only the deployment’s Region of a multi-Region configuration', async () => {
    const config = await parseAwsConfig(MULTI_REGION);
    // The roles serverless.yml includes without a configuration: ${AWS::Region}, no GA.
    expect(() =>
      checkTemplateRoles(template(functionRolesDocument()), config, 'eu-west-1', 'config/aws.yaml'),
    ).toThrow(
      /packaged roles do not match cloudConfig "config\/aws.yaml" \(Regions eu-west-1, us-east-1, Global Accelerator\): HttpFunctionRole, InvokeFunctionRole, ResyncFunctionRole, SqsFunctionRole, SweepFunctionRole cover eu-west-1, not us-east-1 \(their calls there would be AccessDenied\); no role holds Global Accelerator/,
    );
    // A template with a Region too many is refused too.
    const three = functionRolesDocument({
      regions: ['us-east-1', 'eu-west-1', 'ap-south-1'],
      globalAccelerator: true,
    });
    expect(() => checkTemplateRoles(template(three), config, 'eu-west-1', 'c')).toThrow(
      /SqsFunctionRole, SweepFunctionRole cover ap-south-1, eu-west-1, us-east-1, and ap-south-1, which the configuration does not name/,
    );
  });

  it('refuses Global Accelerator statements the configuration does not ask for, and a Region it does not name', async () => {
    const config = await parseAwsConfig(EXAMPLE);
    const withGa = functionRolesDocument({ regions: ['eu-west-1'], globalAccelerator: true });
    expect(() => checkTemplateRoles(template(withGa), config, 'eu-west-1', 'c')).toThrow(
      /the roles hold Global Accelerator, which the configuration does not configure/,
    );
    // The committed roles name ${AWS::Region}: right only when that is the configured Region.
    expect(() =>
      checkTemplateRoles(template(functionRolesDocument()), config, 'eu-west-1', 'c'),
    ).not.toThrow();
    expect(() => checkTemplateRoles(template(functionRolesDocument()), config, 'us-east-1', 'c')).toThrow(
      /Regions eu-west-1\): .*cover us-east-1, not eu-west-1/,
    );
    expect(() => checkTemplateRoles({ Resources: {} }, config, 'eu-west-1', 'c')).toThrow(
      /SqsFunctionRole is not in the template/,
    );
  });
});
