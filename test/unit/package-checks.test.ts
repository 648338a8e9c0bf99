/**
 * The checks `osls package` runs before building anything (infra/serverless/package-checks.ts),
 * each against a service directory laid out in a temporary folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  checkCloudConfig,
  checkNoSecrets,
  findSecrets,
  lambdaVpc,
  PackageCheckError,
} from '../../infra/serverless/package-checks.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = readFileSync(join(ROOT, 'config/aws.example.yaml'), 'utf8');

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
  it('accepts the shipped complete example', async () => {
    put('config/aws.yaml', EXAMPLE);
    await expect(aws('config/aws.yaml')).resolves.toBeUndefined();
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
