/**
 * The README's "Deploy to AWS" walkthrough up to `osls package`, as CI runs it: the parameters
 * are read from the README, with the shipped complete configuration (config/aws.example.yaml);
 * then the template's contents, and the package-time checks failing `osls package` with their
 * message.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '../../lib/metrics/index.js';
import { codeBlocks, readmeSection } from '../support/readme.js';

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

  it('gives the forwarder a role for EKS Pod Identity and a ready policy: send to the queue, nothing else', () => {
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
      ].sort(),
    );
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
