/**
 * What `osls package` (and so `osls deploy`) checks before it builds anything, so that a mistake in
 * the deployment's parameters fails on the operator's machine instead of in every invocation:
 *
 * - the provider configuration named by `cloudConfig` exists, lies under config/ (the only files
 *   packaged with the functions) and passes the provider's own parser, the one the functions run;
 * - for the aws provider, its `ownerId` equals `awsOwnerId`, the owner the IAM policy scopes every
 *   mutation to (a mismatch would make every create fail with AccessDenied);
 * - nothing under config/ looks like a kubeconfig, a private key or a cloud credential: those
 *   files would be copied into every function zip, readable by anyone who can download the code;
 * - the Lambda VPC parameters are both set or both empty, and name subnets and security groups.
 *
 * infra/serverless/plugin.js runs these from the Serverless hooks; they are plain functions so
 * that each check is tested directly.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorMessage } from '../../lib/errors.js';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { parseFakeConfig } from '../../lib/providers/fake/config.js';
import { iamPinIssues, type IamPinParams } from '../../lib/providers/aws/tenant-policy-pins.js';

/** The directory packaged with every function (serverless.yml `package.patterns`). */
export const CONFIG_DIR = 'config';

export class PackageCheckError extends Error {
  override name = 'PackageCheckError';
}

/** Each built-in provider's configuration parser: the same code the functions run at start-up. */
const CONFIG_PARSERS: Record<string, (text: string | undefined) => unknown> = {
  aws: parseAwsConfig,
  fake: parseFakeConfig,
};

export interface CloudConfigParams {
  serviceDir: string;
  /** `provider` param (MULTICLUSTER_PROVIDER). */
  provider: string;
  /** `cloudConfig` param (CLOUD_CONFIG), relative to the service directory; '' for none. */
  cloudConfig: string;
  /** `awsOwnerId` param: the owner the generated IAM policy allows to change load balancers. */
  awsOwnerId: string;
}

export async function checkCloudConfig(p: CloudConfigParams): Promise<void> {
  const parse = CONFIG_PARSERS[p.provider];
  if (!parse) {
    throw new PackageCheckError(
      `provider "${p.provider}" is not a built-in provider (${Object.keys(CONFIG_PARSERS).join(', ')}): ` +
        'set --param="provider=aws" (or fake)',
    );
  }
  if (!p.cloudConfig) {
    if (p.provider === 'aws') {
      throw new PackageCheckError(
        'the aws provider needs a configuration file: copy config/aws.example.yaml to config/aws.yaml, ' +
          'fill it in, and set --param="cloudConfig=config/aws.yaml"',
      );
    }
    return;
  }
  const file = resolve(p.serviceDir, p.cloudConfig);
  const inConfigDir = relative(resolve(p.serviceDir, CONFIG_DIR), file);
  if (isAbsolute(p.cloudConfig) || inConfigDir.startsWith('..') || isAbsolute(inConfigDir)) {
    throw new PackageCheckError(
      `cloudConfig "${p.cloudConfig}" is not under ${CONFIG_DIR}/: only ${CONFIG_DIR}/** is packaged with the ` +
        `functions, so they would not find it. Move it to ${CONFIG_DIR}/ and name it relative to the service directory`,
    );
  }
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new PackageCheckError(
      `cloudConfig "${p.cloudConfig}" does not exist (looked for ${file}). ` +
        `Create it (config/aws.example.yaml is a complete example) or fix --param="cloudConfig=..."`,
    );
  }
  let parsed: unknown;
  try {
    parsed = await parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PackageCheckError(`cloudConfig "${p.cloudConfig}" is invalid: ${errorMessage(err)}`);
  }
  if (p.provider === 'aws') {
    const { ownerId } = parsed as { ownerId: string };
    if (ownerId !== p.awsOwnerId) {
      throw new PackageCheckError(
        `cloudConfig "${p.cloudConfig}" has ownerId "${ownerId}" but awsOwnerId is "${p.awsOwnerId}": the IAM ` +
          'policy only allows changes to load balancers tagged with awsOwnerId, so every create would fail ' +
          `with AccessDenied. Set --param="awsOwnerId=${ownerId}" or change ownerId in the file`,
      );
    }
  }
}

export interface SecretFinding {
  /** Path relative to the service directory. */
  file: string;
  why: string;
}

/** File names that hold credentials whatever they contain. */
const SECRET_NAMES: Array<[RegExp, string]> = [
  [/kubeconfig|(^|[/\\])\.kube([/\\]|$)/i, 'its name says it is a kubeconfig'],
  [/\.(pem|key|p12|pfx|jks|keystore)$/i, 'its extension is that of a key or certificate store'],
  [
    /(^|[/\\])(\.env(\..*)?|credentials|\.netrc|\.npmrc|id_(rsa|dsa|ecdsa|ed25519))$/i,
    'its name is that of a credentials file',
  ],
];

