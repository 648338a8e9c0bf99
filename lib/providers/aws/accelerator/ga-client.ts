/**
 * The Global Accelerator calls, behind the SDK client: a chunk of its own in the function bundles
 * (lazy-parts.ts `loadGlobalAccelerator`), loaded only by a container whose stacks have, or had,
 * an accelerator. GA's API is in us-west-2 only, whatever the endpoints' Regions.
 */
// Costs nothing at run time (the factory is loaded before anything can load this chunk): it keeps
// esbuild from splitting the start set's chunks around what this one shares with them.
import '../factory.js';
import {
  CreateAcceleratorCommand,
  CreateEndpointGroupCommand,
  CreateListenerCommand,
  DeleteAcceleratorCommand,
  DeleteEndpointGroupCommand,
  DeleteListenerCommand,
  DescribeAcceleratorCommand,
  GlobalAcceleratorClient,
  ListAcceleratorsCommand,
  ListEndpointGroupsCommand,
  ListListenersCommand,
  ListTagsForResourceCommand,
  TagResourceCommand,
  UntagResourceCommand,
  UpdateAcceleratorCommand,
  UpdateEndpointGroupCommand,
  UpdateListenerCommand,
  type Accelerator,
  type EndpointGroup,
  type Listener,
} from '@aws-sdk/client-global-accelerator';
import type { AwsProviderConfig } from '../config.js';
import { call, isAwsError } from '../deploy/context.js';
import { tagsToRecord } from '../tagging.js';
import type { GaApi } from './ga-api.js';
import {
  GA_API_REGION,
  type ActualAccelerator,
  type ActualEndpointGroup,
  type ActualListener,
  type GaCall,
} from './types.js';

const SERVICE = 'Global Accelerator';
/** ListAccelerators', ListListeners' and ListEndpointGroups' largest page. */
const PAGE_SIZE = 100;

export function createGaClient(
  config: Pick<AwsProviderConfig, 'maxAttempts' | 'globalAccelerator'>,
): GlobalAcceleratorClient {
  const endpoint = config.globalAccelerator?.endpoint;
  return new GlobalAcceleratorClient({
    region: GA_API_REGION,
    ...(endpoint ? { endpoint } : {}),
    maxAttempts: config.maxAttempts,
  });
}

export function acceleratorOf(a: Accelerator, tags: Record<string, string> = {}): ActualAccelerator {
  const sets = [...(a.IpSets ?? [])].sort((x, y) =>
    (x.IpAddressFamily ?? '').localeCompare(y.IpAddressFamily ?? ''),
  );
  return {
    arn: a.AcceleratorArn ?? '',
    name: a.Name ?? '',
    ipAddressType: a.IpAddressType ?? 'IPV4',
    enabled: a.Enabled !== false,
    status: a.Status ?? 'IN_PROGRESS',
    dnsName: a.DnsName ?? '',
    ...(a.DualStackDnsName ? { dualStackDnsName: a.DualStackDnsName } : {}),
    ips: sets.flatMap((s) => s.IpAddresses ?? []),
    tags,
    ...(a.CreatedTime ? { createdAt: a.CreatedTime.getTime() } : {}),
  };
}

function listenerOf(l: Listener, endpointGroups: ActualEndpointGroup[]): ActualListener {
  return {
    arn: l.ListenerArn ?? '',
    protocol: l.Protocol ?? '',
    portRanges: (l.PortRanges ?? []).map((r) => ({ from: r.FromPort ?? 0, to: r.ToPort ?? 0 })),
    clientAffinity: l.ClientAffinity ?? 'NONE',
    endpointGroups,
  };
}

function endpointGroupOf(g: EndpointGroup): ActualEndpointGroup {
  return {
    arn: g.EndpointGroupArn ?? '',
    region: g.EndpointGroupRegion ?? '',
    dial: g.TrafficDialPercentage ?? 100,
    healthCheck: {
      ...(g.HealthCheckProtocol !== undefined ? { protocol: g.HealthCheckProtocol } : {}),
      ...(g.HealthCheckPort !== undefined ? { port: g.HealthCheckPort } : {}),
      ...(g.HealthCheckPath !== undefined ? { path: g.HealthCheckPath } : {}),
      ...(g.HealthCheckIntervalSeconds !== undefined
        ? { intervalSeconds: g.HealthCheckIntervalSeconds }
        : {}),
      ...(g.ThresholdCount !== undefined ? { thresholdCount: g.ThresholdCount } : {}),
    },
    endpoints: (g.EndpointDescriptions ?? []).map((e) => ({
      id: e.EndpointId ?? '',
      weight: e.Weight ?? 128,
      clientIpPreservation: e.ClientIPPreservationEnabled === true,
    })),
  };
}

