/**
 * The chaos suite's Global Accelerator check finds what it must, against the simulator: nothing
 * for an accelerator as modelled; a leaked one (no object wants its stack, or a second one), a
 * missing one, and each kind of divergence (a dial, an endpoint, a listener, a disabled one).
 */
import {
  CreateAcceleratorCommand,
  CreateEndpointGroupCommand,
  CreateListenerCommand,
  UpdateAcceleratorCommand,
  UpdateEndpointGroupCommand,
  type GlobalAcceleratorClient,
} from '@aws-sdk/client-global-accelerator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gaClientFor, startGaSimulator, type GaSimulator } from '../../dev/ga-sim/index.js';
import { OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { checkAccelerators, type ModelledAccelerator } from './ga-invariants.js';

const EAST = 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/a/0123456789abcdef';
const WEST = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer/app/b/0123456789abcdee';

const modelled = (stack: string, westDial = 100): ModelledAccelerator => ({
  name: `mcp-chaos-${stack.replace(/\//g, '-')}`,
  ipAddressType: 'IPV4',
  tags: { [OWNER_TAG]: 'chaos', [STACK_TAG]: stack },
  listeners: [
    {
      protocol: 'TCP',
      port: 80,
      clientAffinity: 'NONE',
      endpointGroups: [
        {
          region: 'us-east-1',
          dial: 100,
          endpoints: [{ id: EAST, weight: 128, clientIpPreservation: true }],
        },
        {
          region: 'eu-west-1',
          dial: westDial,
          endpoints: [{ id: WEST, weight: 128, clientIpPreservation: true }],
        },
      ].map((g) => ({
        ...g,
        healthCheck: { protocol: 'TCP', port: 80, intervalSeconds: 30, thresholdCount: 3 },
      })),
    },
  ],
});

let sim: GaSimulator;
let ga: GlobalAcceleratorClient;
beforeEach(async () => {
  sim = await startGaSimulator({ deployMs: 0 });
  ga = gaClientFor(sim);
});
afterEach(() => sim.close());

/** Builds in the simulator what the model says, through the SDK; returns the west group's ARN. */
async function build(m: ModelledAccelerator): Promise<{ acceleratorArn: string; west: string }> {
  const a = await ga.send(
    new CreateAcceleratorCommand({
      Name: m.name,
      Tags: Object.entries(m.tags).map(([Key, Value]) => ({ Key, Value })),
    }),
  );
  const acceleratorArn = a.Accelerator!.AcceleratorArn!;
  let west = '';
  for (const l of m.listeners) {
    const listener = await ga.send(
      new CreateListenerCommand({
        AcceleratorArn: acceleratorArn,
        Protocol: l.protocol as 'TCP',
        PortRanges: [{ FromPort: l.port, ToPort: l.port }],
        ClientAffinity: l.clientAffinity as 'NONE',
      }),
    );
    for (const g of l.endpointGroups) {
      const made = await ga.send(
        new CreateEndpointGroupCommand({
          ListenerArn: listener.Listener!.ListenerArn,
          EndpointGroupRegion: g.region,
          TrafficDialPercentage: g.dial,
          HealthCheckPort: g.healthCheck.port,
          EndpointConfigurations: g.endpoints.map((e) => ({
            EndpointId: e.id,
            Weight: e.weight,
            ClientIPPreservationEnabled: e.clientIpPreservation,
          })),
        }),
      );
      if (g.region === 'eu-west-1') west = made.EndpointGroup!.EndpointGroupArn!;
    }
  }
  return { acceleratorArn, west };
}

const check = (expected: Map<string, ModelledAccelerator>) =>
  checkAccelerators({ ownerId: 'chaos', accelerators: sim.snapshot(), expected }).findings;

describe('the chaos GA check', () => {
  it('finds nothing when the simulator holds exactly the modelled accelerator', async () => {
    await build(modelled('mci/default/a'));
    expect(check(new Map([['mci/default/a', modelled('mci/default/a')]]))).toEqual([]);
  });

  it('a dial, an endpoint weight or a disabled accelerator that differ are divergences', async () => {
    const { acceleratorArn, west } = await build(modelled('mci/default/a'));
    const want = new Map([['mci/default/a', modelled('mci/default/a', 0)]]);
    expect(check(want).map((f) => f.kind)).toEqual(['diverged']);
    expect(check(want)[0]!.detail).toContain('dial 100');
    await ga.send(new UpdateEndpointGroupCommand({ EndpointGroupArn: west, TrafficDialPercentage: 0 }));
    expect(check(want)).toEqual([]);
    await ga.send(
      new UpdateEndpointGroupCommand({
        EndpointGroupArn: west,
        EndpointConfigurations: [{ EndpointId: WEST, Weight: 7 }],
      }),
    );
    expect(check(want)[0]!.detail).toContain(`${WEST}*7`);
    await ga.send(
      new UpdateEndpointGroupCommand({
        EndpointGroupArn: west,
        EndpointConfigurations: [{ EndpointId: WEST }],
      }),
    );
    await ga.send(new UpdateAcceleratorCommand({ AcceleratorArn: acceleratorArn, Enabled: false }));
    expect(check(want)[0]!.detail).toContain('disabled');
  });

  it('leaked: an accelerator of a stack nothing wants, or a second one; missing: none for a stack that wants one', async () => {
    await build(modelled('mci/default/gone'));
    await build(modelled('mci/default/a'));
    await build(modelled('mci/default/a'));
    // Not ours: ignored.
    await ga.send(
      new CreateAcceleratorCommand({ Name: 'someone-else', Tags: [{ Key: OWNER_TAG, Value: 'other' }] }),
    );
    const findings = check(
      new Map([
        ['mci/default/a', modelled('mci/default/a')],
        ['mcs/default/b', modelled('mcs/default/b')],
      ]),
    );
    expect(
      findings
        .map((f) => `${f.kind} ${f.kind === 'leaked' && f.subject.startsWith('arn') ? 'arn' : f.subject}`)
        .sort(),
    ).toEqual(['leaked arn', 'leaked mci/default/a', 'missing mcs/default/b']);
  });
});
