/**
 * The topology of one object: built from the AWS model's desired stack and the slices behind it
 * (which cluster each target comes from, its share of the traffic), with what a change plan is
 * still to do (targets draining or registering, resources pending), blocked clusters, and the
 * Mermaid text `npm run plan -- --graph` writes.
 */
import { describe, expect, it } from 'vitest';
import { buildIngressStack, type Operation } from '../../lib/providers/aws/index.js';
import type { AcceleratorOperation, DesiredAccelerator } from '../../lib/providers/aws/accelerator/types.js';
import { buildTopology, failedTopology } from '../../lib/topology/build.js';
import { frontDoorOf } from '../../lib/topology/front-door.js';
import { toMermaid } from '../../lib/topology/mermaid.js';
import { collectedSlice, config, minimalIngress, path, service } from '../fixtures/aws/objects.js';

const slices = [
  collectedSlice('member1', 'serve', { addresses: ['10.0.1.10', '10.0.1.11', '!10.0.1.12'] }),
  collectedSlice('member2', 'serve', { addresses: ['172.20.0.20'] }),
];

function topology(mci = minimalIngress(), plan?: Operation[]) {
  const stack = buildIngressStack({ mci, services: [service('serve')], endpointSlices: slices, config });
  return buildTopology({
    object: mci,
    stack,
    endpointSlices: slices,
    region: 'eu-west-1',
    ...(plan ? { plan } : {}),
  });
}

describe('Function: buildTopology', () => {
  it('one Region, its load balancer, listener, rule and target group, the clusters behind it with their share', () => {
    const t = topology(
      minimalIngress({ status: { loadBalancer: { ingress: [{ hostname: 'lb.example.com' }] } } }),
    );
    expect(t.object).toStrictEqual({
      kind: 'MultiClusterIngress',
      namespace: 'default',
      name: 'minimal-ingress',
    });
    expect(t.frontDoors).toStrictEqual([]);
    expect(t.regions.map((r) => r.region)).toStrictEqual(['eu-west-1']);
    const [lb] = t.regions[0]!.loadBalancers;
    expect(lb).toMatchObject({ type: 'application', scheme: 'internal', dnsName: 'lb.example.com' });
    expect(lb!.listeners).toStrictEqual([
      {
        id: '80',
        protocol: 'HTTP',
        port: 80,
        certificates: [],
        defaultAction: { type: 'fixed-response', statusCode: '404' },
        rules: [
          {
            id: '80:*:Prefix:/testpath',
            priority: 1,
            conditions: [{ field: 'path', values: ['/testpath', '/testpath/*'] }],
            action: {
              type: 'forward',
              targetGroups: [{ id: 'default/minimal-ingress-serve:80', weight: 100 }],
            },
          },
        ],
      },
    ]);
    const [tg] = lb!.targetGroups;
    expect(tg!.healthCheck).toBe('HTTP / every 15s codes 200');
    expect(tg!.clusters.map((c) => [c.name, c.weight, c.targets.map((x) => x.id), c.notReady])).toStrictEqual(
      [
        ['member1', 66.7, ['10.0.1.10', '10.0.1.11'], 1],
        ['member2', 33.3, ['172.20.0.20'], 0],
      ],
    );
    expect(tg!.clusters[1]!.targets[0]).toStrictEqual({
      id: '172.20.0.20',
      port: 8080,
      state: 'registered',
      outsideVpc: true,
    });
  });

  it('a blocked cluster has no targets and is shown as blocked; the others take its share', () => {
    const t = topology(minimalIngress({ status: { trafficBlockClusters: ['member2'] } }));
    expect(t.blockedClusters).toStrictEqual(['member2']);
    const tg = t.regions[0]!.loadBalancers[0]!.targetGroups[0]!;
    expect(tg.clusters.map((c) => [c.name, c.weight])).toStrictEqual([['member1', 100]]);
  });

  it('shows what the plan still does: resources pending, targets registering and draining', () => {
    const tgId = 'default/minimal-ingress-serve:80';
    const plan: Operation[] = [
      {
        op: 'modify',
        resource: 'ListenerRule',
        id: '80:*:Prefix:/testpath',
        detail: 'conditions',
        calls: [],
      },
      {
        op: 'modify',
        resource: 'Targets',
        id: tgId,
        detail: 'targets +1 -1',
        calls: [
          {
            action: 'RegisterTargets',
            input: { TargetGroupArn: 'arn', Targets: [{ Id: '10.0.1.11', Port: 8080 }] },
          },
          {
            action: 'DeregisterTargets',
            input: { TargetGroupArn: 'arn', Targets: [{ Id: '10.0.1.12', Port: 8080 }] },
          },
        ],
      },
      { op: 'modify', resource: 'LoadBalancer', id: 'LoadBalancer', detail: 'fingerprint v1-x', calls: [] },
    ];
    const lb = topology(minimalIngress(), plan).regions[0]!.loadBalancers[0]!;
    expect(lb.pending).toBeUndefined();
    expect(lb.listeners[0]!.rules[0]!.pending).toBe('modify');
    const states = lb.targetGroups[0]!.clusters.flatMap((c) =>
      c.targets.map((t) => `${c.name} ${t.id} ${t.state}`),
    );
    expect(states).toStrictEqual([
      'member1 10.0.1.10 registered',
      'member1 10.0.1.11 registering',
      // The endpoint that stopped being ready is deregistered: draining, no share of the traffic.
      'member1 10.0.1.12 draining',
      'member2 172.20.0.20 registered',
    ]);
    expect(lb.targetGroups[0]!.clusters.map((c) => c.weight)).toStrictEqual([66.7, 33.3]);
  });

  it('an object that builds no load balancer says why', () => {
    const t = failedTopology(minimalIngress(), 'spec.rules[0]: Service "nope" does not exist');
    expect(t.regions).toStrictEqual([]);
    expect(toMermaid(t)).toContain(
      'no load balancer<br/>spec.rules[0]: Service #quot;nope#quot; does not exist',
    );
  });
});