export function gaApi(client: GlobalAcceleratorClient): GaApi {
  const send = <T>(
    ctx: { signal: AbortSignal },
    action: string,
    f: (o: { abortSignal: AbortSignal }) => Promise<T>,
  ) => call(ctx, action, f, SERVICE);
  return {
    async listAccelerators(ctx) {
      const out: Accelerator[] = [];
      let token: string | undefined;
      do {
        const page = await send(ctx, 'ListAccelerators', (o) =>
          client.send(
            new ListAcceleratorsCommand({ MaxResults: PAGE_SIZE, ...(token ? { NextToken: token } : {}) }),
            o,
          ),
        );
        out.push(...(page.Accelerators ?? []));
        token = page.NextToken;
      } while (token);
      return out.map((a) => acceleratorOf(a));
    },
    async describeAccelerator(arn, ctx) {
      try {
        const out = await send(ctx, 'DescribeAccelerator', (o) =>
          client.send(new DescribeAcceleratorCommand({ AcceleratorArn: arn }), o),
        );
        return out.Accelerator ? acceleratorOf(out.Accelerator) : null;
      } catch (err) {
        if (isAwsError(err, 'AcceleratorNotFoundException')) return null;
        throw err;
      }
    },
    async tagsOf(arn, ctx) {
      const out = await send(ctx, 'ListTagsForResource', (o) =>
        client.send(new ListTagsForResourceCommand({ ResourceArn: arn }), o),
      );
      return tagsToRecord(out.Tags);
    },
    async listeners(arn, ctx) {
      const listeners: Listener[] = [];
      let token: string | undefined;
      do {
        const page = await send(ctx, 'ListListeners', (o) =>
          client.send(
            new ListListenersCommand({
              AcceleratorArn: arn,
              MaxResults: PAGE_SIZE,
              ...(token ? { NextToken: token } : {}),
            }),
            o,
          ),
        );
        listeners.push(...(page.Listeners ?? []));
        token = page.NextToken;
      } while (token);
      const out: ActualListener[] = [];
      for (const l of listeners) {
        const groups: EndpointGroup[] = [];
        let next: string | undefined;
        do {
          const page = await send(ctx, 'ListEndpointGroups', (o) =>
            client.send(
              new ListEndpointGroupsCommand({
                ListenerArn: l.ListenerArn,
                MaxResults: PAGE_SIZE,
                ...(next ? { NextToken: next } : {}),
              }),
              o,
            ),
          );
          groups.push(...(page.EndpointGroups ?? []));
          next = page.NextToken;
        } while (next);
        out.push(listenerOf(l, groups.map(endpointGroupOf)));
      }
      return out;
    },
    async send(c, o) {
      return sendCall(client, c, o);
    },
  };
}

/** One call, its placeholders resolved; a create returns what it made (its ARN, and an accelerator's addresses). */
async function sendCall(
  client: GlobalAcceleratorClient,
  c: GaCall,
  o: { abortSignal: AbortSignal },
): Promise<{ arn?: string; accelerator?: ActualAccelerator }> {
  switch (c.action) {
    case 'CreateAccelerator': {
      const out = await client.send(new CreateAcceleratorCommand(c.input), o);
      return out.Accelerator
        ? {
            arn: out.Accelerator.AcceleratorArn ?? '',
            accelerator: acceleratorOf(out.Accelerator, tagsToRecord(c.input.Tags)),
          }
        : {};
    }
    case 'UpdateAccelerator': {
      const out = await client.send(new UpdateAcceleratorCommand(c.input), o);
      return out.Accelerator ? { accelerator: acceleratorOf(out.Accelerator) } : {};
    }
    case 'DeleteAccelerator':
      await client.send(new DeleteAcceleratorCommand(c.input), o);
      return {};
    case 'TagResource':
      await client.send(new TagResourceCommand(c.input), o);
      return {};
    case 'UntagResource':
      await client.send(new UntagResourceCommand(c.input), o);
      return {};
    case 'CreateListener': {
      const out = await client.send(new CreateListenerCommand(c.input), o);
      return { arn: out.Listener?.ListenerArn ?? '' };
    }
    case 'UpdateListener':
      await client.send(new UpdateListenerCommand(c.input), o);
      return {};
    case 'DeleteListener':
      await client.send(new DeleteListenerCommand(c.input), o);
      return {};
    case 'CreateEndpointGroup': {
      const out = await client.send(new CreateEndpointGroupCommand(c.input), o);
      return { arn: out.EndpointGroup?.EndpointGroupArn ?? '' };
    }
    case 'UpdateEndpointGroup':
      await client.send(new UpdateEndpointGroupCommand(c.input), o);
      return {};
    case 'DeleteEndpointGroup':
      await client.send(new DeleteEndpointGroupCommand(c.input), o);
      return {};
  }
}

export function configuredGa(
  config: Pick<AwsProviderConfig, 'maxAttempts' | 'globalAccelerator'>,
  client?: GlobalAcceleratorClient,
): GaApi {
  return gaApi(client ?? createGaClient(config));
}
