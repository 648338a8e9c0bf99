/**
 * Each function's role holds only what its code calls. The real handler modules (functions/*.ts,
 * middy, the runtime built from the environment, the AWS provider) run against the Kubernetes API
 * stand-in, the ELBv2 simulator and a recording AWS JSON-protocol endpoint for SQS; every AWS
 * action they call is mapped to its IAM action and compared with the role serverless.yml gives
 * that function (infra/iam/function-roles.ts). Reading the kubeconfig and writing logs are
 * Lambda's and middy's, checked by iam.test.ts; consuming the queue is the event source mapping's.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { startKubeApiServer, type KubeApiServer } from '../../dev/kube-apiserver/index.js';
import { lambdaContext } from '../../dev/local/function-server.js';
import { awsConfigFor, seed } from '../../dev/local/pipeline.js';
import {
  INGRESS_CLASS_CONTROLLER,
  minimalIngress,
  serveMultiClusterService,
  upstreamScenario,
} from '../../dev/local/scenario.js';
import { FUNCTION_ACCESS, QUEUE_ACTIONS, type FunctionName } from '../../infra/iam/function-roles.js';
import { ELBV2_ACCESS, iamActionName } from '../../lib/providers/aws/iam.js';
import { MCI_FINALIZER, MCS_FINALIZER } from '../../lib/karmada/constants.js';
import { createKubeClient, loadKubeConfig } from '../../lib/kube/client-node.js';
import type { KubeClient } from '../../lib/kube/client.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import { NOTIFICATION_API_VERSION, NOTIFICATION_KIND } from '../../lib/notification/types.js';
import { sqsRecord } from '../support/sqs.js';

/** SQS API actions and the IAM action that authorises each. */
const SQS_IAM: Record<string, string> = {
  SendMessage: 'sqs:SendMessage',
  SendMessageBatch: 'sqs:SendMessage',
  ChangeMessageVisibility: 'sqs:ChangeMessageVisibility',
  ChangeMessageVisibilityBatch: 'sqs:ChangeMessageVisibility',
};

interface RecordingSqs {
  url: string;
  actions: string[];
  close(): Promise<void>;
}

async function startRecordingSqs(): Promise<RecordingSqs> {
  const actions: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
      actions.push(action);
      const input = JSON.parse(body || '{}') as { Entries?: Array<{ Id: string; MessageBody?: string }> };
      const Successful = (input.Entries ?? []).map((e) => ({
        Id: e.Id,
        MessageId: randomUUID(),
        ...(e.MessageBody ? { MD5OfMessageBody: createHash('md5').update(e.MessageBody).digest('hex') } : {}),
      }));
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ Successful, Failed: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    actions,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let api: KubeApiServer;
let sim: Elbv2Simulator;
let sqs: RecordingSqs;
let kube: KubeClient;

const QUEUE_ARN = 'arn:aws:sqs:us-east-1:123456789012:mcp-notifications.fifo';

/** The AWS actions (as IAM names them) one call of `run` made. */
async function observe(run: () => Promise<unknown>): Promise<Set<string>> {
  sim.calls.reset();
  sim.taggingCalls.reset();
  sqs.actions.length = 0;
  await run();
  const seen = new Set<string>();
  for (const [action, c] of Object.entries(sim.calls.all())) {
    if (c.calls > 0) seen.add(`elasticloadbalancing:${action}`);
  }
  for (const [action, c] of Object.entries(sim.taggingCalls.all())) {
    if (c.calls > 0) seen.add(`tag:${action}`);
  }
  for (const a of sqs.actions) seen.add(SQS_IAM[a] ?? `sqs:${a}`);
  return seen;
}

/** The role's actions for the services the code calls (ELBv2, and the queue beyond consuming it). */
function roleActions(fn: FunctionName): Set<string> {
  const access = FUNCTION_ACCESS[fn];
  return new Set([
    ...(access.elbv2 ? ELBV2_ACCESS[access.elbv2].map(iamActionName) : []),
    ...(access.queue ?? []).filter((u) => u !== 'consume').flatMap((u) => QUEUE_ACTIONS[u]),
  ]);
}

const sorted = (s: Iterable<string>) => [...s].sort();

function notification(change: string, obj: KubeObject) {
  const { apiVersion, kind, metadata } = obj;
  return {
    apiVersion: NOTIFICATION_API_VERSION,
    kind: NOTIFICATION_KIND,
    change,
    ref: { apiVersion, kind, namespace: metadata.namespace, name: metadata.name },
  };
}

async function removeWithoutCleanup(type: ResourceType, name: string) {
  const obj = await kube.get<KubeObject>(type, 'default', name);
  if (!obj) return;
  await kube.update(type, { ...obj, metadata: { ...obj.metadata, finalizers: [] } });
  await kube.delete(type, 'default', name);
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'fn-roles-'));
  api = await startKubeApiServer();
  sim = await startElbv2Simulator();
  sqs = await startRecordingSqs();
  const kubeconfig = api.writeKubeconfig(join(dir, 'kubeconfig.yaml'));
  kube = createKubeClient(loadKubeConfig({ file: kubeconfig }));
  await writeFile(join(dir, 'aws.json'), awsConfigFor(sim));
  Object.assign(process.env, {
    MULTICLUSTER_PROVIDER: 'aws',
    PROVIDER_INGRESS_CLASS: INGRESS_CLASS_CONTROLLER,
    CLOUD_CONFIG: join(dir, 'aws.json'),
    KUBECONFIG: kubeconfig,
    LOCK_NAMESPACE: 'karmada-system',
    NOTIFICATION_QUEUE_URL: `${sqs.url}/123456789012/mcp-notifications.fifo`,
    AWS_ENDPOINT_URL_SQS: sqs.url,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'roles',
    AWS_SECRET_ACCESS_KEY: 'roles',
    SWEEP_GRACE_SECONDS: '0',
    LOG_LEVEL: 'ERROR',
  });
  await seed(kube, upstreamScenario());
}, 60_000);