describe('Function: toMermaid', () => {
  it('draws every node and edge with the weights, and marks pending, draining and blocked', () => {
    const mci = minimalIngress({
      metadata: {
        name: 'shop',
        namespace: 'default',
        annotations: {
          'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80},{"HTTPS":443}]',
          'alb.ingress.kubernetes.io/certificate-arn': 'arn:aws:acm:eu-west-1:123456789012:certificate/a',
          'alb.ingress.kubernetes.io/ssl-redirect': '443',
        },
      },
      spec: {
        rules: [{ host: 'shop.example.com', http: { paths: [path('/cart', 'Prefix', 'serve', 80)] } }],
      },
      status: { trafficBlockClusters: ['member3'] },
    });
    const text = toMermaid(topology(mci));
    const lines = text.split('\n');
    expect(lines[0]).toBe('flowchart LR');
    expect(text).toContain('subgraph n2["Region eu-west-1"]');
    expect(text).toMatch(/\["HTTP:80"\]\n {4}n3 --> n4\n {4}n5\["default: redirect 301 to HTTPS:443"\]/);
    expect(text).toContain('["HTTPS:443<br/>certificate a<br/>SSL policy ELBSecurityPolicy-2016-08"]');
    expect(text).toContain('["priority 1<br/>host shop.example.com<br/>path /cart | /cart/*"]');
    expect(text).toMatch(/ -->\|100%\| n\d+\n/);
    expect(text).toMatch(/ -->\|66\.7%\| n\d+\n {4}n\d+\["10\.0\.1\.10:8080"\]/);
    expect(text).toContain('["cluster member3<br/>traffic blocked: no targets"]:::blocked');
    expect(text).toMatch(/n1 -\.-x n\d+/);
    // Every edge joins nodes that are defined.
    const defined = new Set([...text.matchAll(/(n\d+)\[/g)].map((m) => m[1]));
    for (const m of text.matchAll(/(n\d+) (?:-->|---|-\.-x)(?:\|[^|]*\|)? (n\d+)/g)) {
      expect(defined.has(m[1]) && defined.has(m[2]), m[0]).toBe(true);
    }
  });
});

describe('Function: frontDoorOf', () => {
  const desired = (dials: Record<string, number>): DesiredAccelerator => ({
    name: 'mcp-local-mci-default-shop-0123abcd',
    ipAddressType: 'IPV4',
    tags: {},
    listeners: ['TCP:80', 'TCP:443'].map((id) => ({
      id,
      protocol: 'TCP' as const,
      port: Number(id.slice(4)),
      clientAffinity: 'SOURCE_IP' as const,
      endpointGroups: Object.entries(dials).map(([region, dial]) => ({
        id: `${id}@${region}`,
        region,
        dial,
        healthCheck: { protocol: 'TCP', port: 80, intervalSeconds: 30, thresholdCount: 3 },
        endpoints: [],
      })),
    })),
  });
  const op = (o: string, resource: AcceleratorOperation['resource'], id: string) =>
    ({ op: o, resource, id, detail: '', calls: [] }) as AcceleratorOperation;

  it('each Region its dial, the listeners and addresses; a Region whose group changes is pending', () => {
    const door = frontDoorOf({
      desired: desired({ 'eu-west-1': 0, 'us-east-1': 100 }),
      status: { dnsName: 'a1.awsglobalaccelerator.com', ips: ['75.2.0.1', '99.83.0.1'] },
      plan: [
        op('modify', 'EndpointGroup', 'TCP:443@eu-west-1'),
        op('modify', 'EndpointGroup', 'TCP:80@eu-west-1'),
      ],
    });
    expect(door).toStrictEqual({
      id: 'Accelerator',
      kind: 'Global Accelerator',
      name: 'mcp-local-mci-default-shop-0123abcd',
      addresses: ['a1.awsglobalaccelerator.com', '75.2.0.1', '99.83.0.1'],
      listeners: ['TCP:80', 'TCP:443'],
      clientAffinity: 'SOURCE_IP',
      regions: [
        { region: 'eu-west-1', weight: 0, pending: 'modify' },
        { region: 'us-east-1', weight: 100 },
      ],
    });
  });

  it('a second accelerator being retired (named by its ARN) does not make the kept one pending', () => {
    const arn = 'arn:aws:globalaccelerator::123456789012:accelerator/0123';
    const door = frontDoorOf({
      desired: desired({ 'us-east-1': 100 }),
      plan: [op('modify', 'Accelerator', arn)],
    });
    expect(door?.pending).toBeUndefined();
    expect(
      frontDoorOf({ desired: desired({}), plan: [op('create', 'Accelerator', 'Accelerator')] })?.pending,
    ).toBe('create');
  });

  it('no front door when the plan brings GA to no accelerator (the one there is retired)', () => {
    expect(
      frontDoorOf({ plan: [op('delete', 'Accelerator', 'arn:aws:globalaccelerator::1:accelerator/x')] }),
    ).toBe(undefined);
  });
});
