/**
 * The accelerator record (a ConfigMap in the record namespace) spares a reconcile GA's reads, but
 * whoever can write a ConfigMap there can write one. A record is trusted only as far as GA confirms
 * it: before a change is planned against it, its accelerator must carry this stack's ownership tags
 * (owner, instance, stack) and every listener and endpoint group ARN must lie under that
 * accelerator's ARN; an accelerator it lists as retiring must be this stack's too. A record that
 * fails is told (a log line, a Warning Event on the object), and GA is read instead: nothing it
 * names is changed. The targets records and the Region markers name nothing that is not looked up
 * again by ownership tags; the last test checks that a forged one changes nothing foreign either.
 */
import { CreateAcceleratorCommand, TagResourceCommand } from '@aws-sdk/client-global-accelerator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { endpointsIn, gaClientFor, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import type { Cluster } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import {
  KubeAcceleratorRecords,
  type AcceleratorRecord,
} from '../../lib/providers/aws/accelerator/record.js';
import { KubeTargetRecords } from '../../lib/providers/aws/deploy/target-records.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { edit, notify, notifyChange, startHarness, type Harness } from '../support/harness.js';
import { ALLOW_ALL } from '../support/tenant-policy.js';

const GA = 'multicluster.karmada.io/global-accelerator';
const RECORD_NAMESPACE = 'karmada-system';

let sim: Elbv2Simulator;
let ga: GaSimulator;
let h: Harness;
let clock: number;
let records: KubeAcceleratorRecords;
/** GA's calls, as answered. */
let gaCalls: string[];

/** `name`, accelerated, routing to the Service `service`. */
function accelerated(name: string, service: string, annotations: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace: 'default', annotations: { [GA]: 'true', ...annotations } },
    spec: {
      rules: [
        {
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: service, port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  } as KubeObject;
}

/** Another object's accelerator (`web`, member1), and the tenant's (`tenant`, member2 only). */
const web = () => accelerated('web', 'serve');
const tenant = (annotations: Record<string, string> = {}) => accelerated('tenant', 'solo', annotations);

async function apply(obj: KubeObject) {
  const existing = await h.kube.get<KubeObject>(
    Resources.MultiClusterIngress,
    'default',
    obj.metadata.name ?? '',
  );
  if (!existing) await h.kube.create(Resources.MultiClusterIngress, obj);
  else {
    await h.kube.update(Resources.MultiClusterIngress, {
      ...existing,
      metadata: { ...existing.metadata, annotations: obj.metadata.annotations },
    } as KubeObject);
  }
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(obj, i === 0 ? 'added' : 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
}

const accelerators = () => ga.snapshot();
const of = (stack: string) => accelerators().find((a) => a.Tags?.[STACK_TAG] === stack);
const dials = (stack: string) =>
  (of(stack)?.Listeners ?? []).flatMap((l) =>
    (l.EndpointGroups as Array<{ TrafficDialPercentage?: number }>).map((g) => g.TrafficDialPercentage),
  );
async function recordOf(stack: string): Promise<AcceleratorRecord> {
  const r = await records.read(stack);
  expect(r?.accelerator, `record of ${stack}`).toBeDefined();
  return r!;
}

async function warnings(name: string): Promise<string[]> {
  const events = await h.kube.list<KubeObject & { reason: string; message: string; type: string }>(
    Resources.Event,
    { namespace: 'default' },
  );
  return events.items
    .filter((e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === name)
    .filter((e) => e.type === 'Warning')
    .map((e) => `${e.reason}: ${e.message}`);
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  clock = Date.parse('2026-12-02T00:00:00Z');
  sim = await startElbv2Simulator({ inProcess: true });
  gaCalls = [];
  ga = await startGaSimulator({
    inProcess: true,
    deployMs: 60_000,
    now: () => clock,
    endpoints: endpointsIn([sim]),
    afterCall: (a) => gaCalls.push(a),
  });
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(sim, {
      globalAccelerator: { enabled: false, endpoint: ga.url },
      // The closed default allows no accelerator to an internal configuration.
      tenantPolicy: ALLOW_ALL,
    }),
  });
  records = new KubeAcceleratorRecords(h.kube, RECORD_NAMESPACE, 'local', h.logger);
  const solo = serveService();
  await h.seed([
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    serveService(),
    resourceBinding('serve', ['member1']),
    collectedSlice('member1', ['10.0.128.11']),
    { ...solo, metadata: { ...solo.metadata, name: 'solo' } },
    resourceBinding('solo', ['member2']),
    collectedSlice('member2', ['10.0.144.21'], 'solo'),
  ]);
  await apply(web());
  await apply(tenant());
  clock += 61_000;
  expect(of('mci/default/web')).toBeDefined();
  expect(of('mci/default/tenant')).toBeDefined();
});
afterEach(async () => {
  await h.close();
  await ga.close();
  await sim.close();
});

