/**
 * `minimum-load-balancer-capacity` (LBC's stringMap `CapacityUnits=<n>`,
 * pkg/ingress/model_build_load_balancer_capacity_reservation.go): the ALB's reserved capacity.
 */
import { invalid, keyValues, raw, type Annotations } from './parse.js';

/** The smallest reservation ELBv2 takes, in capacity units; 0 resets the reservation. */
export const MINIMUM_CAPACITY_UNITS = 100;

/** The units asked for (0: reset), or undefined when the annotation is absent. */
export function minimumCapacityUnits(annotations: Annotations, key: string): number | undefined {
  const pairs = keyValues(annotations, key);
  if (pairs === undefined) return undefined;
  const value = raw(annotations, key) ?? '';
  const [other] = Object.keys(pairs).filter((k) => k !== 'CapacityUnits');
  if (other !== undefined) throw invalid(key, value, `has the key ${other}: the only key is CapacityUnits`);
  const units = pairs.CapacityUnits;
  if (units === undefined) throw invalid(key, value, 'must be CapacityUnits=<n>');
  if (!/^\d{1,9}$/.test(units) || (Number(units) !== 0 && Number(units) < MINIMUM_CAPACITY_UNITS)) {
    throw invalid(
      key,
      value,
      `CapacityUnits must be 0 (reset) or a whole number of at least ${MINIMUM_CAPACITY_UNITS}`,
    );
  }
  return Number(units);
}
