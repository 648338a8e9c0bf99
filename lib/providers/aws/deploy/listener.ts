/** Listeners (LBC pkg/deploy/elbv2/listener_synthesizer.go): matched by port on our load balancer. */
import {
  CreateListenerCommand,
  DeleteListenerCommand,
  DescribeListenersCommand,
  ModifyListenerCommand,
  type Listener,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { ListenerResource } from '../model/types.js';
import { recordToTags } from '../tagging.js';
import { actionsKey, toSdkActions, type ArnResolver } from './actions.js';
import { call, type DeployContext } from './context.js';

export interface DeployedListener {
  arn: string;
  port: number;
  /** Created in this run: it has no rules yet. */
  created: boolean;
}

export async function describeListeners(ctx: DeployContext, lbArn: string): Promise<Listener[]> {
  const out: Listener[] = [];
  let marker: string | undefined;
  do {
    const res = await call(ctx, 'DescribeListeners', (o) =>
      ctx.client.send(new DescribeListenersCommand({ LoadBalancerArn: lbArn, Marker: marker }), o),
    );
    out.push(...(res.Listeners ?? []));
    marker = res.NextMarker;
  } while (marker);
  return out;
}

/** Returns listener resource ID → deployed listener. */
export async function synthesizeListeners(
  ctx: DeployContext,
  lb: { arn: string; created: boolean },
  desired: readonly ListenerResource[],
  resolve: ArnResolver,
): Promise<Map<string, DeployedListener>> {
  const actual = lb.created ? [] : await describeListeners(ctx, lb.arn);
  const out = new Map<string, DeployedListener>();
  const desiredPorts = new Set(desired.map((d) => d.spec.port));
  // Unmatched listeners first, as LBC does: a port we no longer serve stops serving now.
  for (const a of actual) {
    if (a.Port !== undefined && desiredPorts.has(a.Port)) continue;
    await call(ctx, 'DeleteListener', (o) =>
      ctx.client.send(new DeleteListenerCommand({ ListenerArn: a.ListenerArn }), o),
    );
    ctx.logger.info('deleted listener', { port: a.Port });
  }
  for (const d of desired) {
    const defaultActions = toSdkActions(d.spec.defaultActions, resolve);
    const a = actual.find((l) => l.Port === d.spec.port);
    if (a?.ListenerArn) {
      if (a.Protocol !== d.spec.protocol || actionsKey(a.DefaultActions) !== actionsKey(defaultActions)) {
        await call(ctx, 'ModifyListener', (o) =>
          ctx.client.send(
            new ModifyListenerCommand({
              ListenerArn: a.ListenerArn,
              Port: d.spec.port,
              Protocol: d.spec.protocol,
              DefaultActions: defaultActions,
            }),
            o,
          ),
        );
      }
      out.set(d.id, { arn: a.ListenerArn, port: d.spec.port, created: false });
      continue;
    }
    const res = await call(ctx, 'CreateListener', (o) =>
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.arn,
          Port: d.spec.port,
          Protocol: d.spec.protocol,
          DefaultActions: defaultActions,
          Tags: recordToTags(d.spec.tags),
        }),
        o,
      ),
    );
    const arn = res.Listeners?.[0]?.ListenerArn;
    if (!arn) throw new Error(`CreateListener :${d.spec.port} returned no ARN`);
    ctx.logger.info('created listener', { port: d.spec.port });
    out.set(d.id, { arn, port: d.spec.port, created: true });
  }
  return out;
}