describe('a forged accelerator record changes nothing it names that is not the stack’s', () => {
  it('a record naming another object’s accelerator: that accelerator is left exactly as it was', async () => {
    const victim = await recordOf('mci/default/web');
    await records.write('mci/default/tenant', { fingerprint: 'forged', accelerator: victim.accelerator! });
    const before = structuredClone(of('mci/default/web'));
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=40' }));
    expect(of('mci/default/web')).toEqual(before);
    // The tenant's own accelerator got the change, read from GA instead.
    expect(dials('mci/default/tenant')).toEqual([40]);
    expect(await warnings('tenant')).toEqual([expect.stringMatching(/^AcceleratorRecordRejected: /)]);
    expect(h.logger.lines.some((l) => l.message.startsWith('accelerator record ignored'))).toBe(true);
  });

  it('a record whose endpoint groups are another accelerator’s: their dials are not touched', async () => {
    const victim = await recordOf('mci/default/web');
    const own = await recordOf('mci/default/tenant');
    const victimGroup = victim.accelerator!.listeners![0]!.endpointGroups[0]!.arn;
    const forged = structuredClone(own.accelerator!);
    forged.listeners![0]!.endpointGroups[0]!.arn = victimGroup;
    await records.write('mci/default/tenant', { fingerprint: 'forged', accelerator: forged });
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=30' }));
    expect(dials('mci/default/web')).toEqual([100]);
    expect(dials('mci/default/tenant')).toEqual([30]);
    expect(await warnings('tenant')).toEqual([expect.stringMatching(/^AcceleratorRecordRejected: /)]);
  });

  it('a record that lists another object’s accelerator as retiring: it is not disabled', async () => {
    const victim = await recordOf('mci/default/web');
    const own = await recordOf('mci/default/tenant');
    await records.write('mci/default/tenant', {
      ...own,
      fingerprint: 'forged',
      retiring: [victim.accelerator!.arn],
    });
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=20' }));
    expect(of('mci/default/web')?.Enabled).toBe(true);
    expect(of('mci/default/web')?.Tags?.['multicluster.karmada.io/retiring']).toBeUndefined();
    expect(dials('mci/default/tenant')).toEqual([20]);
    expect(await warnings('tenant')).toEqual([expect.stringMatching(/^AcceleratorRecordRejected: /)]);
  });

  it('a record naming another deployment’s accelerator: untouched, and its owner is not named', async () => {
    const client = gaClientFor(ga);
    const out = await client.send(new CreateAcceleratorCommand({ Name: 'theirs', Enabled: true }));
    const arn = out.Accelerator?.AcceleratorArn ?? '';
    await client.send(
      new TagResourceCommand({
        ResourceArn: arn,
        Tags: [
          { Key: OWNER_TAG, Value: 'karmada-other' },
          { Key: STACK_TAG, Value: 'mci/tenant-x/secret' },
        ],
      }),
    );
    const own = await recordOf('mci/default/tenant');
    await records.write('mci/default/tenant', {
      fingerprint: 'forged',
      accelerator: { ...own.accelerator!, arn, listeners: [] },
    });
    const before = structuredClone(accelerators().find((a) => a.AcceleratorArn === arn));
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=60' }));
    expect(accelerators().find((a) => a.AcceleratorArn === arn)).toEqual(before);
    expect(dials('mci/default/tenant')).toEqual([60]);
    const [warning, ...more] = await warnings('tenant');
    expect(more).toEqual([]);
    expect(warning).toMatch(/^AcceleratorRecordRejected: /);
    for (const secret of ['karmada-other', 'tenant-x', arn]) expect(warning).not.toContain(secret);
  });

  it('the dials lowered before a drain are the stack’s own, not those a forged record names', async () => {
    const victim = await recordOf('mci/default/web');
    const own = await recordOf('mci/default/tenant');
    // Same listeners as its own, so the forged record's plan is only a dial: on the victim's group.
    const forged = structuredClone(own.accelerator!);
    forged.listeners![0]!.endpointGroups[0]!.arn = victim.accelerator!.listeners![0]!.endpointGroups[0]!.arn;
    await records.write('mci/default/tenant', { ...own, accelerator: forged });
    // member2 (the tenant's only cluster) blocked: the tenant's Region is drained, web's is not.
    const [old, now] = await edit<Cluster>(
      h,
      Resources.Cluster,
      undefined,
      'member2',
      (c) => {
        c.status = { remedyActions: ['TrafficControl'] };
      },
      'status',
    );
    const results = await h.deliver(notifyChange('modified', now, old));
    // The pass lowers the dial, then waits for GA to deploy it before the Region's targets go.
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([
      expect.stringMatching(/traffic dial of us-east-1 set to 0/),
    ]);
    expect(dials('mci/default/web')).toEqual([100]);
    expect(dials('mci/default/tenant')).toEqual([0]);
    // (The wait is reported as the ensure path reports any retry: SyncLoadBalancerFailed.)
    expect((await warnings('tenant')).filter((w) => !w.startsWith('SyncLoadBalancerFailed'))).toEqual([
      expect.stringMatching(/^AcceleratorRecordRejected: /),
    ]);
  });

  it('an honest record is still trusted: a change costs no accelerator listing', async () => {
    gaCalls = [];
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=70' }));
    expect(gaCalls).not.toContain('ListAccelerators');
    expect(gaCalls).toContain('UpdateEndpointGroup');
    expect(dials('mci/default/tenant')).toEqual([70]);
    expect(await warnings('tenant')).toEqual([]);
  });
});