afterAll(async () => {
  await api?.close();
  await sim?.close();
  await sqs?.close();
});

describe('each function role holds only what its code calls', () => {
  it('sqs: reconciling (create, change, delete) and delaying a failed record stay within its role', async () => {
    const { handler } = await import('../../functions/sqs.js');
    const records = (items: object[]) =>
      ({ Records: items.map((n, i) => sqsRecord(`m${i}`, JSON.stringify(n))) }) as SQSEvent;
    const seen = await observe(async () => {
      await handler(
        records(
          upstreamScenario()
            .filter((o) => o.kind !== 'Deployment' && o.kind !== 'PropagationPolicy')
            .map((o) => notification('added', o)),
        ),
        lambdaContext('sqs'),
      );
      await handler(records([notification('resync', minimalIngress())]), lambdaContext('sqs'));
      // A record that cannot be parsed is failed and delayed (ChangeMessageVisibilityBatch).
      const bad = { ...sqsRecord('bad', '{"not":"a notification"}'), eventSourceARN: QUEUE_ARN };
      await handler({ Records: [bad] } as SQSEvent, lambdaContext('sqs'));
      await kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
      await kube.delete(Resources.MultiClusterService, 'default', 'serve');
      await handler(
        records([
          notification('deleted', minimalIngress()),
          notification('deleted', serveMultiClusterService()),
        ]),
        lambdaContext('sqs'),
      );
    });
    expect(seen.has('elasticloadbalancing:CreateLoadBalancer')).toBe(true);
    expect(seen.has('elasticloadbalancing:DeleteLoadBalancer')).toBe(true);
    expect(seen.has('sqs:ChangeMessageVisibility')).toBe(true);
    const role = roleActions('sqs');
    expect(sorted([...seen].filter((a) => !role.has(a)))).toEqual([]);
  }, 60_000);

  for (const fn of ['http', 'invoke'] as const) {
    it(`${fn}: reconciling stays within its role, which holds no queue right`, async () => {
      await seed(kube, [minimalIngress(`${fn}-ingress`)]);
      const mci = minimalIngress(`${fn}-ingress`);
      const call = async (change: string) => {
        if (fn === 'http') {
          const { handler } = await import('../../functions/http.js');
          const event = {
            requestContext: { http: { method: 'POST' } },
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ notifications: [notification(change, mci)] }),
            isBase64Encoded: false,
          } as unknown as APIGatewayProxyEventV2;
          return handler(event, lambdaContext(fn));
        }
        const { handler } = await import('../../functions/invoke.js');
        return handler(notification(change, mci), lambdaContext(fn));
      };
      const seen = await observe(async () => {
        await call('added');
        await kube.delete(Resources.MultiClusterIngress, 'default', `${fn}-ingress`);
        await call('deleted');
      });
      expect(seen.has('elasticloadbalancing:CreateListener')).toBe(true);
      const role = roleActions(fn);
      expect(sorted([...seen].filter((a) => !role.has(a)))).toEqual([]);
      expect([...role].filter((a) => a.startsWith('sqs:'))).toEqual([]);
    }, 60_000);
  }

  it('resync: reads fingerprint tags in bulk (Tagging API, else ELBv2) and sends to the queue, within its role', async () => {
    const { handler } = await import('../../functions/resync.js');
    // EC2's reads: its desired fingerprints hold the targets' zones, from the VPC's network when
    // the configuration lists no CIDRs (this one does: no EC2 call below). ACM's reads: they hold
    // the certificates discovered for HTTPS listeners without certificate-arn (none here).
    expect(sorted(roleActions('resync'))).toEqual(
      sorted([
        'acm:DescribeCertificate',
        'acm:ListCertificates',
        'ec2:DescribeSubnets',
        'ec2:DescribeVpcs',
        'elasticloadbalancing:DescribeLoadBalancers',
        'elasticloadbalancing:DescribeTags',
        'sqs:SendMessage',
        'tag:GetResources',
      ]),
    );
    // The Tagging API answers: no ELBv2 call at all.
    const seen = await observe(() => handler({}, lambdaContext('resync')));
    expect(sorted(seen)).toEqual(['sqs:SendMessage', 'tag:GetResources']);
    // It fails: the same tags through ELBv2 (DescribeTags only when load balancers of ours exist).
    sim.faults.failNext('GetResources', 2, { code: 'ThrottlingException' });
    const fallback = await observe(() => handler({}, lambdaContext('resync')));
    expect(sim.faults.pending('GetResources')).toBe(0);
    expect(sorted(fallback)).toEqual(
      expect.arrayContaining([
        'elasticloadbalancing:DescribeLoadBalancers',
        'sqs:SendMessage',
        'tag:GetResources',
      ]),
    );
    expect([...seen, ...fallback].filter((a) => !roleActions('resync').has(a))).toEqual([]);
  }, 60_000);

  it('sweep: lists and deletes orphans, exactly its role', async () => {
    // Two stacks whose objects vanished without their cleanup (finalizers removed by hand).
    const { handler: sqsHandler } = await import('../../functions/sqs.js');
    await seed(kube, [minimalIngress('orphan'), serveMultiClusterService()]);
    await sqsHandler(
      {
        Records: [
          sqsRecord('a', JSON.stringify(notification('added', minimalIngress('orphan')))),
          sqsRecord('b', JSON.stringify(notification('added', serveMultiClusterService()))),
        ],
      } as SQSEvent,
      lambdaContext('sqs'),
    );
    const mci = await kube.get<KubeObject>(Resources.MultiClusterIngress, 'default', 'orphan');
    expect(mci?.metadata.finalizers).toContain(MCI_FINALIZER);
    const mcs = await kube.get<KubeObject>(Resources.MultiClusterService, 'default', 'serve');
    expect(mcs?.metadata.finalizers).toContain(MCS_FINALIZER);
    await removeWithoutCleanup(Resources.MultiClusterIngress, 'orphan');
    await removeWithoutCleanup(Resources.MultiClusterService, 'serve');
    const { handler } = await import('../../functions/sweep.js');
    let deleted: string[] = [];
    const seen = await observe(async () => {
      deleted = (await handler({}, lambdaContext('sweep'))).deleted;
    });
    expect(deleted.sort()).toEqual(['mci/default/orphan', 'mcs/default/serve']);
    // The managed security groups' two actions: this configuration names security groups, so
    // there are none to list or delete (a deployment without them needs both, nothing more).
    // These stacks have no Shield protection either: the sweep's Shield reads and deletion (of a
    // swept load balancer's protection of ours) are exercised in test/integration/aws-edge.test.ts,
    // and its Global Accelerator steps (this configuration has no globalAccelerator, so the sweep
    // lists no accelerator) in test/integration/aws-accelerator-e2e.test.ts.
    const groups = ['ec2:DescribeSecurityGroups', 'ec2:DeleteSecurityGroup'];
    expect(sorted(roleActions('sweep'))).toEqual(expect.arrayContaining(groups));
    expect(sorted(seen)).toEqual(
      sorted(
        [...roleActions('sweep')].filter(
          (a) => !groups.includes(a) && !a.startsWith('shield:') && !a.startsWith('globalaccelerator:'),
        ),
      ),
    );
  }, 60_000);
});