/** Content that is a credential, in whatever file it sits. */
const SECRET_CONTENT: Array<[RegExp, string]> = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/, 'it contains a private key'],
  [/^\s*kind:\s*["']?Config["']?\s*$/m, 'it is a kubeconfig (kind: Config)'],
  [/"kind"\s*:\s*"Config"/, 'it is a kubeconfig (kind: Config)'],
  [
    /\b(client-key-data|client-certificate-data|certificate-authority-data)\b/,
    'it contains kubeconfig credentials',
  ],
  [
    /^\s*(users|clusters|contexts):\s*$[\s\S]*^\s*current-context:/m,
    'it is a kubeconfig (clusters, users, current-context)',
  ],
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/, 'it contains an AWS access key ID'],
  [/\baws_secret_access_key\b|\bsecretAccessKey\b/i, 'it contains an AWS secret access key'],
  [
    /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+/,
    'it contains a bearer token (a JWT, such as a ServiceAccount token)',
  ],
  [/^\s*(token|password|client-secret|clientSecret)\s*:\s*\S+/im, 'it has a token or password field'],
];

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.isFile() ? [path] : [];
  });
}

/** Files under config/ that must not be packaged, each with the reason it looks like a secret. */
export function findSecrets(serviceDir: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const path of walk(join(serviceDir, CONFIG_DIR))) {
    const file = relative(serviceDir, path).split(sep).join('/');
    const byName = SECRET_NAMES.find(([re]) => re.test(file));
    if (byName) {
      findings.push({ file, why: byName[1] });
      continue;
    }
    const text = readFileSync(path, 'utf8');
    const byContent = SECRET_CONTENT.find(([re]) => re.test(text));
    if (byContent) findings.push({ file, why: byContent[1] });
  }
  return findings;
}

export function checkNoSecrets(serviceDir: string): void {
  const findings = findSecrets(serviceDir);
  if (!findings.length) return;
  throw new PackageCheckError(
    `refusing to package ${findings.length === 1 ? 'a file that looks' : 'files that look'} like a secret: ` +
      findings.map((f) => `${f.file} (${f.why})`).join('; ') +
      `. Everything under ${CONFIG_DIR}/ is copied into every function zip. Keep the kubeconfig in Secrets ` +
      'Manager (kubeconfigSecretId) and credentials out of the repository, and move the file out of ' +
      `${CONFIG_DIR}/`,
  );
}

export interface LambdaVpc {
  subnetIds: string[];
  securityGroupIds: string[];
}

const ids = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The functions' VPC from the comma-separated `lambdaSubnetIds` / `lambdaSecurityGroupIds`
 * params: undefined when both are empty (no VPC: the Karmada API server is reachable from the
 * internet); an error when only one is set, or an ID is not a subnet / security group ID.
 */
export function lambdaVpc(subnets: string, securityGroups: string): LambdaVpc | undefined {
  const subnetIds = ids(subnets);
  const securityGroupIds = ids(securityGroups);
  if (!subnetIds.length && !securityGroupIds.length) return undefined;
  if (!subnetIds.length || !securityGroupIds.length) {
    throw new PackageCheckError(
      'lambdaSubnetIds and lambdaSecurityGroupIds go together: set both (the functions run in those subnets ' +
        'with those security groups) or neither (no VPC)',
    );
  }
  const bad = [
    ...subnetIds.filter((s) => !/^subnet-[0-9a-f]{8,17}$/.test(s)).map((s) => `lambdaSubnetIds: "${s}"`),
    ...securityGroupIds
      .filter((s) => !/^sg-[0-9a-f]{8,17}$/.test(s))
      .map((s) => `lambdaSecurityGroupIds: "${s}"`),
  ];
  if (bad.length) {
    throw new PackageCheckError(
      `not a subnet or security group ID: ${bad.join(', ')} (expected subnet-… and sg-… IDs, comma-separated)`,
    );
  }
  if (subnetIds.length > 16 || securityGroupIds.length > 5) {
    throw new PackageCheckError('Lambda allows at most 16 subnets and 5 security groups per function');
  }
  return { subnetIds, securityGroupIds };
}

/** The IAM pins of serverless.yml (`awsAllowedSchemes` …), as the plugin passes them. */
export type IamPinCheckParams = CloudConfigParams & Partial<IamPinParams>;

/**
 * For the aws provider: the IAM pins match what the configuration's tenant policy allows
 * (lib/providers/aws/tenant-policy-pins.ts says how). Run after checkCloudConfig, which has
 * checked that the file is there and valid.
 */
export async function checkIamPins(p: IamPinCheckParams): Promise<void> {
  if (p.provider !== 'aws' || !p.cloudConfig) return;
  const config = await parseAwsConfig(readFileSync(resolve(p.serviceDir, p.cloudConfig), 'utf8'));
  const issues = iamPinIssues(config, {
    awsAllowedSchemes: p.awsAllowedSchemes ?? '',
    awsAllowedSubnets: p.awsAllowedSubnets ?? '',
    awsAllowedSecurityGroups: p.awsAllowedSecurityGroups ?? '',
  });
  if (issues.length) {
    throw new PackageCheckError(
      `the IAM pins do not match the tenant policy of cloudConfig "${p.cloudConfig}" (its closed default included): ${issues.join('; ')}`,
    );
  }
}