describe('the other records name nothing foreign that a reconcile then changes', () => {
  it('a targets record naming a foreign target group: its targets stay', async () => {
    const foreign = sim.state.createTargetGroup({
      Name: 'foreign-tg',
      Protocol: 'HTTP',
      Port: 80,
      VpcId: sim.network.vpcId,
      TargetType: 'ip',
      Tags: [{ Key: OWNER_TAG, Value: 'karmada-other' }],
    });
    const arn = foreign.TargetGroups?.[0]?.TargetGroupArn ?? '';
    sim.state.registerTargets({ TargetGroupArn: arn, Targets: [{ Id: '10.0.128.99', Port: 80 }] });
    const targets = new KubeTargetRecords(h.kube, RECORD_NAMESPACE, 'local', h.logger);
    const own = await targets.read('mci/default/tenant');
    await targets.write('mci/default/tenant', {
      fingerprint: own?.fingerprint ?? '',
      groups: {
        ...own?.groups,
        'foreign-tg': { fingerprint: 'x', targets: [{ Id: '10.0.128.99', Port: 80 }] },
      },
    });
    await apply(tenant({ [`${GA}-traffic-dials`]: 'us-east-1=50' }));
    await h.deliver(notify(tenant(), 'resync'));
    expect(
      sim
        .snapshot()
        .targets.filter((t) => t.TargetGroupArn === arn)
        .map((t) => t.Id),
    ).toEqual(['10.0.128.99']);
  });
});
