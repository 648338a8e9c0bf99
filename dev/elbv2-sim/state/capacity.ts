import type {
  DescribeCapacityReservationInput,
  DescribeCapacityReservationOutput,
  ModifyCapacityReservationInput,
  ModifyCapacityReservationOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, validation } from '../errors.js';
import { vpcSubnet } from '../network.js';
import type { LoadBalancerRecord } from './model.js';
import type { Store } from './store.js';

/** Decreases (a lower value or a reset) allowed per load balancer per UTC day. */
const DECREASES_PER_DAY = 4;
/** The smallest reservation AWS takes, in capacity units (LCUs for an ALB). */
const MINIMUM_UNITS = 100;
const DAY_MS = 86_400_000;

function decreasesRemaining(store: Store, lb: LoadBalancerRecord): number {
  const c = lb.capacity;
  const today = Math.floor(store.now() / DAY_MS);
  return !c || c.decreaseDay !== today ? DECREASES_PER_DAY : Math.max(0, DECREASES_PER_DAY - c.decreases);
}

/** `pending` for the simulator's provisioning time after a change, then `provisioned`. */
const isPending = (store: Store, lb: LoadBalancerRecord): boolean =>
  lb.capacity !== undefined && store.now() - lb.capacity.modifiedAt < store.provisioningMs;

function render(store: Store, lb: LoadBalancerRecord): DescribeCapacityReservationOutput {
  const c = lb.capacity;
  const zones = lb.subnets.map((id) => vpcSubnet(store.network, id)!.availabilityZone);
  return {
    LastModifiedTime: c ? new Date(c.modifiedAt) : undefined,
    DecreaseRequestsRemaining: decreasesRemaining(store, lb),
    MinimumLoadBalancerCapacity: c && c.capacityUnits > 0 ? { CapacityUnits: c.capacityUnits } : undefined,
    CapacityReservationState:
      c && c.capacityUnits > 0
        ? zones.map((AvailabilityZone) => ({
            AvailabilityZone,
            State: { Code: isPending(store, lb) ? 'pending' : 'provisioned' },
            EffectiveCapacityUnits: Math.floor(c.capacityUnits / zones.length),
          }))
        : undefined,
  };
}

export function describeCapacityReservation(
  store: Store,
  input: DescribeCapacityReservationInput,
): DescribeCapacityReservationOutput {
  return render(store, store.loadBalancer(input.LoadBalancerArn));
}

/** Sets (or resets) the minimum capacity; a decrease spends one of the day's decrease requests. */
export function modifyCapacityReservation(
  store: Store,
  input: ModifyCapacityReservationInput,
): ModifyCapacityReservationOutput {
  const lb = store.loadBalancer(input.LoadBalancerArn);
  const units = input.MinimumLoadBalancerCapacity?.CapacityUnits;
  if ((units === undefined) === !input.ResetCapacityReservation)
    throw validation('Specify either MinimumLoadBalancerCapacity or ResetCapacityReservation');
  if (units !== undefined && (!Number.isInteger(units) || units < MINIMUM_UNITS))
    throw validation(`The minimum load balancer capacity must be at least ${MINIMUM_UNITS} capacity units`);
  if (units !== undefined && units > store.limits.capacityUnitsPerLoadBalancer) {
    throw new SimError(
      'CapacityUnitsLimitExceeded',
      `The requested capacity of ${units} units exceeds the limit of ${store.limits.capacityUnitsPerLoadBalancer} per load balancer`,
    );
  }
  if (isPending(store, lb))
    throw new SimError('CapacityReservationPending', 'A capacity reservation change is still pending');
  const current = lb.capacity?.capacityUnits ?? 0;
  const next = units ?? 0;
  const today = Math.floor(store.now() / DAY_MS);
  const decrease = next < current;
  if (decrease && decreasesRemaining(store, lb) === 0) {
    throw new SimError(
      'CapacityDecreaseRequestLimitExceeded',
      `The limit of ${DECREASES_PER_DAY} capacity decrease requests per day has been reached`,
    );
  }
  const sameDay = lb.capacity?.decreaseDay === today;
  lb.capacity = {
    capacityUnits: next,
    modifiedAt: store.now(),
    decreaseDay: today,
    decreases: (sameDay ? lb.capacity!.decreases : 0) + (decrease ? 1 : 0),
  };
  return render(store, lb);
}
