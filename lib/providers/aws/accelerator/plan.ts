/**
 * The accelerator's change plan (pure), against the state GA holds (read, or recorded after our
 * last completed apply). Order: endpoint groups and listeners GA has but the stack no longer
 * wants go first (a listener goes after its groups, and frees its place under the quota), then
 * the accelerator, then listeners, then endpoint groups, each create naming its parent by the
 * placeholder of the ARN the parent's create returns.
 */
import { recordToTags, tagsToRemove, tagsToUpsert } from '../tagging.js';
import { arnRef, type Arn } from '../deploy/refs.js';
import { ACCELERATOR_ID } from './model.js';
import {
  RETIRING_TAG,
  type AcceleratorOperation,
  type ActualAccelerator,
  type ActualEndpointGroup,
  type ActualListener,
  type DesiredAccelerator,
  type DesiredEndpoint,
  type DesiredEndpointGroup,
  type DesiredListener,
  type GaPlannedCall,
} from './types.js';

export { RETIRING_TAG };

export interface AcceleratorPlanContext {
  externalManagedTags: readonly string[];
}

const listenerRef = (l: Pick<DesiredListener, 'id'>) => `listener/${l.id}`;

function endpointConfigurations(endpoints: readonly DesiredEndpoint[]) {
  return endpoints.map((e) => ({
    EndpointId: e.id,
    Weight: e.weight,
    ClientIPPreservationEnabled: e.clientIpPreservation,
  }));
}

function groupSettings(g: DesiredEndpointGroup) {
  return {
    EndpointConfigurations: endpointConfigurations(g.endpoints),
    TrafficDialPercentage: g.dial,
    HealthCheckProtocol: g.healthCheck.protocol,
    HealthCheckPort: g.healthCheck.port,
    ...(g.healthCheck.path !== undefined ? { HealthCheckPath: g.healthCheck.path } : {}),
    HealthCheckIntervalSeconds: g.healthCheck.intervalSeconds,
    ThresholdCount: g.healthCheck.thresholdCount,
  };
}

export function actualSettings(g: ActualEndpointGroup) {
  const hc = g.healthCheck;
  return {
    EndpointConfigurations: endpointConfigurations(g.endpoints),
    ...(hc.protocol !== undefined ? { HealthCheckProtocol: hc.protocol as 'TCP' | 'HTTP' | 'HTTPS' } : {}),
    ...(hc.port !== undefined ? { HealthCheckPort: hc.port } : {}),
    ...(hc.path !== undefined ? { HealthCheckPath: hc.path } : {}),
    ...(hc.intervalSeconds !== undefined ? { HealthCheckIntervalSeconds: hc.intervalSeconds } : {}),
    ...(hc.thresholdCount !== undefined ? { ThresholdCount: hc.thresholdCount } : {}),
  };
}

/** The listener GA has for a desired one: same protocol, exactly its one port. */
export function matchListener(
  actual: readonly ActualListener[],
  l: Pick<DesiredListener, 'protocol' | 'port'>,
): ActualListener | undefined {
  return actual.find(
    (a) =>
      a.protocol === l.protocol &&
      a.portRanges.length === 1 &&
      a.portRanges[0]?.from === l.port &&
      a.portRanges[0]?.to === l.port,
  );
}

const endpointKey = (e: DesiredEndpoint) => `${e.id}|${e.weight}|${e.clientIpPreservation}`;

/** What differs between a group GA has and the desired one, in words (empty: nothing). */
export function groupChanges(actual: ActualEndpointGroup, desired: DesiredEndpointGroup): string[] {
  const changes: string[] = [];
  if (actual.dial !== desired.dial) changes.push(`traffic dial ${actual.dial} → ${desired.dial}`);
  const a = actual.endpoints.map(endpointKey).sort().join(',');
  const d = desired.endpoints.map(endpointKey).sort().join(',');
  if (a !== d) changes.push(`endpoints ${describeEndpoints(desired.endpoints)}`);
  const hc = desired.healthCheck;
  const ahc = actual.healthCheck;
  if (
    ahc.protocol !== hc.protocol ||
    ahc.port !== hc.port ||
    ahc.intervalSeconds !== hc.intervalSeconds ||
    ahc.thresholdCount !== hc.thresholdCount ||
    (hc.path !== undefined && ahc.path !== hc.path)
  ) {
    changes.push(`health check ${describeHealthCheck(desired)}`);
  }
  return changes;
}

export function describeEndpoints(endpoints: readonly DesiredEndpoint[]): string {
  return endpoints
    .map((e) => `${e.id} (weight ${e.weight}${e.clientIpPreservation ? ', client IP preserved' : ''})`)
    .join(', ');
}

export function describeHealthCheck(g: DesiredEndpointGroup): string {
  const hc = g.healthCheck;
  return `${hc.protocol}:${hc.port}${hc.path ?? ''} every ${hc.intervalSeconds} s, threshold ${hc.thresholdCount}`;
}

