/**
 * Global Accelerator's model and plan (pure): the annotations, the desired accelerator of a stack,
 * whether a Region is drained, and the exact requests each plan makes.
 */
import { describe, expect, it } from 'vitest';
import type { MultiClusterService } from '../../lib/karmada/types.js';
import { regionDrained } from '../../lib/providers/aws/accelerator/drained.js';
import { acceleratorSettings, GA_KEYS } from '../../lib/providers/aws/accelerator/keys.js';
import {
  acceleratorFingerprint,
  acceleratorName,
  acceleratorPorts,
  buildAccelerator,
} from '../../lib/providers/aws/accelerator/model.js';
import {
  deleteAcceleratorOps,
  disableAccelerator,
  planAccelerator,
  RETIRING_TAG,
} from '../../lib/providers/aws/accelerator/plan.js';
import { planDialsDown } from '../../lib/providers/aws/accelerator/lower-dials.js';
import type { ActualAccelerator, RegionalEndpoint } from '../../lib/providers/aws/accelerator/types.js';
import { formatPlan } from '../../lib/providers/aws/deploy/operations.js';
import { buildServiceStack } from '../../lib/providers/aws/model/service.js';
import { resourcesOf, ResourceTypes, type Stack } from '../../lib/providers/aws/model/types.js';
import { collectedSlice, config, service } from '../fixtures/aws/objects.js';
import { arnRef } from '../../lib/providers/aws/deploy/refs.js';

const owner = { ownerId: 'team-a', stackId: 'mcs/default/serve' };
const LB = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/net/k8s-serve/0123456789abcdef';
const ACC = 'arn:aws:globalaccelerator::123456789012:accelerator/1234abcd-abcd-1234-abcd-1234abcd1234';

const mcs: MultiClusterService = {
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name: 'serve', namespace: 'default' },
  spec: { types: ['LoadBalancer'] },
};

