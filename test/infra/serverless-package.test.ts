/**
 * `osls package` produces the CloudFormation template offline, with no AWS credentials; the
 * template has everything the deployment promises.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const INSTANCE = '6f1d3c2a-8b4e-4f7a-9c1d-2e3f4a5b6c7d';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: unknown };
let resources: Record<string, Resource>;

const byType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'sls-package-'));
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_REGION: 'eu-west-1', SLS_TELEMETRY_DISABLED: '1' };
  for (const k of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE'])
    delete env[k];
  // awsOwnerId, karmadaInstanceId and forwarderClusterArn have no defaults: a deployment names them.
  const params = [
    '--param',
    'awsOwnerId=karmada-ci',
    '--param',
    `karmadaInstanceId=${INSTANCE}`,
    '--param',
    'forwarderClusterArn=arn:aws:eks:eu-west-1:123456789012:cluster/ci',
  ];
  await run(
    'npx',
    ['osls', 'package', '--stage', 'ci', '--region', 'eu-west-1', '--package', out, ...params],
    {
      cwd: ROOT,
      env,
      timeout: 240_000,
    },
  );
  resources = JSON.parse(
    readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8'),
  ).Resources;
}, 250_000);

describe('osls package', () => {
  it('has every function on nodejs22.x, bundled for node20', () => {
    const fns = byType('AWS::Lambda::Function').map(([, r]) => r.Properties);
    expect(fns.map((f) => f.FunctionName).sort()).toEqual(
      ['http', 'invoke', 'resync', 'sqs', 'sweep', 'token']
        .map((f) => `multicluster-cloud-provider-ci-${f}`)
        .sort(),
    );
    for (const f of fns) {
      expect(f.Runtime).toBe('nodejs22.x');
      expect(f.Handler).toMatch(/^functions\/\w+\.handler$/);
      expect(f.Environment.Variables.MULTICLUSTER_PROVIDER).toBeTruthy();
    }
  });

  it('has a FIFO queue with a redrive policy to a FIFO dead-letter queue', () => {
    const queues = Object.fromEntries(byType('AWS::SQS::Queue'));
    const queue = queues.NotificationQueue!.Properties;
    expect(queue.FifoQueue).toBe(true);
    expect(queue.RedrivePolicy.deadLetterTargetArn).toEqual({
      'Fn::GetAtt': ['NotificationDeadLetterQueue', 'Arn'],
    });
    expect(queue.RedrivePolicy.maxReceiveCount).toBeGreaterThan(1);
    expect(queues.NotificationDeadLetterQueue!.Properties.FifoQueue).toBe(true);
  });

  it('feeds the sqs function with ReportBatchItemFailures, under reserved concurrency', () => {
    const [[, mapping]] = byType('AWS::Lambda::EventSourceMapping') as [[string, Resource]];
    expect(mapping.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(mapping.Properties.EventSourceArn).toEqual({ 'Fn::GetAtt': ['NotificationQueue', 'Arn'] });
    const sqsFn = byType('AWS::Lambda::Function').find(([, r]) =>
      r.Properties.FunctionName.endsWith('-sqs'),
    )![1];
    expect(sqsFn.Properties.ReservedConcurrentExecutions).toBeGreaterThan(0);
  });

  it('derives reserved concurrency and per-container ELBv2 rate from the one budget parameter', () => {
    const fns = Object.fromEntries(
      byType('AWS::Lambda::Function').map(([, r]) => [
        r.Properties.FunctionName.split('-').pop(),
        r.Properties,
      ]),
    );
    const env = (f: string) => fns[f]!.Environment.Variables;
    // elbv2CallsPerSecond: 2 → 2 sqs containers × 1 call/s each.
    expect(env('sqs').ELBV2_CALLS_PER_SECOND).toBe('2');
    expect(
      fns.sqs!.ReservedConcurrentExecutions * Number(env('sqs').ELBV2_CALLS_PER_SECOND_PER_CONTAINER),
    ).toBe(2);
    expect(env('resync').RESYNC_PERIOD_SECONDS).toBe('600');
  });

  it('schedules the resync, the orphan sweep and the token rotation', () => {
    const rules = byType('AWS::Events::Rule').map(([, r]) => r.Properties);
    expect(rules.map((r) => r.ScheduleExpression).sort()).toEqual([
      'rate(1 hour)',
      'rate(10 minutes)',
      'rate(15 minutes)',
    ]);
  });

  it('alarms on the dead-letter queue depth', () => {
    const alarms = byType('AWS::CloudWatch::Alarm').map(([, r]) => r.Properties);
    const dlq = alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible');
    expect(dlq?.Dimensions[0].Value).toEqual({ 'Fn::GetAtt': ['NotificationDeadLetterQueue', 'QueueName'] });
    expect(dlq?.Threshold).toBe(0);
  });

  it('runs each function under its own role, with no mutating action on every resource', () => {
    const fns = byType('AWS::Lambda::Function');
    const roles = Object.fromEntries(byType('AWS::IAM::Role'));
    expect(byType('AWS::IAM::Policy')).toEqual([]);
    const used = new Set<string>();
    for (const [id, fn] of fns) {
      const ref = fn.Properties.Role?.['Fn::GetAtt']?.[0];
      expect(ref, `${id} has a role of its own`).toMatch(/FunctionRole$/);
      expect(used.has(ref), `${id} shares ${ref}`).toBe(false);
      used.add(ref);
      const statements = JSON.stringify(roles[ref]!.Properties.Policies);
      expect(statements).not.toContain('IamRoleLambdaExecution');
    }
    expect(roles.IamRoleLambdaExecution).toBeUndefined();
    for (const [id, role] of Object.entries(roles)) {
      const statements = role.Properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
      for (const s of statements.flatMap((x: any) => (x['Fn::If'] ? [x['Fn::If'][1]] : [x]))) {
        const mutating = [s.Action].flat().some((a: string) => !/:(Describe|Get|List)/.test(a));
        // GA's CreateAccelerator lists no resource type: "*" is the only choice, and our owner
        // tag is required in the request (test/security/iam.test.ts checks the condition).
        const createAccelerator = [s.Action]
          .flat()
          .every((a: string) => a === 'globalaccelerator:CreateAccelerator');
        if (mutating && !createAccelerator) expect([s.Resource].flat(), `${id}: ${s.Sid}`).not.toContain('*');
      }
    }
    const sweep = JSON.stringify(roles.SweepFunctionRole!.Properties.Policies);
    expect(sweep).toContain('"aws:ResourceTag/multicluster.karmada.io/owner":"karmada-ci"');
    expect(sweep).toContain('secret:multicluster-cloud-provider/kubeconfig-??????');
    expect(sweep).toContain(`"aws:ResourceTag/multicluster.karmada.io/instance":"${INSTANCE}"`);
    for (const [, fn] of byType('AWS::Lambda::Function')) {
      expect(fn.Properties.Environment.Variables.AWS_OWNER_ID).toBe('karmada-ci');
      expect(fn.Properties.Environment.Variables.KARMADA_INSTANCE_ID).toBe(INSTANCE);
    }
  });

  it('caps the directly called functions with reserved concurrency', () => {
    for (const name of ['http', 'invoke']) {
      const fn = byType('AWS::Lambda::Function').find(([, r]) =>
        r.Properties.FunctionName.endsWith(`-${name}`),
      )!;
      expect(fn[1].Properties.ReservedConcurrentExecutions, name).toBeGreaterThan(0);
    }
  });

  it('encrypts both queues explicitly', () => {
    for (const [id, q] of byType('AWS::SQS::Queue')) expect(q.Properties.SqsManagedSseEnabled, id).toBe(true);
  });
});