function createGroup(l: DesiredListener, listenerArn: Arn, g: DesiredEndpointGroup): AcceleratorOperation {
  return {
    op: 'create',
    resource: 'EndpointGroup',
    id: g.id,
    detail: `${g.region}, traffic dial ${g.dial}, ${describeEndpoints(g.endpoints)}; health check ${describeHealthCheck(g)}`,
    calls: [
      {
        action: 'CreateEndpointGroup',
        input: { ListenerArn: listenerArn, EndpointGroupRegion: g.region, ...groupSettings(g) },
        produces: `group/${g.id}`,
      },
    ],
  };
}

function deleteGroup(listenerId: string, g: ActualEndpointGroup, why: string): AcceleratorOperation {
  return {
    op: 'delete',
    resource: 'EndpointGroup',
    id: `${listenerId}@${g.region}`,
    detail: why,
    calls: [{ action: 'DeleteEndpointGroup', input: { EndpointGroupArn: g.arn } }],
  };
}

function listenerIdOf(l: ActualListener): string {
  return `${l.protocol}:${l.portRanges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(',')}`;
}

/** The listener and its endpoint groups, deleted (groups first: GA refuses a listener that has any). */
export function deleteListener(l: ActualListener, why: string): AcceleratorOperation[] {
  const id = listenerIdOf(l);
  return [
    ...l.endpointGroups.map((g) => deleteGroup(id, g, `its listener ${why}`)),
    {
      op: 'delete',
      resource: 'AcceleratorListener',
      id,
      detail: why,
      calls: [{ action: 'DeleteListener', input: { ListenerArn: l.arn } }],
    },
  ];
}

function acceleratorTags(
  pc: AcceleratorPlanContext,
  arn: string,
  desired: Readonly<Record<string, string>>,
  actual: Readonly<Record<string, string>>,
): { calls: GaPlannedCall[]; changes: string[] } {
  const calls: GaPlannedCall[] = [];
  const changes: string[] = [];
  const remove = tagsToRemove(desired, actual, pc.externalManagedTags).filter((k) => k !== RETIRING_TAG);
  if (remove.length > 0) {
    changes.push(`untag ${remove.join(', ')}`);
    calls.push({ action: 'UntagResource', input: { ResourceArn: arn, TagKeys: remove } });
  }
  const add = tagsToUpsert(desired, actual);
  if (Object.keys(add).length > 0) {
    changes.push(`tags ${Object.keys(add).sort().join(', ')}`);
    calls.push({ action: 'TagResource', input: { ResourceArn: arn, Tags: recordToTags(add) } });
  }
  return { calls, changes };
}

/** Everything under a new accelerator (or a new listener): listeners, then their groups. */
function createListener(l: DesiredListener, acceleratorArn: Arn): AcceleratorOperation[] {
  const listenerArn = arnRef(listenerRef(l));
  return [
    {
      op: 'create',
      resource: 'AcceleratorListener',
      id: l.id,
      detail: `${l.protocol} port ${l.port}, client affinity ${l.clientAffinity}`,
      calls: [
        {
          action: 'CreateListener',
          input: {
            AcceleratorArn: acceleratorArn,
            Protocol: l.protocol,
            PortRanges: [{ FromPort: l.port, ToPort: l.port }],
            ClientAffinity: l.clientAffinity,
          },
          produces: listenerRef(l),
        },
      ],
    },
    ...l.endpointGroups.map((g) => createGroup(l, listenerArn, g)),
  ];
}

function createAccelerator(desired: DesiredAccelerator): AcceleratorOperation[] {
  return [
    {
      op: 'create',
      resource: 'Accelerator',
      id: ACCELERATOR_ID,
      detail: `${desired.name}, ${desired.ipAddressType}, standard (new static IP addresses)`,
      calls: [
        {
          action: 'CreateAccelerator',
          input: {
            Name: desired.name,
            IpAddressType: desired.ipAddressType,
            Enabled: true,
            Tags: recordToTags(desired.tags),
          },
          produces: ACCELERATOR_ID,
        },
      ],
    },
    ...desired.listeners.flatMap((l) => createListener(l, arnRef(ACCELERATOR_ID))),
  ];
}

/**
 * The first step of retiring an accelerator: disable it (GA deletes only disabled accelerators),
 * marked as retiring so that nothing takes it back (`mark`: an object's reconcile, whose stack
 * lives on; the orphan sweep retires only accelerators no object wants, and so holds no
 * TagResource). The rest waits for GA's DEPLOYED.
 */