function nlbStack(): Stack {
  return buildServiceStack({
    mcs,
    service: service('serve', [
      { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
      { name: 'dns', port: 53, targetPort: 'dns', protocol: 'UDP' },
    ]),
    endpointSlices: [
      collectedSlice('member1', 'serve', {
        addresses: ['10.0.1.10'],
        ports: [
          { name: 'http', port: 8080 },
          { name: 'dns', port: 5353 },
        ],
      }),
    ],
    config,
  });
}

const settings = (annotations: Record<string, string> = {}) => {
  const s = acceleratorSettings({ [GA_KEYS.enabled]: 'true', ...annotations }, false);
  if (!s) throw new Error('no settings');
  return s;
};

const east = (drained = false): RegionalEndpoint => ({ region: 'us-east-1', loadBalancerArn: LB, drained });

describe('the global-accelerator annotations', () => {
  it('are off by default, on by the key or by the configuration', () => {
    expect(acceleratorSettings({}, false)).toBeUndefined();
    expect(acceleratorSettings({ [GA_KEYS.enabled]: 'false' }, true)).toBeUndefined();
    expect(acceleratorSettings({}, true)).toStrictEqual({
      clientAffinity: 'NONE',
      ipAddressType: 'IPV4',
      dials: {},
      clientIpPreservation: true,
      endpointWeight: 128,
      healthCheck: {},
    });
  });

  it('read every setting', () => {
    expect(
      settings({
        [GA_KEYS.clientAffinity]: 'SOURCE_IP',
        [GA_KEYS.ipAddressType]: 'DUAL_STACK',
        [GA_KEYS.trafficDials]: 'us-east-1=10, eu-west-1=0',
        [GA_KEYS.clientIpPreservation]: 'false',
        [GA_KEYS.endpointWeight]: '200',
        [GA_KEYS.healthCheckProtocol]: 'HTTPS',
        [GA_KEYS.healthCheckPort]: '8443',
        [GA_KEYS.healthCheckPath]: '/ready',
        [GA_KEYS.healthCheckInterval]: '10',
        [GA_KEYS.healthCheckThreshold]: '5',
      }),
    ).toStrictEqual({
      clientAffinity: 'SOURCE_IP',
      ipAddressType: 'DUAL_STACK',
      dials: { 'us-east-1': 10, 'eu-west-1': 0 },
      clientIpPreservation: false,
      endpointWeight: 200,
      healthCheck: { protocol: 'HTTPS', port: 8443, path: '/ready', intervalSeconds: 10, thresholdCount: 5 },
    });
  });

  it.each([
    [GA_KEYS.enabled, 'yes', 'must be "true" or "false"'],
    [GA_KEYS.clientAffinity, 'STICKY', 'must be one of NONE, SOURCE_IP'],
    [GA_KEYS.ipAddressType, 'IPV6', 'must be one of IPV4, DUAL_STACK'],
    [GA_KEYS.trafficDials, 'us-east-1:10', 'entries are <region>=<percent>'],
    [GA_KEYS.trafficDials, 'mars-1=10', 'not an AWS Region name'],
    [GA_KEYS.trafficDials, 'us-east-1=101', 'a traffic dial is 0-100'],
    [GA_KEYS.trafficDials, 'us-east-1=1,us-east-1=2', 'names us-east-1 twice'],
    [GA_KEYS.endpointWeight, '256', 'must be an integer from 0 to 255'],
    [GA_KEYS.healthCheckInterval, '15', 'must be 10 or 30'],
    [GA_KEYS.healthCheckThreshold, '0', 'must be an integer from 1 to 10'],
    [GA_KEYS.healthCheckPath, 'ready', 'must start with "/"'],
  ])('%s: %s is refused naming the key (%s)', (key, value, why) => {
    expect(() => acceleratorSettings({ [key]: value }, true)).toThrowError(
      expect.objectContaining({
        field: key,
        reason: 'InvalidAcceleratorAnnotation',
        message: expect.stringContaining(why) as string,
      }),
    );
  });

  it('a path needs an HTTP or HTTPS health check', () => {
    expect(() =>
      settings({ [GA_KEYS.healthCheckProtocol]: 'TCP', [GA_KEYS.healthCheckPath]: '/ready' }),
    ).toThrowError(/needs multicluster.karmada.io\/global-accelerator-healthcheck-protocol HTTP or HTTPS/);
  });
});

describe('the desired accelerator', () => {
  it('has a listener per NLB port, TCP or UDP, each with one endpoint group per Region', () => {
    const stack = nlbStack();
    expect(acceleratorPorts(stack)).toStrictEqual([
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 80 },
    ]);
    const desired = buildAccelerator({
      owner,
      settings: settings({ [GA_KEYS.trafficDials]: 'eu-west-1=25' }),
      stack,
      endpoints: [east(), { region: 'eu-west-1', loadBalancerArn: 'arn:eu', drained: false }],
      defaultTags: { team: 'platform' },
    });
    expect(desired.name).toBe(acceleratorName(owner));
    expect(desired.name.length).toBeLessThanOrEqual(64);
    expect(desired.tags).toStrictEqual({
      team: 'platform',
      'multicluster.karmada.io/owner': 'team-a',
      'multicluster.karmada.io/stack': 'mcs/default/serve',
      'multicluster.karmada.io/resource': 'Accelerator',
    });
    expect(
      desired.listeners.map((l) => [l.id, l.endpointGroups.map((g) => `${g.region}:${g.dial}`)]),
    ).toStrictEqual([
      ['UDP:53', ['eu-west-1:25', 'us-east-1:100']],
      ['TCP:80', ['eu-west-1:25', 'us-east-1:100']],
    ]);
    expect(desired.listeners[1]?.endpointGroups[1]).toStrictEqual({
      id: 'TCP:80@us-east-1',
      region: 'us-east-1',
      dial: 100,
      healthCheck: { protocol: 'TCP', port: 80, intervalSeconds: 30, thresholdCount: 3 },
      endpoints: [{ id: LB, weight: 128, clientIpPreservation: true }],
    });
  });

  it('a drained Region gets dial 0, unless the annotation sets its dial', () => {
    const stack = nlbStack();
    const dial = (a: Record<string, string>) =>
      buildAccelerator({ owner, settings: settings(a), stack, endpoints: [east(true)] }).listeners[0]
        ?.endpointGroups[0]?.dial;
    expect(dial({})).toBe(0);
    expect(dial({ [GA_KEYS.trafficDials]: 'us-east-1=5' })).toBe(5);
  });

  it('refuses more than 10 listeners, and more than 10 endpoints in a Region', () => {
    const stack = nlbStack();
    const [listener] = resourcesOf(stack, ResourceTypes.Listener);
    const many: Stack = {
      ...stack,
      resources: [
        ...stack.resources,
        ...Array.from({ length: 9 }, (_, i) => ({
          ...listener!,
          id: `${1000 + i}`,
          spec: { ...listener!.spec, port: 1000 + i },
        })),
      ],
    };
    expect(() =>
      buildAccelerator({ owner, settings: settings(), stack: many, endpoints: [east()] }),
    ).toThrowError(
      expect.objectContaining({
        reason: 'AcceleratorLimitExceeded',
        message: expect.stringContaining('11 listeners') as string,
      }),
    );
    const eleven = Array.from({ length: 11 }, () => east());
    expect(() => buildAccelerator({ owner, settings: settings(), stack, endpoints: eleven })).toThrowError(
      /the endpoint group in us-east-1 would have 11 endpoints/,
    );
  });

  it('has a fingerprint that follows every setting', () => {
    const stack = nlbStack();
    const fp = (a: Record<string, string>, drained = false) =>
      acceleratorFingerprint(
        buildAccelerator({ owner, settings: settings(a), stack, endpoints: [east(drained)] }),
      );
    expect(fp({})).toBe(fp({}));
    expect(fp({})).not.toBe(fp({}, true));
    expect(fp({})).not.toBe(fp({ [GA_KEYS.clientAffinity]: 'SOURCE_IP' }));
  });
});

