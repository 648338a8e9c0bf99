/**
 * The Global Accelerator end-state check: every accelerator with our owner tag belongs to a stack
 * a surviving object wants an accelerator for; each such stack has exactly one, enabled, with
 * exactly the modelled listeners (protocol, port, client affinity) and on each exactly the
 * modelled endpoint groups (Region, traffic dial, endpoints with weight and client IP
 * preservation, health check). What is modelled is given (the provider's pure accelerator model,
 * run over the final objects and the regional load balancers that exist): this module compares.
 */
import type { GaSnapshotAccelerator } from '../../dev/ga-sim/index.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import type { Finding } from './invariants.js';

/** The modelled accelerator, shaped as the provider's DesiredAccelerator. */
export interface ModelledAccelerator {
  name: string;
  ipAddressType: string;
  tags: Record<string, string>;
  listeners: Array<{
    protocol: string;
    port: number;
    clientAffinity: string;
    endpointGroups: Array<{
      region: string;
      dial: number;
      healthCheck: {
        protocol: string;
        port: number;
        path?: string;
        intervalSeconds: number;
        thresholdCount: number;
      };
      endpoints: Array<{ id: string; weight: number; clientIpPreservation: boolean }>;
    }>;
  }>;
}

export interface GaCheckInput {
  ownerId: string;
  /** The GA simulator's snapshot at the end. */
  accelerators: readonly GaSnapshotAccelerator[];
  /** Stack ID → the accelerator its object must have (stacks that want none are absent). */
  expected: ReadonlyMap<string, ModelledAccelerator>;
}

export interface GaReport {
  expected: number;
  actual: number;
  findings: Finding[];
}

interface WireEndpointGroup {
  EndpointGroupRegion?: string;
  TrafficDialPercentage?: number;
  HealthCheckProtocol?: string;
  HealthCheckPort?: number;
  HealthCheckPath?: string;
  HealthCheckIntervalSeconds?: number;
  ThresholdCount?: number;
  EndpointDescriptions?: Array<{
    EndpointId?: string;
    Weight?: number;
    ClientIPPreservationEnabled?: boolean;
  }>;
}

/** One line per listener and per endpoint group, sorted: equal lines, equal accelerators. */
function modelledLines(m: ModelledAccelerator): string[] {
  const lines = [`accelerator ${m.name} ${m.ipAddressType} enabled`];
  for (const l of m.listeners) {
    const id = `${l.protocol}:${l.port}`;
    lines.push(`listener ${id}-${l.port} ${l.clientAffinity}`);
    for (const g of l.endpointGroups) {
      const hc = g.healthCheck;
      lines.push(
        groupLine(
          id,
          g.region,
          g.dial,
          [hc.protocol, hc.port, hc.path ?? '-', hc.intervalSeconds, hc.thresholdCount],
          g.endpoints,
        ),
      );
    }
  }
  return lines.sort();
}

function actualLines(a: GaSnapshotAccelerator): string[] {
  const lines = [`accelerator ${a.Name} ${a.IpAddressType} ${a.Enabled ? 'enabled' : 'disabled'}`];
  for (const l of a.Listeners) {
    const ranges = l.PortRanges.map((r) => `${r.FromPort}-${r.ToPort}`).join(',');
    const id = `${l.Protocol}:${l.PortRanges[0]?.FromPort ?? '?'}`;
    lines.push(`listener ${l.Protocol}:${ranges} ${l.ClientAffinity}`);
    for (const raw of l.EndpointGroups) {
      const g = raw as WireEndpointGroup;
      const path = g.HealthCheckProtocol === 'TCP' ? '-' : (g.HealthCheckPath ?? '-');
      lines.push(
        groupLine(
          id,
          g.EndpointGroupRegion ?? '?',
          g.TrafficDialPercentage ?? -1,
          [g.HealthCheckProtocol, g.HealthCheckPort, path, g.HealthCheckIntervalSeconds, g.ThresholdCount],
          (g.EndpointDescriptions ?? []).map((e) => ({
            id: e.EndpointId ?? '?',
            weight: e.Weight ?? -1,
            clientIpPreservation: e.ClientIPPreservationEnabled ?? false,
          })),
        ),
      );
    }
  }
  return lines.sort();
}

function groupLine(
  listener: string,
  region: string,
  dial: number,
  healthCheck: unknown[],
  endpoints: Array<{ id: string; weight: number; clientIpPreservation: boolean }>,
): string {
  const eps = endpoints
    .map((e) => `${e.id}*${e.weight}${e.clientIpPreservation ? '+ip' : ''}`)
    .sort()
    .join(',');
  return `endpoint-group ${listener}@${region} dial ${dial} check ${healthCheck.join('/')} endpoints ${eps}`;
}

export function checkAccelerators(input: GaCheckInput): GaReport {
  const findings: Finding[] = [];
  const find = (kind: Finding['kind'], subject: string, detail: string) =>
    findings.push({ kind, subject, detail });
  const owned = input.accelerators.filter((a) => a.Tags[OWNER_TAG] === input.ownerId);
  const byStack = new Map<string, GaSnapshotAccelerator[]>();
  for (const a of owned) {
    const stack = a.Tags[STACK_TAG];
    if (!stack) {
      find('leaked', a.AcceleratorArn, `accelerator ${a.Name} with our owner tag but no stack tag`);
      continue;
    }
    byStack.set(stack, [...(byStack.get(stack) ?? []), a]);
  }
  for (const [stack, list] of byStack) {
    const want = input.expected.get(stack);
    if (!want) {
      for (const a of list)
        find(
          'leaked',
          a.AcceleratorArn,
          `accelerator ${a.Name} of ${stack}, which no surviving object wants`,
        );
      continue;
    }
    if (list.length > 1)
      find('leaked', stack, `${list.length} accelerators: ${list.map((a) => a.AcceleratorArn).join(', ')}`);
  }
  for (const [stack, want] of input.expected) {
    const list = byStack.get(stack) ?? [];
    if (list.length === 0) {
      find('missing', stack, `no accelerator (expected ${want.name})`);
      continue;
    }
    const wanted = modelledLines(want);
    for (const a of list) {
      const got = actualLines(a);
      const extra = got.filter((l) => !wanted.includes(l));
      const lacking = wanted.filter((l) => !got.includes(l));
      if (extra.length || lacking.length)
        find(
          'diverged',
          stack,
          `accelerator ${a.AcceleratorArn}: has ${extra.join(' | ') || '-'}; expected ${lacking.join(' | ') || '-'}`,
        );
      for (const [k, v] of Object.entries(want.tags))
        if (a.Tags[k] !== v)
          find('diverged', stack, `accelerator tag ${k} is ${a.Tags[k] ?? 'absent'}, expected ${v}`);
    }
  }
  return { expected: input.expected.size, actual: owned.length, findings };
}
