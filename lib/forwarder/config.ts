/** Command-line flags and environment variables (a flag wins over its variable). */
import { SINK_TYPES, type SinkType } from './sinks/index.js';

export interface ForwarderConfig {
  help: boolean;
  kubeconfig?: string;
  sink: SinkType;
  sinkTarget: string;
  sinkEndpoint?: string;
  /** HTTP sink: SigV4-sign (auto: for Lambda function URLs). */
  sinkSign: 'auto' | boolean;
  region?: string;
  batchSize?: number;
  resyncPeriodMs: number;
  coalesceWindowMs: number;
  /** EndpointSlices' own window: a rollout changes them in bursts (never shorter than the default). */
  endpointSliceWindowMs: number;
  batchIntervalMs: number;
  namespaces?: string[];
  /** Opt-in: watch Secrets' metadata in these namespaces (none by default). */
  secretNamespaces?: string[];
  leaderElect: boolean;
  leaseName: string;
  leaseNamespace: string;
  identity?: string;
  port: number;
  logLevel: string;
  shutdownTimeoutMs: number;
}

/** Endpoint changes must reach the load balancer within a health check's timescale. */
const MAX_ENDPOINTSLICE_WINDOW = '10s';

interface Option {
  flag: string;
  env: string;
  help: string;
  default?: string;
}

const OPTIONS: Option[] = [
  {
    flag: 'kubeconfig',
    env: 'KUBECONFIG',
    help: 'kubeconfig of the Karmada API server (in-cluster config when unset)',
  },
  {
    flag: 'sink',
    env: 'FORWARDER_SINK',
    help: `where notifications go: ${SINK_TYPES.join(' | ')}`,
    default: 'sqs',
  },
  {
    flag: 'sink-target',
    env: 'FORWARDER_SINK_TARGET',
    help: 'SQS FIFO queue URL | Lambda function name or ARN | HTTP URL (required)',
  },
  {
    flag: 'sink-endpoint',
    env: 'FORWARDER_SINK_ENDPOINT',
    help: 'AWS endpoint override (local fakes, VPC endpoints)',
  },
  {
    flag: 'sink-sign',
    env: 'FORWARDER_SINK_SIGN',
    help: 'http sink: SigV4-sign requests (true | false | auto = for Lambda function URLs)',
    default: 'auto',
  },
  { flag: 'region', env: 'AWS_REGION', help: 'AWS region of the queue or function' },
  {
    flag: 'batch-size',
    env: 'FORWARDER_BATCH_SIZE',
    help: 'notifications per Lambda/HTTP call (SQS: always 10)',
    default: '100',
  },
  {
    flag: 'resync-period',
    env: 'FORWARDER_RESYNC_PERIOD',
    // Each `resync` is a full drift check of that object's stack (8 ELBv2 calls for an ALB): at
    // 10 minutes over 1,000 MCIs that is more than the account's whole Describe budget. The scheduled
    // resync function does the 10-minute pass cheaply (fingerprints in bulk) and deals the deep
    // checks out over hours; this is a fallback for deployments without it.
    help: 'send `resync` (a full drift check) for every object this often; 0 = never (the scheduled resync function does this cheaply)',
    default: '0',
  },
  {
    flag: 'coalesce-window',
    env: 'FORWARDER_COALESCE_WINDOW',
    help: 'merge changes to one object within this window',
    default: '100ms',
  },
  {
    flag: 'endpointslice-coalesce-window',
    env: 'FORWARDER_ENDPOINTSLICE_COALESCE_WINDOW',
    help: `EndpointSlices' window (a rollout's burst of changes becomes one notification); counted from the first change, never extended, so it is the most latency it adds (at most ${MAX_ENDPOINTSLICE_WINDOW})`,
    default: '1s',
  },
  {
    flag: 'batch-interval',
    env: 'FORWARDER_BATCH_INTERVAL',
    help: 'under load, send what is ready on ticks this far apart, so calls carry full batches; 0 = at once',
    default: '20ms',
  },
  {
    flag: 'namespaces',
    env: 'FORWARDER_NAMESPACES',
    help: 'comma-separated namespaces to watch (default: all)',
  },
  {
    flag: 'watch-secrets-in',
    env: 'FORWARDER_WATCH_SECRETS_IN',
    help: 'comma-separated namespaces whose Secrets (metadata only) are watched; needs a Role in each (default: none)',
  },
  {
    flag: 'leader-elect',
    env: 'FORWARDER_LEADER_ELECT',
    help: 'compete for the Lease; false = always lead (one replica only!)',
    default: 'true',
  },
  { flag: 'lease-name', env: 'FORWARDER_LEASE_NAME', help: 'Lease name', default: 'multicluster-forwarder' },
  {
    flag: 'lease-namespace',
    env: 'FORWARDER_LEASE_NAMESPACE',
    help: 'Lease namespace (on the Karmada API server)',
    default: 'karmada-system',
  },
  {
    flag: 'identity',
    env: 'POD_NAME',
    help: "this replica's identity in the Lease (default: hostname + random suffix)",
  },
  { flag: 'port', env: 'FORWARDER_PORT', help: 'port for /healthz, /readyz and /metrics', default: '8080' },
  { flag: 'log-level', env: 'LOG_LEVEL', help: 'DEBUG | INFO | WARN | ERROR', default: 'INFO' },
  {
    flag: 'shutdown-timeout',
    env: 'FORWARDER_SHUTDOWN_TIMEOUT',
    help: 'how long SIGTERM may spend flushing',
    default: '20s',
  },
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `100ms`, `30s`, `10m`, `1h`, `1m30s`; a bare number is seconds. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let rest = s;
  while (rest.length > 0) {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(rest);
    if (!m || m[1] === undefined || m[2] === undefined) throw new ConfigError(`invalid duration: ${text}`);
    total += Number(m[1]) * (units[m[2]] ?? 0);
    rest = rest.slice(m[0].length);
  }
  if (s.length === 0) throw new ConfigError('empty duration');
  return total;
}