describe('whether a Region is drained', () => {
  const weighted = (drain: [boolean, boolean]): Stack => {
    const stack = nlbStack();
    const tg = resourcesOf(stack, ResourceTypes.TargetGroup)[0]!;
    const group = (cluster: string, d: boolean) => ({
      ...tg,
      id: `${tg.id}@${cluster}`,
      spec: { ...tg.spec, clusters: [cluster], ...(d ? { drain: true as const } : {}) },
    });
    return { ...stack, resources: [group('member1', drain[0]), group('member2', drain[1])] };
  };

  it('is when every cluster is blocked or at weight 0', () => {
    expect(regionDrained(weighted([false, false]), ['member1', 'member2'], new Set())).toBe(false);
    expect(regionDrained(weighted([true, false]), ['member1', 'member2'], new Set())).toBe(false);
    expect(regionDrained(weighted([true, false]), ['member1', 'member2'], new Set(['member2']))).toBe(true);
    expect(regionDrained(weighted([true, true]), ['member1', 'member2'], new Set())).toBe(true);
    expect(regionDrained(nlbStack(), ['member1', 'member2'], new Set(['member1', 'member2']))).toBe(true);
  });

  it('is not without a known cluster, nor for a cluster no group carries', () => {
    expect(regionDrained(nlbStack(), [], new Set())).toBe(false);
    expect(regionDrained(nlbStack(), ['member1'], new Set())).toBe(false);
  });
});

const actual = (over: Partial<ActualAccelerator> = {}): ActualAccelerator => {
  const desired = buildAccelerator({ owner, settings: settings(), stack: nlbStack(), endpoints: [east()] });
  return {
    arn: ACC,
    name: desired.name,
    ipAddressType: 'IPV4',
    enabled: true,
    status: 'DEPLOYED',
    dnsName: 'a1234.awsglobalaccelerator.com',
    ips: ['75.2.0.1', '99.83.0.1'],
    tags: { ...desired.tags },
    listeners: desired.listeners.map((l, i) => ({
      arn: `${ACC}/listener/${i}`,
      protocol: l.protocol,
      portRanges: [{ from: l.port, to: l.port }],
      clientAffinity: 'NONE',
      endpointGroups: l.endpointGroups.map((g) => ({
        arn: `${ACC}/listener/${i}/endpoint-group/east`,
        region: g.region,
        dial: g.dial,
        healthCheck: { ...g.healthCheck },
        endpoints: g.endpoints.map((e) => ({ ...e })),
      })),
    })),
    ...over,
  };
};

