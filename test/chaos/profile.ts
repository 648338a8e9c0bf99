/**
 * How big and how hostile a run is. The short profile runs inside the normal test command (well
 * under a minute on two cores); the long one is the bar: at least 500 operations on at
 * least 50 MultiClusterIngresses and MultiClusterServices, 10% of ELBv2 calls failing.
 */

export interface ChaosProfile {
  name: string;
  /** MultiClusterIngress slots (names reused by delete-and-recreate). */
  ingresses: number;
  /** MultiClusterService slots; each is the namesake of one Service. */
  services: number;
  operations: number;
  /** Pause between operations, so work overlaps with delivery instead of arriving as one burst. */
  opGapMs: [number, number];
  faults: FaultRates;
  /** How long a delete-and-recreate waits for the old object's finalizers before giving up on it. */
  recreateWaitMs: number;
  /** Give up waiting for the pipeline to drain after this long (then check anyway). */
  quiesceTimeoutMs: number;
}

export interface FaultRates {
  /** Per ELBv2 call; the four together are the "10% of ELBv2 calls". */
  elbv2: { throttle: number; internal: number; unavailable: number; drop: number; dropAfterCommit: number };
  /**
   * Per EC2 call (the managed security groups'): more throttling than ELBv2, as EC2's per-account
   * request limit is met sooner, and enough in all that the few dozen calls of a short run meet some.
   */
  ec2: FaultRates['elbv2'];
  /**
   * Per Global Accelerator call (the accelerators of the objects that ask for one): throttling,
   * 500s (InternalServiceErrorException), 503s, and dropped requests and answers; a dropped answer
   * of a create is retried by the SDK with the same idempotency token (the simulator returns what
   * the first made), of an update or delete the reconcile must find done.
   */
  ga: FaultRates['elbv2'];
  /** Per PUT/PATCH on the Kubernetes API stand-in. */
  kubeConflict: number;
  /** Per notification handed from the forwarder to the function. */
  notification: { drop: number; duplicate: number; delay: number; reorder: number; maxDelayMs: number };
  /** Per function invocation: killed right after its Nth ELBv2 call, N in [1, killAfterMax]. */
  kill: number;
  killAfterMax: number;
}

/**
 * The short profile throttles less (the same 10% in total, more of it 5xx): the SDK's adaptive
 * retry mode slows the whole client down after each throttle, as it should against the account's
 * shared ELBv2 bucket, and at 4% throttling that alone would take the run past its minute.
 */
const SHORT_FAULTS: FaultRates = {
  elbv2: { throttle: 0.01, internal: 0.04, unavailable: 0.03, drop: 0.015, dropAfterCommit: 0.005 },
  ec2: { throttle: 0.08, internal: 0.04, unavailable: 0.03, drop: 0.015, dropAfterCommit: 0.005 },
  ga: { throttle: 0.04, internal: 0.03, unavailable: 0.02, drop: 0.015, dropAfterCommit: 0.005 },
  kubeConflict: 0.1,
  notification: { drop: 0.05, duplicate: 0.1, delay: 0.1, reorder: 0.2, maxDelayMs: 1500 },
  kill: 0.1,
  killAfterMax: 4,
};

const LONG_FAULTS: FaultRates = {
  ...SHORT_FAULTS,
  elbv2: { throttle: 0.04, internal: 0.025, unavailable: 0.015, drop: 0.015, dropAfterCommit: 0.005 },
};

export const PROFILES: Record<'short' | 'long', ChaosProfile> = {
  short: {
    name: 'short',
    ingresses: 16,
    services: 4,
    operations: 120,
    opGapMs: [0, 25],
    faults: SHORT_FAULTS,
    recreateWaitMs: 4_000,
    quiesceTimeoutMs: 25_000,
  },
  long: {
    name: 'long',
    ingresses: 50,
    services: 12,
    operations: 600,
    opGapMs: [0, 30],
    faults: LONG_FAULTS,
    recreateWaitMs: 8_000,
    quiesceTimeoutMs: 90_000,
  },
};

export function profileNamed(name: string): ChaosProfile {
  const p = (PROFILES as Record<string, ChaosProfile | undefined>)[name];
  if (!p) throw new Error(`unknown chaos profile "${name}" (known: ${Object.keys(PROFILES).join(', ')})`);
  return p;
}
