/**
 * The README's "Deploy to AWS" walkthrough up to `osls package`, as CI runs it: the parameters
 * are read from the README, with the shipped complete configuration (config/aws.example.yaml);
 * then the template's contents, and the package-time checks failing `osls package` with their
 * message. The walkthrough's path over several Regions packages config/aws.multi-region.example.yaml
 * the same way, and its roles must cover both Regions and Global Accelerator.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../lib/metrics/index.js';
import { codeBlocks, commands, readmeSection } from '../support/readme.js';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

type Resource = { Type: string; Properties: Record<string, any>; Condition?: string };
type Template = { Resources: Record<string, Resource>; Outputs: Record<string, any>; Conditions?: any };

/**
 * The README's `PARAMS=(…)` of "Deploy to AWS", step 6, with the shipped example as the
 * configuration (the README has the operator copy it to config/aws.yaml and fill it in).
 */
function walkthroughParams(): string[] {
  const block = codeBlocks(readmeSection('Deploy to AWS')).find((b) => b.includes('PARAMS=('));
  if (!block) throw new Error('the README walkthrough has no PARAMS=(…) block');
  const params = [...block.slice(block.indexOf('PARAMS=(')).matchAll(/--param="([^"]+)"/g)].map((m) => m[1]!);
  expect(params).toContain('cloudConfig=config/aws.yaml');
  return params.map((p) => (p === 'cloudConfig=config/aws.yaml' ? 'cloudConfig=config/aws.example.yaml' : p));
}
const WALKTHROUGH_PARAMS = walkthroughParams();
const param = (key: string) => WALKTHROUGH_PARAMS.find((p) => p.startsWith(`${key}=`))!.slice(key.length + 1);
const SUBNETS = param('lambdaSubnetIds');
const SECURITY_GROUPS = param('lambdaSecurityGroupIds');

/** The `--region` of the README's `npx osls package` command. */
const REGION = (() => {
  const cmd = commands(readmeSection('Deploy to AWS'), 'npx osls package').at(0) ?? '';
  const m = /--region (\S+)/.exec(cmd);
  if (!m) throw new Error('the README walkthrough has no `npx osls package --region …`');
  return m[1]!;
})();

function oslsPackage(params: string[], extra: string[] = []) {
  const out = mkdtempSync(join(tmpdir(), 'sls-package-aws-'));
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_REGION: REGION, SLS_TELEMETRY_DISABLED: '1' };
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'])
    delete env[k];
  const args = ['osls', 'package', '--stage', 'prod', '--region', REGION, '--package', out];
  for (const p of params) args.push(`--param=${p}`);
  args.push(...extra);
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
const forwarderRole = () => template.Resources.ForwarderRole!.Properties;

/** The function roles' statements (both branches of an Fn::If). */
function roleStatements(
  t: Template,
): Array<{ Sid?: string; Action: string[]; Resource: unknown[]; Condition?: any }> {
  return Object.entries(t.Resources)
    .filter(([id, r]) => r.Type === 'AWS::IAM::Role' && id.endsWith('FunctionRole'))
    .flatMap(([, r]) => r.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement))
    .flatMap((s: any) => (s['Fn::If'] ? s['Fn::If'].slice(1) : [s]))
    .filter((s: any) => s.Action);
}
/** The Regions of every ELBv2, EC2, WAFv2 and ACM ARN the function roles name. */
function providerRegions(t: Template): string[] {
  const text = JSON.stringify(roleStatements(t).map((s) => s.Resource));
  return [
    ...new Set([...text.matchAll(/:(?:elasticloadbalancing|ec2|wafv2|acm):([^:]+):/g)].map((m) => m[1]!)),
  ].sort();
}
const gaActions = (t: Template) =>
  [...new Set(roleStatements(t).flatMap((s) => [s.Action].flat()))].filter((a) =>
    a.startsWith('globalaccelerator:'),
  );
/** The VPC ARNs CreateSecurityGroup's vpc half is allowed on. */
const vpcsOfCreateSecurityGroup = (t: Template) =>
  [
    ...new Set(
      roleStatements(t)
        .filter((s) => s.Sid === 'Ec2CreateSecurityGroupInVpc')
        .flatMap((s) => s.Resource.map((r: any) => r['Fn::Sub'] ?? r)),
    ),
  ].sort();
const functions = () => byType('AWS::Lambda::Function').map(([, r]) => r.Properties);

