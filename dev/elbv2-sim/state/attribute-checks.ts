/**
 * Value checks shared by load balancer and target group attributes: each returns what is wrong
 * with a value (to finish the sentence "attribute 'k' value 'v' ..."), or undefined when it is fine.
 */
export type Check<C = unknown> = (value: string, context: C) => string | undefined;

export const bool: Check = (v) => (v === 'true' || v === 'false' ? undefined : 'must be true or false');

export const range =
  (min: number, max: number): Check =>
  (v) =>
    /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max ? undefined : `must be between ${min} and ${max}`;

export const oneOf =
  (...allowed: string[]): Check =>
  (v) =>
    allowed.includes(v) ? undefined : `must be one of ${allowed.join(', ')}`;

/** `off`, or a number in range (target group health thresholds). */
export const offOr =
  (min: number, max: number): Check =>
  (v, c) =>
    v === 'off' ? undefined : range(min, max)(v, c) && `must be off or between ${min} and ${max}`;

export const free: Check = (v) => (v.length <= 1024 ? undefined : 'is too long');