export function disableAccelerator(
  a: ActualAccelerator,
  why: string,
  now: Date,
  mark = true,
): AcceleratorOperation {
  return {
    op: 'modify',
    resource: 'Accelerator',
    id: a.arn,
    detail: `disable (${why}); deleted once Global Accelerator has deployed that`,
    calls: [
      ...(mark && a.tags[RETIRING_TAG] === undefined
        ? [
            {
              action: 'TagResource' as const,
              input: { ResourceArn: a.arn, Tags: [{ Key: RETIRING_TAG, Value: now.toISOString() }] },
            },
          ]
        : []),
      ...(a.enabled
        ? [{ action: 'UpdateAccelerator' as const, input: { AcceleratorArn: a.arn, Enabled: false } }]
        : []),
    ],
  };
}

/**
 * The steps once GA has deployed the disable: its listeners (each after its endpoint groups),
 * which GA deploys again; then, once that is deployed too, the accelerator itself.
 */
export function deleteAcceleratorOps(
  a: ActualAccelerator,
  listeners: readonly ActualListener[],
): AcceleratorOperation[] {
  if (listeners.length > 0) return listeners.flatMap((l) => deleteListener(l, 'goes with its accelerator'));
  return [
    {
      op: 'delete',
      resource: 'Accelerator',
      id: a.arn,
      detail: `${a.name} (${[a.dnsName, ...a.ips].join(', ')})`,
      calls: [{ action: 'DeleteAccelerator', input: { AcceleratorArn: a.arn } }],
    },
  ];
}

/**
 * The plan from `current` (the stack's accelerator, with its listeners) to `desired`. Nothing a
 * stack asks for needs a new accelerator: GA changes the IP address type in place, keeping the
 * IPv4 addresses (DUAL_STACK adds two IPv6 ones, IPV4 drops them).
 */
export function planAccelerator(
  desired: DesiredAccelerator,
  current: ActualAccelerator | undefined,
  pc: AcceleratorPlanContext,
): AcceleratorOperation[] {
  if (!current) return createAccelerator(desired);
  const plan: AcceleratorOperation[] = [];
  const listeners = current.listeners ?? [];
  const kept = new Set<ActualListener>();
  for (const l of desired.listeners) {
    const a = matchListener(listeners, l);
    if (a) kept.add(a);
  }
  for (const a of listeners) {
    if (!kept.has(a)) plan.push(...deleteListener(a, 'no longer a listen port of the load balancer'));
  }
  for (const l of desired.listeners) {
    const a = matchListener(listeners, l);
    if (!a) continue;
    const regions = new Set(l.endpointGroups.map((g) => g.region));
    for (const g of a.endpointGroups) {
      if (!regions.has(g.region))
        plan.push(deleteGroup(l.id, g, `${g.region} has no load balancer of the stack any more`));
    }
  }
  const calls: GaPlannedCall[] = [];
  const changes: string[] = [];
  const retyped = current.ipAddressType !== desired.ipAddressType;
  if (current.name !== desired.name || !current.enabled || retyped) {
    calls.push({
      action: 'UpdateAccelerator',
      input: {
        AcceleratorArn: current.arn,
        Name: desired.name,
        Enabled: true,
        ...(retyped ? { IpAddressType: desired.ipAddressType } : {}),
      },
    });
    if (current.name !== desired.name) changes.push(`name ${desired.name}`);
    if (!current.enabled) changes.push('enable');
    if (retyped) {
      changes.push(
        `ip address type ${current.ipAddressType} → ${desired.ipAddressType} (its IPv4 addresses are kept; ${
          desired.ipAddressType === 'DUAL_STACK' ? 'two IPv6 addresses are added' : 'its IPv6 addresses go'
        })`,
      );
    }
  }
  const tags = acceleratorTags(pc, current.arn, desired.tags, current.tags);
  calls.push(...tags.calls);
  changes.push(...tags.changes);
  if (calls.length > 0) {
    plan.push({
      op: 'modify',
      resource: 'Accelerator',
      id: ACCELERATOR_ID,
      detail: changes.join('; '),
      calls,
    });
  }
  for (const l of desired.listeners) {
    const a = matchListener(listeners, l);
    if (!a) {
      plan.push(...createListener(l, current.arn));
      continue;
    }
    if (a.clientAffinity !== l.clientAffinity) {
      plan.push({
        op: 'modify',
        resource: 'AcceleratorListener',
        id: l.id,
        detail: `client affinity ${a.clientAffinity} → ${l.clientAffinity}`,
        calls: [
          { action: 'UpdateListener', input: { ListenerArn: a.arn, ClientAffinity: l.clientAffinity } },
        ],
      });
    }
    for (const g of l.endpointGroups) {
      const ag = a.endpointGroups.find((x) => x.region === g.region);
      if (!ag) {
        plan.push(createGroup(l, a.arn, g));
        continue;
      }
      const diff = groupChanges(ag, g);
      if (diff.length === 0) continue;
      plan.push({
        op: 'modify',
        resource: 'EndpointGroup',
        id: g.id,
        detail: diff.join('; '),
        calls: [{ action: 'UpdateEndpointGroup', input: { EndpointGroupArn: ag.arn, ...groupSettings(g) } }],
      });
    }
  }
  return plan;
}