describe('osls package with the complete example configuration', () => {
  it('runs every function with the aws provider and the packaged configuration', () => {
    expect(functions()).toHaveLength(6);
    for (const f of functions()) {
      expect(f.Environment.Variables).toMatchObject({
        MULTICLUSTER_PROVIDER: 'aws',
        PROVIDER_INGRESS_CLASS: param('providerIngressClass'),
        CLOUD_CONFIG: 'config/aws.example.yaml',
        KUBECONFIG_SECRET_ID: param('kubeconfigSecretId'),
      });
    }
    const zip = readFileSync(join(out, 'sqs.zip'));
    expect(zip.includes(Buffer.from('config/aws.example.yaml'))).toBe(true);
  });

  it('puts every function in the VPC given by the params, its role with the ENI permissions', () => {
    for (const f of functions()) {
      expect(f.VpcConfig).toEqual({
        SubnetIds: SUBNETS.split(','),
        SecurityGroupIds: SECURITY_GROUPS.split(','),
      });
      const role = template.Resources[f.Role['Fn::GetAtt'][0]]!;
      expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain(
        'iam::aws:policy/service-role/AWSLambdaVPCAccessExecutionRole',
      );
    }
  });

  it('scopes the IAM policy to the configuration`s ownerId', () => {
    const iam = JSON.stringify(
      [...byType('AWS::IAM::Policy'), ...byType('AWS::IAM::Role')].map(([, r]) => r.Properties),
    );
    expect(iam).toContain('"aws:ResourceTag/multicluster.karmada.io/owner":"karmada-prod"');
  });

  it('gives the roles the configuration`s one Region and VPC, and no Global Accelerator it does not configure', () => {
    expect(providerRegions(template)).toEqual(['eu-west-1']);
    expect(gaActions(template)).toEqual([]);
    expect(vpcsOfCreateSecurityGroup(template)).toEqual([
      'arn:${AWS::Partition}:ec2:eu-west-1:${AWS::AccountId}:vpc/vpc-0abc12345678def00',
    ]);
  });

  it('gives the forwarder a role for EKS Pod Identity and a ready policy: send to the queue, nothing else', () => {
    expect(forwarderRole().AssumeRolePolicyDocument.Statement[0].Condition).toEqual({
      StringEquals: {
        'aws:SourceAccount': { Ref: 'AWS::AccountId' },
        'aws:RequestTag/eks-cluster-arn': param('forwarderClusterArn'),
        'aws:RequestTag/kubernetes-namespace': 'multicluster-forwarder',
        'aws:RequestTag/kubernetes-service-account': 'multicluster-forwarder',
      },
    });
    const role = template.Resources.ForwarderRole!.Properties;
    const send = {
      Sid: 'SendNotifications',
      Effect: 'Allow',
      Action: 'sqs:SendMessage',
      Resource: { 'Fn::GetAtt': ['NotificationQueue', 'Arn'] },
    };
    expect(role.Policies.flatMap((p: any) => p.PolicyDocument.Statement)).toEqual([send]);
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'pods.eks.amazonaws.com' },
        Action: ['sts:AssumeRole', 'sts:TagSession'],
      }),
    ]);
    // the IRSA document is the same policy, with the queue ARN filled in at deploy time
    const document = JSON.parse(
      (template.Outputs.ForwarderPolicyDocument.Value['Fn::Sub'] as string).replace(
        '${NotificationQueue.Arn}',
        'QUEUE_ARN',
      ),
    );
    expect(document.Statement).toEqual([{ ...send, Resource: 'QUEUE_ARN' }]);
    // the outputs the README's forwarder step reads
    const readme = readmeSection('Deploy to AWS');
    for (const key of ['NotificationQueueUrl', 'ForwarderRoleArn', 'ForwarderPolicyDocument']) {
      expect(template.Outputs, key).toHaveProperty(key);
      expect(readme).toContain(`$(output ${key})`);
    }
    expect(template.Outputs).toHaveProperty('DashboardUrl');
  });
});

/** The dashboard body with every `${…}` of its Fn::Sub replaced by a marker naming what it refers to. */
function dashboard() {
  const sub = template.Resources.Dashboard!.Properties.DashboardBody['Fn::Sub'] as string;
  const refs = [...sub.matchAll(/\$\{([A-Za-z0-9:.]+)\}/g)].map((m) => m[1]!);
  const body = JSON.parse(sub.replace(/\$\{([A-Za-z0-9:.]+)\}/g, 'ref:$1'));
  return { refs, body, text: sub };
}

