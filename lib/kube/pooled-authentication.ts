/**
 * The kubeconfig's credentials over kept-alive connections (client-node.ts's KubeClient uses it).
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig, RequestContext, SecurityAuthentication } from '@kubernetes/client-node';

/**
 * A connection left idle this long is not used again: the API server's load balancer (an EKS
 * endpoint's NLB: 350 s) or a frozen Lambda may have dropped it without a word.
 */
const IDLE_REUSE_MS = 30_000;

/**
 * The kubeconfig's credentials, applied per request as client-node applies them (tokens from exec
 * plugins and auth providers refresh), over kept-alive connections. client-node makes a new
 * `https.Agent` for every request, so every call opened a TCP and TLS connection of its own: a
 * handshake per read against the API server. Here requests with the same TLS identity (CA, client
 * certificate, server name) share one keep-alive agent. Proxy agents are left as client-node makes
 * them.
 */
export class PooledAuthentication implements SecurityAuthentication {
  private readonly agents = new Map<string, { agent: http.Agent; usedAt: number }>();

  constructor(
    private readonly kubeConfig: KubeConfig,
    private readonly now: () => number = () => performance.now(),
  ) {}

  getName(): string {
    return 'kubeconfig, pooled connections';
  }

  async applySecurityAuthentication(context: RequestContext): Promise<void> {
    await this.kubeConfig.applySecurityAuthentication(context);
    const fresh = context.getAgent();
    const plain = fresh?.constructor === https.Agent || fresh?.constructor === http.Agent;
    if (!fresh || !plain) return;
    const options = (fresh as https.Agent).options;
    const key = createHash('sha256')
      .update(fresh.constructor === https.Agent ? 'https' : 'http')
      .update(
        JSON.stringify(
          [
            options.ca,
            options.cert,
            options.key,
            options.pfx,
            options.passphrase,
            options.rejectUnauthorized,
            options.servername,
          ].map((v) => (v === undefined ? null : String(v))),
        ),
      )
      .digest('hex');
    const now = this.now();
    let pooled = this.agents.get(key);
    if (pooled && now - pooled.usedAt > IDLE_REUSE_MS) {
      pooled.agent.destroy();
      pooled = undefined;
    }
    if (!pooled) {
      const keepAlive = { ...options, keepAlive: true };
      pooled = {
        agent: fresh.constructor === https.Agent ? new https.Agent(keepAlive) : new http.Agent(keepAlive),
        usedAt: now,
      };
      this.agents.set(key, pooled);
    }
    pooled.usedAt = now;
    context.setAgent(pooled.agent);
  }
}