function parseBool(text: string, name: string): boolean {
  if (/^(true|1|yes)$/i.test(text)) return true;
  if (/^(false|0|no)$/i.test(text)) return false;
  throw new ConfigError(`--${name}: expected true or false, got ${text}`);
}

function parseArgs(argv: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '-h' || arg === '--help') {
      out.set('help', 'true');
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || m[1] === undefined) throw new ConfigError(`unexpected argument: ${arg}`);
    const name = m[1];
    if (!OPTIONS.some((o) => o.flag === name)) throw new ConfigError(`unknown flag: --${name}`);
    let value = m[2];
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
      value = next;
      i++;
    }
    out.set(name, value);
  }
  return out;
}

export function loadConfig(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ForwarderConfig {
  const args = parseArgs(argv);
  const get = (flag: string): string | undefined => {
    const o = OPTIONS.find((x) => x.flag === flag);
    const v = args.get(flag) ?? (o ? env[o.env] : undefined);
    return v === undefined || v === '' ? o?.default : v;
  };
  const help = args.has('help');
  const sink = get('sink') as SinkType;
  if (!SINK_TYPES.includes(sink)) throw new ConfigError(`--sink must be one of ${SINK_TYPES.join(', ')}`);
  const sinkTarget = get('sink-target') ?? '';
  if (!help && !sinkTarget) throw new ConfigError('--sink-target (or FORWARDER_SINK_TARGET) is required');
  const port = Number(get('port'));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError('--port must be 0-65535');
  const batchSize = Number(get('batch-size'));
  // The functions refuse requests carrying more (MAX_NOTIFICATIONS_PER_REQUEST).
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100)
    throw new ConfigError('--batch-size must be an integer from 1 to 100');
  const namespaces = get('namespaces')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const coalesceWindowMs = parseDuration(get('coalesce-window') ?? '100ms');
  const endpointSliceWindowMs = parseDuration(get('endpointslice-coalesce-window') ?? '1s');
  if (endpointSliceWindowMs > parseDuration(MAX_ENDPOINTSLICE_WINDOW))
    throw new ConfigError(`--endpointslice-coalesce-window must be at most ${MAX_ENDPOINTSLICE_WINDOW}`);
  const secretNamespaces = get('watch-secrets-in')
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const opt = <K extends string, V>(key: K, v: V | undefined): Partial<Record<K, V>> =>
    v === undefined ? {} : ({ [key]: v } as Record<K, V>);
  return {
    help,
    ...opt('kubeconfig', get('kubeconfig')),
    sink,
    sinkTarget,
    ...opt('sinkEndpoint', get('sink-endpoint')),
    sinkSign: get('sink-sign') === 'auto' ? 'auto' : parseBool(get('sink-sign') ?? 'auto', 'sink-sign'),
    ...opt('region', get('region')),
    batchSize,
    resyncPeriodMs: parseDuration(get('resync-period') ?? '0'),
    coalesceWindowMs,
    endpointSliceWindowMs: Math.max(coalesceWindowMs, endpointSliceWindowMs),
    batchIntervalMs: parseDuration(get('batch-interval') ?? '20ms'),
    ...(namespaces && namespaces.length > 0 ? { namespaces } : {}),
    ...(secretNamespaces && secretNamespaces.length > 0 ? { secretNamespaces } : {}),
    leaderElect: parseBool(get('leader-elect') ?? 'true', 'leader-elect'),
    leaseName: get('lease-name') ?? 'multicluster-forwarder',
    leaseNamespace: get('lease-namespace') ?? 'karmada-system',
    ...opt('identity', get('identity')),
    port,
    logLevel: (get('log-level') ?? 'INFO').toUpperCase(),
    shutdownTimeoutMs: parseDuration(get('shutdown-timeout') ?? '20s'),
  };
}

export function helpText(): string {
  const rows = OPTIONS.map((o) => {
    const def = o.default ? ` (default ${o.default})` : '';
    return `  --${o.flag.padEnd(18)} $${o.env.padEnd(27)} ${o.help}${def}`;
  });
  return [
    'multicluster-forwarder: watches Karmada objects and sends a ChangeNotification for each change',
    '(and for every object on start, on every re-list and on every resync) to SQS FIFO, Lambda or HTTP.',
    '',
    'Usage: node forwarder.mjs --sink sqs --sink-target https://sqs.<region>.amazonaws.com/<account>/<queue>.fifo',
    '',
    'Flags and environment variables (a flag wins):',
    ...rows,
    '  --help, -h',
    '',
    'Endpoints: GET /healthz, /readyz (leader with initial sync done, or standby), /metrics (Prometheus).',
    'SIGTERM/SIGINT: stop watching, flush queued notifications (up to --shutdown-timeout), release the Lease.',
    '',
  ].join('\n');
}