describe('metrics, dashboard and alarms', () => {
  const env = () => functions()[0]!.Environment.Variables;
  const alarms = () => Object.fromEntries(byType('AWS::CloudWatch::Alarm'));

  it('gives the functions one metrics namespace per stage', () => {
    for (const f of functions()) {
      expect(f.Environment.Variables.POWERTOOLS_METRICS_NAMESPACE).toBe('multicluster-cloud-provider/prod');
      expect(f.Environment.Variables.POWERTOOLS_SERVICE_NAME).toBe('multicluster-cloud-provider');
    }
  });

  it('alarms on the reconcile error rate, ELBv2 throttling, Lambda throttles, queue age, dead letters and a failed token rotation', () => {
    const a = alarms();
    expect(Object.keys(a).sort()).toEqual(
      [
        'Elbv2ThrottlingAlarm',
        'NotificationBacklogAlarm',
        'NotificationDeadLetterAlarm',
        'ReconcileErrorRateAlarm',
        'SqsFunctionThrottlesAlarm',
        'TokenRotationFailedAlarm',
      ].sort(),
    );
    expect(a.TokenRotationFailedAlarm!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: 'TokenLambdaFunction' } }],
    });
    const stat = (alarm: string, id: string) =>
      a[alarm]!.Properties.Metrics.find((m: any) => m.Id === id).MetricStat.Metric;
    const rate = a.ReconcileErrorRateAlarm!.Properties;
    expect(rate.Metrics.find((m: any) => m.ReturnData).Expression).toBe(
      'IF(total > 0, 100 * FILL(failed, 0) / total, 0)',
    );
    expect(stat('ReconcileErrorRateAlarm', 'failed')).toEqual({
      Namespace: env().POWERTOOLS_METRICS_NAMESPACE,
      MetricName: METRIC_NAMES.reconciles,
      Dimensions: [
        { Name: 'service', Value: env().POWERTOOLS_SERVICE_NAME },
        { Name: 'Outcome', Value: 'failed' },
      ],
    });
    expect(stat('ReconcileErrorRateAlarm', 'total').Dimensions).toEqual([
      { Name: 'service', Value: env().POWERTOOLS_SERVICE_NAME },
    ]);
    expect(stat('Elbv2ThrottlingAlarm', 'throttled').MetricName).toBe(METRIC_NAMES.elbv2Throttles);
    expect(stat('Elbv2ThrottlingAlarm', 'calls').MetricName).toBe(METRIC_NAMES.elbv2Calls);
    expect(a.SqsFunctionThrottlesAlarm!.Properties).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: 'SqsLambdaFunction' } }],
    });
    expect(a.NotificationBacklogAlarm!.Properties.MetricName).toBe('ApproximateAgeOfOldestMessage');
    for (const alarm of Object.values(a)) expect(alarm.Properties.AlarmActions).toEqual([]);
  });

  it('has a dashboard whose body is valid JSON and refers only to resources of the stack', () => {
    const { refs, body } = dashboard();
    expect(body.widgets.length).toBeGreaterThanOrEqual(8);
    for (const ref of refs) {
      if (ref.startsWith('AWS::')) continue;
      expect(template.Resources, ref).toHaveProperty(ref.split('.')[0]!);
    }
    const alarmWidget = body.widgets.find((w: any) => w.type === 'alarm');
    expect(alarmWidget.properties.alarms.sort()).toEqual(
      Object.keys(alarms())
        .map((k) => `ref:${k}.Arn`)
        .sort(),
    );
  });

  it('charts every metric the functions emit, in their namespace, and no other', () => {
    const { text } = dashboard();
    const searched = [...text.matchAll(/SEARCH\('\{\\"([^"\\]+)\\",([^}]+)\} MetricName=\\"(\w+)\\"/g)];
    expect(searched.length).toBeGreaterThan(0);
    for (const [, namespace] of searched) expect(namespace).toBe(env().POWERTOOLS_METRICS_NAMESPACE);
    const named = new Set(searched.map((m) => m[3]!));
    const explicit = [...text.matchAll(/"multicluster-cloud-provider\/prod", "(\w+)"/g)].map((m) => m[1]!);
    for (const n of explicit) named.add(n);
    expect([...named].sort()).toEqual(Object.values(METRIC_NAMES).sort());
    // each SEARCH names the dimensions the functions publish that metric under
    const dims = Object.fromEntries(searched.map((m) => [`${m[3]}:${m[2]}`, true]));
    expect(Object.keys(dims).sort()).toEqual(
      [
        'Elbv2Calls:service,Action',
        'Elbv2Throttles:service,Action',
        'InvalidObjects:service,Kind,Reason',
        'ReconcileDuration:service,Kind',
        'Reconciles:service,Outcome',
        'RetryLater:service,Kind',
        'Waiting:service,Kind',
      ].sort(),
    );
  });
});

describe('the walkthrough over several Regions: config/aws.multi-region.example.yaml', () => {
  let multi: Template;
  let output = '';
  const MULTI = 'config/aws.multi-region.example.yaml';

  beforeAll(async () => {
    // The README has the operator copy the two-Region example to config/aws.yaml.
    expect(commands(readmeSection('Deploy to AWS'), 'cp ')).toContain(`cp ${MULTI} config/aws.yaml`);
    // ...and to set the IAM pins to both Regions' subnets and groups, as the check demands.
    const pins = {
      awsAllowedSubnets:
        'subnet-0aaa1111bbbb2222c,subnet-0bbb7777cccc8888d,subnet-0ddd3333eeee4444f,subnet-0eee5555ffff6666a',
      awsAllowedSecurityGroups: 'sg-0123456789abcdef0,sg-0fedcba9876543210',
    };
    for (const [k, v] of Object.entries(pins)) {
      expect(readmeSection('Deploy to AWS')).toContain(`--param="${k}=${v}"`);
    }
    const params = WALKTHROUGH_PARAMS.map((p) => {
      if (p.startsWith('cloudConfig=')) return `cloudConfig=${MULTI}`;
      const pin = Object.entries(pins).find(([k]) => p.startsWith(`${k}=`));
      return pin ? `${pin[0]}=${pin[1]}` : p;
    });
    const pkg = oslsPackage(params, ['--verbose']);
    const { stdout, stderr } = await pkg.done;
    output = `${stdout}\n${stderr}`;
    multi = JSON.parse(readFileSync(join(pkg.out, 'cloudformation-template-update-stack.json'), 'utf8'));
  }, 250_000);

  it('checks the built template’s roles against the file before it is written', () => {
    expect(output).toContain(`function roles cover us-east-1, eu-west-1, as ${MULTI} configures`);
  });

  it('packages roles that cover both configured Regions, whatever --region the functions go to', () => {
    expect(REGION).toBe('eu-west-1');
    expect(providerRegions(multi)).toEqual(['eu-west-1', 'us-east-1']);
    // Not the deployment's Region as a placeholder: each Region by name.
    expect(
      JSON.stringify(
        roleStatements(multi).filter((s) => /elasticloadbalancing/.test(JSON.stringify(s.Resource))),
      ),
    ).not.toContain('${AWS::Region}');
    // Every role that changes load balancers does so in both Regions.
    const sqs = multi.Resources.SqsFunctionRole!;
    const create = sqs.Properties.Policies[0].PolicyDocument.Statement.find(
      (s: any) => s.Sid === 'ElbV2CreateLoadBalancerTaggedAsOurs',
    );
    expect(create.Resource.map((r: any) => r['Fn::Sub'])).toEqual(
      ['loadbalancer/app/*/*', 'loadbalancer/net/*/*'].flatMap((rest) =>
        ['us-east-1', 'eu-west-1'].map(
          (region) => `arn:\${AWS::Partition}:elasticloadbalancing:${region}:\${AWS::AccountId}:${rest}`,
        ),
      ),
    );
  });

  it('holds Global Accelerator, which the file configures, and CreateSecurityGroup only in its two VPCs', () => {
    expect(gaActions(multi)).toEqual(
      expect.arrayContaining(['globalaccelerator:CreateAccelerator', 'globalaccelerator:DeleteAccelerator']),
    );
    expect(vpcsOfCreateSecurityGroup(multi)).toEqual([
      'arn:${AWS::Partition}:ec2:eu-west-1:${AWS::AccountId}:vpc/vpc-0fed98765432cba00',
      'arn:${AWS::Partition}:ec2:us-east-1:${AWS::AccountId}:vpc/vpc-0abc12345678def00',
    ]);
  });

  it('packages the file with every function', () => {
    for (const [, f] of Object.entries(multi.Resources).filter(
      ([, r]) => r.Type === 'AWS::Lambda::Function',
    )) {
      expect(f.Properties.Environment.Variables.CLOUD_CONFIG).toBe(MULTI);
    }
  });
});

describe('package-time checks', () => {
  const without = (key: string) => WALKTHROUGH_PARAMS.filter((p) => !p.startsWith(`${key}=`));

  it('a missing karmadaInstanceId stops with one line naming it and how to find its value', async () => {
    const message = await packageError(without('karmadaInstanceId'));
    const lines = message.split('\n').filter((l) => l.trim() !== '');
    expect(lines.filter((l) => l.includes('karmadaInstanceId'))).toEqual([
      `karmadaInstanceId is not set: pass --param="karmadaInstanceId=<value>", the UID of the Karmada API server's kube-system namespace: kubectl --context karmada-apiserver get namespace kube-system -o jsonpath='{.metadata.uid}'`,
    ]);
    // osls's own frame (the packaging line, environment, docs, "Error:") and that one line.
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(message).not.toMatch(/Cannot resolve variable|Variables resolution/);
  }, 120_000);

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
