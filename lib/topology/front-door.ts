/**
 * The Global Accelerator in front of an object's load balancers, as a topology's front door: the
 * accelerator a plan brings GA to (its listeners, each Region's endpoint group and traffic dial),
 * its addresses once it exists, and what the plan still changes. Pure.
 */
import type { AcceleratorOperation, DesiredAccelerator } from '../providers/aws/accelerator/types.js';
import type { AcceleratorStatus } from '../providers/aws/accelerator/reconcile.js';
import type { FrontDoor, Pending } from './types.js';

export interface FrontDoorInput {
  desired?: DesiredAccelerator;
  status?: AcceleratorStatus;
  /** The accelerator's change plan (dials going to 0 before the regional deploys, the rest after). */
  plan?: readonly AcceleratorOperation[];
}

/** `TCP:80@eu-west-1` → `eu-west-1`. */
const regionOfGroup = (id: string): string | undefined => id.split('@')[1];

/** The front door, or none when the plan brings GA to no accelerator (it is being retired). */
export function frontDoorOf(input: FrontDoorInput): FrontDoor | undefined {
  const { desired } = input;
  if (!desired) return undefined;
  const plan = input.plan ?? [];
  // A retired accelerator's steps name it by ARN: only the kept one's are this door's.
  const door = plan.find((op) => op.resource === 'Accelerator' && !op.id.startsWith('arn:'));
  const regionPending = new Map<string, Pending>();
  for (const op of plan) {
    const region = op.resource === 'EndpointGroup' ? regionOfGroup(op.id) : undefined;
    if (region !== undefined && !regionPending.has(region)) regionPending.set(region, op.op);
  }
  // Every listener has the same endpoint group per Region (a Region's dial is the Region's).
  const groups = desired.listeners[0]?.endpointGroups ?? [];
  return {
    id: 'Accelerator',
    kind: 'Global Accelerator',
    name: desired.name,
    addresses: input.status ? [input.status.dnsName, ...input.status.ips] : [],
    listeners: desired.listeners.map((l) => l.id),
    ...(desired.listeners[0] ? { clientAffinity: desired.listeners[0].clientAffinity } : {}),
    ...(door ? { pending: door.op } : {}),
    regions: groups.map((g) => ({
      region: g.region,
      weight: g.dial,
      ...(regionPending.has(g.region) ? { pending: regionPending.get(g.region) } : {}),
    })),
  };
}
