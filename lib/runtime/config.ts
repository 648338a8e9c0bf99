/**
 * Function configuration from the environment, checked once per container with messages that
 * name the variable at fault.
 */
export interface RuntimeConfig {
  /** MULTICLUSTER_PROVIDER: registered provider name (`fake`, `aws`). */
  provider: string;
  /** CLOUD_CONFIG: path of the provider's configuration file. */
  cloudConfigPath?: string;
  /** PROVIDER_INGRESS_CLASS: the IngressClass `spec.controller` we serve. */
  providerIngressClass: string;
  /** LOCK_NAMESPACE: where per-object reconcile locks live; `none` disables locking. */
  lockNamespace?: string;
  /** ALLOWED_NAMESPACES: comma-separated; notifications for objects elsewhere are refused. */
  allowedNamespaces?: string[];
  /** RECONCILE_TIMEOUT_SECONDS: also the lifetime of a lock whose holder died. */
  timeoutSeconds: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadRuntimeConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const provider = env.MULTICLUSTER_PROVIDER?.trim();
  if (!provider)
    throw new ConfigError('MULTICLUSTER_PROVIDER is not set: name the provider to load (e.g. fake, aws)');
  const providerIngressClass = env.PROVIDER_INGRESS_CLASS?.trim();
  if (!providerIngressClass) {
    throw new ConfigError(
      'PROVIDER_INGRESS_CLASS is not set: give the spec.controller of the IngressClass this provider serves (e.g. karmada.io/fake)',
    );
  }
  const timeout = Number(env.RECONCILE_TIMEOUT_SECONDS ?? '60');
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new ConfigError(
      `RECONCILE_TIMEOUT_SECONDS must be a positive number, got "${env.RECONCILE_TIMEOUT_SECONDS}"`,
    );
  }
  const lock = env.LOCK_NAMESPACE?.trim() || 'karmada-system';
  const allowed = env.ALLOWED_NAMESPACES?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    provider,
    providerIngressClass,
    timeoutSeconds: timeout,
    ...(env.CLOUD_CONFIG ? { cloudConfigPath: env.CLOUD_CONFIG } : {}),
    ...(lock === 'none' ? {} : { lockNamespace: lock }),
    ...(allowed?.length ? { allowedNamespaces: allowed } : {}),
  };
}

/** What the scheduled resync function needs besides the runtime. */
export interface ResyncConfig {
  /** NOTIFICATION_QUEUE_URL: the queue the resync notifications go to. */
  queueUrl: string;
  /** RESYNC_PERIOD_SECONDS (default 600): how often the schedule runs the resync. */
  periodSeconds: number;
  /** DEEP_RESYNC_INTERVAL_SECONDS (default 36000, LBC's 10 h): each object's deep drift check. */
  deepIntervalSeconds: number;
  /**
   * DEEP_RESYNC_BUDGET_SHARE (default 0.1): the share of the deployment's ELBv2 budget
   * (ELBV2_CALLS_PER_SECOND) deep drift checks may spend; no cap without a budget.
   */
  deepBudgetShare: number;
  /** ELBV2_CALLS_PER_SECOND: the deployment's share of the account's ELBv2 budget. */
  elbv2CallsPerSecond?: number;
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, max = Infinity): number {
  const raw = env[name]?.trim();
  const value = raw ? Number(raw) : fallback;
  if (!Number.isFinite(value) || value <= 0 || value > max)
    throw new ConfigError(`${name} must be a number in (0, ${max}], got "${raw}"`);
  return value;
}

export function loadResyncConfig(env: NodeJS.ProcessEnv = process.env): ResyncConfig {
  const queueUrl = env.NOTIFICATION_QUEUE_URL?.trim();
  if (!queueUrl)
    throw new ConfigError('NOTIFICATION_QUEUE_URL is not set: the queue the resync notifications go to');
  const budget = env.ELBV2_CALLS_PER_SECOND?.trim();
  return {
    queueUrl,
    periodSeconds: positiveNumber(env, 'RESYNC_PERIOD_SECONDS', 600),
    deepIntervalSeconds: positiveNumber(env, 'DEEP_RESYNC_INTERVAL_SECONDS', 36_000),
    deepBudgetShare: positiveNumber(env, 'DEEP_RESYNC_BUDGET_SHARE', 0.1, 1),
    ...(budget ? { elbv2CallsPerSecond: positiveNumber(env, 'ELBV2_CALLS_PER_SECOND', 0) } : {}),
  };
}

/** What the scheduled orphan sweep needs besides the runtime. */
export interface SweepConfig {
  /** SWEEP_GRACE_SECONDS (default 900): stacks younger than this are never deleted. */
  graceSeconds: number;
  /** SWEEP_DRY_RUN=true: report what would be deleted, delete nothing. */
  dryRun: boolean;
}

export function loadSweepConfig(env: NodeJS.ProcessEnv = process.env): SweepConfig {
  const graceSeconds = Number(env.SWEEP_GRACE_SECONDS ?? '900');
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0) {
    throw new ConfigError(
      `SWEEP_GRACE_SECONDS must be a number of seconds, got "${env.SWEEP_GRACE_SECONDS}"`,
    );
  }
  return { graceSeconds, dryRun: env.SWEEP_DRY_RUN === 'true' };
}