const pc = { externalManagedTags: [] };

describe('the accelerator plan', () => {
  it('creates the accelerator, then each listener, then its endpoint group, by placeholder', () => {
    const desired = buildAccelerator({ owner, settings: settings(), stack: nlbStack(), endpoints: [east()] });
    const plan = planAccelerator(desired, undefined, pc);
    expect(plan.map((o) => `${o.op} ${o.resource} ${o.id}`)).toStrictEqual([
      'create Accelerator Accelerator',
      'create AcceleratorListener UDP:53',
      'create EndpointGroup UDP:53@us-east-1',
      'create AcceleratorListener TCP:80',
      'create EndpointGroup TCP:80@us-east-1',
    ]);
    expect(plan[0]?.calls[0]).toStrictEqual({
      action: 'CreateAccelerator',
      input: {
        Name: desired.name,
        IpAddressType: 'IPV4',
        Enabled: true,
        Tags: [
          { Key: 'multicluster.karmada.io/owner', Value: 'team-a' },
          { Key: 'multicluster.karmada.io/resource', Value: 'Accelerator' },
          { Key: 'multicluster.karmada.io/stack', Value: 'mcs/default/serve' },
        ],
      },
      produces: 'Accelerator',
    });
    expect(plan[3]?.calls[0]).toStrictEqual({
      action: 'CreateListener',
      input: {
        AcceleratorArn: arnRef('Accelerator'),
        Protocol: 'TCP',
        PortRanges: [{ FromPort: 80, ToPort: 80 }],
        ClientAffinity: 'NONE',
      },
      produces: 'listener/TCP:80',
    });
    expect(plan[4]?.calls[0]).toStrictEqual({
      action: 'CreateEndpointGroup',
      input: {
        ListenerArn: arnRef('listener/TCP:80'),
        EndpointGroupRegion: 'us-east-1',
        EndpointConfigurations: [{ EndpointId: LB, Weight: 128, ClientIPPreservationEnabled: true }],
        TrafficDialPercentage: 100,
        HealthCheckProtocol: 'TCP',
        HealthCheckPort: 80,
        HealthCheckIntervalSeconds: 30,
        ThresholdCount: 3,
      },
      produces: 'group/TCP:80@us-east-1',
    });
    expect(formatPlan(plan)[4]).toBe(
      `+ create EndpointGroup TCP:80@us-east-1: us-east-1, traffic dial 100, ${LB} (weight 128, client IP preserved); health check TCP:80 every 30 s, threshold 3 [CreateEndpointGroup]`,
    );
  });

  it('plans nothing when GA holds the desired accelerator', () => {
    const desired = buildAccelerator({ owner, settings: settings(), stack: nlbStack(), endpoints: [east()] });
    expect(planAccelerator(desired, actual(), pc)).toStrictEqual([]);
  });

  it('updates what differs: affinity, a dial, the IP address type in place, a tag; deletes a stale listener first', () => {
    const desired = buildAccelerator({
      owner,
      settings: settings({ [GA_KEYS.clientAffinity]: 'SOURCE_IP', [GA_KEYS.ipAddressType]: 'DUAL_STACK' }),
      stack: nlbStack(),
      endpoints: [east(true)],
    });
    const current = actual();
    const stale = {
      arn: `${ACC}/listener/9`,
      protocol: 'TCP',
      portRanges: [{ from: 443, to: 443 }],
      clientAffinity: 'NONE',
      endpointGroups: [
        { ...current.listeners![0]!.endpointGroups[0]!, arn: `${ACC}/listener/9/endpoint-group/x` },
      ],
    };
    const plan = planAccelerator(
      desired,
      { ...current, tags: { ...current.tags, stray: 'x' }, listeners: [...current.listeners!, stale] },
      pc,
    );
    expect(formatPlan(plan)).toStrictEqual([
      '- delete EndpointGroup TCP:443@us-east-1: its listener no longer a listen port of the load balancer [DeleteEndpointGroup]',
      '- delete AcceleratorListener TCP:443: no longer a listen port of the load balancer [DeleteListener]',
      '~ modify Accelerator: ip address type IPV4 → DUAL_STACK (its IPv4 addresses are kept; two IPv6 addresses are added); untag stray [UpdateAccelerator, UntagResource]',
      '~ modify AcceleratorListener UDP:53: client affinity NONE → SOURCE_IP [UpdateListener]',
      '~ modify EndpointGroup UDP:53@us-east-1: traffic dial 100 → 0 [UpdateEndpointGroup]',
      '~ modify AcceleratorListener TCP:80: client affinity NONE → SOURCE_IP [UpdateListener]',
      '~ modify EndpointGroup TCP:80@us-east-1: traffic dial 100 → 0 [UpdateEndpointGroup]',
    ]);
    expect(plan[2]?.calls[0]).toStrictEqual({
      action: 'UpdateAccelerator',
      input: { AcceleratorArn: ACC, Name: desired.name, Enabled: true, IpAddressType: 'DUAL_STACK' },
    });
  });

  it('before the regional deploy, lowers only the dials going to 0, keeping the rest of the group', () => {
    const desired = buildAccelerator({
      owner,
      settings: settings({ [GA_KEYS.clientAffinity]: 'SOURCE_IP' }),
      stack: nlbStack(),
      endpoints: [east(true)],
    });
    const plan = planDialsDown(desired, actual());
    expect(plan.map((o) => o.id)).toStrictEqual(['UDP:53@us-east-1', 'TCP:80@us-east-1']);
    expect(plan[1]?.calls).toStrictEqual([
      {
        action: 'UpdateEndpointGroup',
        input: {
          EndpointGroupArn: `${ACC}/listener/1/endpoint-group/east`,
          EndpointConfigurations: [{ EndpointId: LB, Weight: 128, ClientIPPreservationEnabled: true }],
          HealthCheckProtocol: 'TCP',
          HealthCheckPort: 80,
          HealthCheckIntervalSeconds: 30,
          ThresholdCount: 3,
          TrafficDialPercentage: 0,
        },
      },
    ]);
    // Going up waits for the `after` phase.
    const up = buildAccelerator({ owner, settings: settings(), stack: nlbStack(), endpoints: [east()] });
    const zero = actual();
    for (const l of zero.listeners ?? []) for (const g of l.endpointGroups) g.dial = 0;
    expect(planDialsDown(up, zero)).toStrictEqual([]);
  });

  it('retires in steps: disable (marked), then listeners with their groups, then the accelerator', () => {
    const now = new Date('2026-12-02T00:00:00Z');
    expect(disableAccelerator(actual(), 'gone', now).calls).toStrictEqual([
      {
        action: 'TagResource',
        input: { ResourceArn: ACC, Tags: [{ Key: RETIRING_TAG, Value: now.toISOString() }] },
      },
      { action: 'UpdateAccelerator', input: { AcceleratorArn: ACC, Enabled: false } },
    ]);
    const disabled = actual({ enabled: false, tags: { [RETIRING_TAG]: now.toISOString() } });
    expect(disableAccelerator(disabled, 'gone', now).calls).toStrictEqual([]);
    expect(
      deleteAcceleratorOps(disabled, disabled.listeners ?? []).flatMap((o) => o.calls.map((c) => c.action)),
    ).toStrictEqual(['DeleteEndpointGroup', 'DeleteListener', 'DeleteEndpointGroup', 'DeleteListener']);
    expect(deleteAcceleratorOps(disabled, []).flatMap((o) => o.calls)).toStrictEqual([
      { action: 'DeleteAccelerator', input: { AcceleratorArn: ACC } },
    ]);
  });
});
