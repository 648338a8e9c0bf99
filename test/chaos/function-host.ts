/**
 * The HTTP function as `npm start` runs it (functions/http.ts on a local function URL), with the
 * AWS provider configured from the environment exactly as in Lambda, plus the kill switch: each
 * invocation may be planned to die right after one of its ELBv2 calls.
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { startFunctionServer } from '../../dev/local/function-server.js';
import type { Rng } from './prng.js';
import { instrumentElbv2, type Elbv2Instrumentation, type KillPlan } from './invocation-kills.js';
import type { Profiler } from './profiler.js';

export interface FunctionEnv {
  kubeconfigPath: string;
  cloudConfigPath: string;
  providerIngressClass: string;
  logLevel: string;
  region: string;
}

export interface FunctionHost {
  url: string;
  elbv2: Elbv2Instrumentation;
  invocations: number;
  /** Invocations answered with an error (killed, or some object failed): the sender retries. */
  failedInvocations: number;
  /** Invocations answered 202: nothing failed, some objects wait (on GA, on another invocation). */
  waitingInvocations: number;
  /** Waiting notifications by the delay they asked for, and the objects reconciled most often. */
  waits(): string;
  inFlight: number;
  /** Stops planning kills (quiesce). */
  calm(): void;
  close(): Promise<void>;
}

/**
 * The function reads its configuration from the environment at its first invocation after the
 * kubeconfig changes (a new runtime per kubeconfig file), so each run sets it before starting.
 */
function setEnvironment(env: FunctionEnv): void {
  process.env.MULTICLUSTER_PROVIDER = 'aws';
  process.env.PROVIDER_INGRESS_CLASS = env.providerIngressClass;
  process.env.CLOUD_CONFIG = env.cloudConfigPath;
  process.env.KUBECONFIG = env.kubeconfigPath;
  process.env.LOG_LEVEL ??= env.logLevel;
  process.env.AWS_LAMBDA_FUNCTION_NAME ??= 'multicluster-cloud-provider-chaos-http';
  // The SDK insists on credentials; the simulator ignores them.
  process.env.AWS_ACCESS_KEY_ID ??= 'chaos';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'chaos';
  process.env.AWS_REGION ??= env.region;
}

export async function startFunctionHost(
  env: FunctionEnv,
  rng: Rng,
  kills: { probability: number; afterMax: number },
  profiler?: Profiler,
): Promise<FunctionHost> {
  setEnvironment(env);
  const { handler } = await import('../../functions/http.js');
  const elbv2 = instrumentElbv2();
  let killing = true;
  const waitDelays = new Map<string, number>();
  const reconciledKeys = new Map<string, number>();
  const tally = (body: string | undefined) => {
    try {
      const parsed = JSON.parse(body ?? '{}') as {
        results?: Array<{ waiting?: boolean; retryAfterSeconds?: number; results?: Array<{ key: string }> }>;
      };
      for (const item of parsed.results ?? []) {
        if (item.waiting) {
          const d = String(item.retryAfterSeconds ?? '-');
          waitDelays.set(d, (waitDelays.get(d) ?? 0) + 1);
        }
        for (const r of item.results ?? []) reconciledKeys.set(r.key, (reconciledKeys.get(r.key) ?? 0) + 1);
      }
    } catch {
      // Not a results body (an error answer): nothing to count.
    }
  };
  const host = {
    url: '',
    elbv2,
    invocations: 0,
    failedInvocations: 0,
    waitingInvocations: 0,
    waits: () =>
      `  waiting notifications by retry delay: ${[...waitDelays.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([d, n]) => `${d} s ×${n}`)
        .join(', ')} | reconciled most: ${[...reconciledKeys.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ')}`,
    inFlight: 0,
    calm: () => {
      killing = false;
    },
    close: async () => undefined as void,
  };
  const server = await startFunctionServer(async (event: APIGatewayProxyEventV2, context: Context) => {
    host.invocations++;
    host.inFlight++;
    const plan: KillPlan = {
      calls: 0,
      killed: false,
      ...(killing && rng.chance(kills.probability) ? { afterCalls: rng.int(1, kills.afterMax) } : {}),
    };
    try {
      const invoke = () => elbv2.context.run(plan, () => handler(event, context));
      const profiled = profiler ? await profiler.run(invoke) : { value: await invoke(), finish: undefined };
      const result = profiled.value;
      tally(result.body);
      const failed = plan.killed || (result.statusCode ?? 200) >= 300;
      if (failed) host.failedInvocations++;
      else if (result.statusCode === 202) host.waitingInvocations++;
      // A killed invocation returns nothing to its caller, whatever its handler got to.
      const answer = plan.killed ? { statusCode: 502, body: '{"error":"invocation killed"}' } : result;
      profiled.finish?.(answer.statusCode ?? 200, notificationsIn(event.body));
      return answer;
    } finally {
      host.inFlight--;
    }
  }, 'chaos-http');
  host.url = server.url;
  host.close = async () => {
    await server.close();
    elbv2.uninstall();
  };
  return host;
}

function notificationsIn(body: string | undefined): number {
  try {
    return (JSON.parse(body ?? '{}') as { notifications?: unknown[] }).notifications?.length ?? 0;
  } catch {
    return 0;
  }
}
