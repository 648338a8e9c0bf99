/**
 * What `osls package` (and so `osls deploy`) checks before it builds anything, so that a mistake in
 * the deployment's parameters fails on the operator's machine instead of in every invocation:
 *
 * - every required parameter is set (one line each, naming it and where its value comes from);
 * - the provider configuration named by `cloudConfig` exists, lies under config/ (the only files
 *   packaged with the functions) and passes the provider's own parser, the one the functions run;
 * - for the aws provider, its `ownerId` equals `awsOwnerId`, the owner the IAM policy scopes every
 *   mutation to (a mismatch would make every create fail with AccessDenied);
 * - nothing under config/ looks like a kubeconfig, a private key or a cloud credential: those
 *   files would be copied into every function zip, readable by anyone who can download the code;
 * - the Lambda VPC parameters are both set or both empty, and name subnets and security groups.
 *
 * With the aws provider it also generates the functions' roles from that configuration
 * (packagedRoles: every configured Region, the configured VPCs, Global Accelerator only when
 * configured), and once the template is built refuses one whose roles cover other Regions or
 * features than the configuration's (checkTemplateRoles).
 *
 * infra/serverless/plugin.js runs these from the Serverless hooks; they are plain functions so
 * that each check is tested directly.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errorMessage } from '../../lib/errors.js';
import { configuredRegions, parseAwsConfig, type AwsProviderConfig } from '../../lib/providers/aws/config.js';
import { parseFakeConfig } from '../../lib/providers/fake/config.js';
import {
  FUNCTION_NAMES,
  functionRolesDocument,
  PARAMETERS,
  roleLogicalId,
  roleOptionsOf,
  type RoleParameters,
} from '../iam/function-roles.js';
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

/**
 * The parameters without a usable default, each with where its value comes from: what the one
 * line that stops `osls package` tells the operator.
 */
export const REQUIRED_PARAMS = {
  awsOwnerId:
    'the ownerId of your provider configuration (config/aws.yaml), unique per Karmada in the account',
  karmadaInstanceId:
    "the UID of the Karmada API server's kube-system namespace: " +
    "kubectl --context karmada-apiserver get namespace kube-system -o jsonpath='{.metadata.uid}'",
  forwarderClusterArn:
    'the ARN of the EKS cluster the forwarder runs in: ' +
    'aws eks describe-cluster --name <host cluster> --query cluster.arn --output text',
} as const;

/** An EKS cluster's ARN, as EKS Pod Identity's `eks-cluster-arn` session tag carries it. */
const EKS_CLUSTER_ARN = /^arn:aws[a-z-]*:eks:[a-z0-9-]+:\d{12}:cluster\/[A-Za-z0-9][A-Za-z0-9_-]*$/;

/** Every required parameter is set: one line per missing one, naming it and how to find its value. */
export function checkRequiredParams(values: Readonly<Record<string, unknown>>): void {
  const missing = Object.entries(REQUIRED_PARAMS)
    .filter(([name]) => typeof values[name] !== 'string' || (values[name] as string).trim() === '')
    .map(([name, where]) => `${name} is not set: pass --param="${name}=<value>", ${where}`);
  if (missing.length) throw new PackageCheckError(missing.join('\n'));
  const cluster = values.forwarderClusterArn as string;
  if (!EKS_CLUSTER_ARN.test(cluster)) {
    throw new PackageCheckError(
      `forwarderClusterArn "${cluster}" is not an EKS cluster ARN (arn:aws:eks:<region>:<account>:cluster/<name>): ` +
        REQUIRED_PARAMS.forwarderClusterArn,
    );
  }
}

/** Checks `cloudConfig`; the aws provider's parsed configuration, which the roles follow. */
export async function checkCloudConfig(p: CloudConfigParams): Promise<AwsProviderConfig | undefined> {
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
    return undefined;
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
  if (p.provider !== 'aws') return undefined;
  const config = parsed as AwsProviderConfig;
  if (config.ownerId !== p.awsOwnerId) {
    throw new PackageCheckError(
      `cloudConfig "${p.cloudConfig}" has ownerId "${config.ownerId}" but awsOwnerId is "${p.awsOwnerId}": the IAM ` +
        'policy only allows changes to load balancers tagged with awsOwnerId, so every create would fail ' +
        `with AccessDenied. Set --param="awsOwnerId=${config.ownerId}" or change ownerId in the file`,
    );
  }
  return config;
}

/**
 * The functions' roles for `config`, rendered with the resolved parameter values
 * (serverless.yml's `custom.iamParameters`): what the plugin puts in the template in place of
 * infra/iam/function-roles.json's.
 */
export function packagedRoles(config: AwsProviderConfig, parameters: Readonly<Record<string, unknown>>) {
  const missing = Object.keys(PARAMETERS).filter((k) => typeof parameters[k] !== 'string');
  if (missing.length) {
    throw new PackageCheckError(
      `serverless.yml's custom.iamParameters lacks ${missing.join(', ')}: the roles cannot be generated ` +
        '(infra/iam/function-roles.ts PARAMETERS lists what they need)',
    );
  }
  return functionRolesDocument(roleOptionsOf(config), parameters as RoleParameters);
}

/** The configured Regions' names, the primary first. */
export function configuredRegionNames(config: AwsProviderConfig): string[] {
  return configuredRegions(config).map((r) => r.region);
}

/** A regional ARN of the provider's services, as a role's Resource holds it: its Region part. */
const PROVIDER_ARN =
  /^arn:(?:\$\{AWS::Partition\}|aws[a-z-]*):(elasticloadbalancing|ec2|wafv2|acm):(\$\{AWS::Region\}|[a-z0-9-]+):/;

interface TemplateStatement {
  Action?: string | string[];
  Resource?: unknown;
}
interface TemplateRole {
  Type?: string;
  Properties?: { Policies?: Array<{ PolicyDocument?: { Statement?: unknown[] } }> };
}

/** A statement as IAM will see it: an Fn::If's branches both count (the kubeconfig ones). */
function statementsOf(role: TemplateRole): TemplateStatement[] {
  const raw = (role.Properties?.Policies ?? []).flatMap((p) => p.PolicyDocument?.Statement ?? []);
  return raw.flatMap((s) => {
    const branches = (s as { 'Fn::If'?: unknown[] })['Fn::If'];
    return (branches ? branches.slice(1) : [s]).filter(
      (x): x is TemplateStatement => x !== null && typeof x === 'object' && !('Ref' in x),
    );
  });
}

const arnText = (r: unknown): string | undefined =>
  typeof r === 'string'
    ? r
    : typeof (r as { 'Fn::Sub'?: unknown })?.['Fn::Sub'] === 'string'
      ? (r as { 'Fn::Sub': string })['Fn::Sub']
      : undefined;

/** The Regions a role's provider ARNs name, `${AWS::Region}` read as the deployment's. */
function regionsOf(role: TemplateRole, deployRegion: string): Set<string> {
  const regions = new Set<string>();
  for (const s of statementsOf(role)) {
    for (const r of [s.Resource].flat()) {
      const m = PROVIDER_ARN.exec(arnText(r) ?? '');
      if (m) regions.add(m[2] === '${AWS::Region}' ? deployRegion : m[2]!);
    }
  }
  return regions;
}

const sortedList = (s: Iterable<string>) => [...s].sort().join(', ');

/**
 * The built template's function roles against the configuration they were generated from: every
 * role that names a Region names exactly the configured ones, and Global Accelerator's actions are
 * there exactly when the configuration has `globalAccelerator`. Anything else means something
 * replaced the generated roles, and a deploy would give AccessDenied in a Region (or more than
 * the configuration asks for).
 */
export function checkTemplateRoles(
  template: { Resources?: Record<string, unknown> },
  config: AwsProviderConfig,
  deployRegion: string,
  cloudConfig: string,
): void {
  const expected = new Set(configuredRegions(config).map((r) => r.region));
  const resources = template.Resources ?? {};
  const roles = FUNCTION_NAMES.map(
    (fn) => [roleLogicalId(fn), resources[roleLogicalId(fn)] as TemplateRole] as const,
  );
  const problems: string[] = [];
  /** Roles with the same Regions wrong, named together. */
  const byProblem = new Map<string, string[]>();
  let regional = 0;
  for (const [id, role] of roles) {
    if (role?.Type !== 'AWS::IAM::Role') {
      problems.push(`${id} is not in the template`);
      continue;
    }
    const regions = regionsOf(role, deployRegion);
    if (regions.size === 0) continue;
    regional++;
    const missing = [...expected].filter((r) => !regions.has(r));
    const extra = [...regions].filter((r) => !expected.has(r));
    if (missing.length || extra.length) {
      const what =
        `cover ${sortedList(regions)}` +
        (missing.length ? `, not ${sortedList(missing)} (their calls there would be AccessDenied)` : '') +
        (extra.length ? `, and ${sortedList(extra)}, which the configuration does not name` : '');
      (byProblem.get(what) ?? byProblem.set(what, []).get(what)!).push(id);
    }
  }
  for (const [what, ids] of byProblem) problems.push(`${ids.join(', ')} ${what}`);
  if (regional === 0) problems.push('no function role names a Region of the load balancers');
  const ga = roles.some(([, role]) =>
    statementsOf(role ?? {}).some((s) =>
      [s.Action ?? []].flat().some((a) => a.startsWith('globalaccelerator:')),
    ),
  );
  const wantGa = config.globalAccelerator !== undefined;
  if (ga !== wantGa) {
    problems.push(
      wantGa
        ? 'no role holds Global Accelerator, which the configuration configures'
        : 'the roles hold Global Accelerator, which the configuration does not configure',
    );
  }
  if (!problems.length) return;
  throw new PackageCheckError(
    `the packaged roles do not match cloudConfig "${cloudConfig}" (Regions ${sortedList(expected)}` +
      `${wantGa ? ', Global Accelerator' : ''}): ${problems.join('; ')}. The roles are generated from ` +
      'cloudConfig at package time (infra/serverless/plugin.js); remove whatever replaces them ' +
      '(resources.Resources.*FunctionRole in serverless.yml, or another plugin)',
  );
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
