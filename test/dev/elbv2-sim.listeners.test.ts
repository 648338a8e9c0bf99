import {
  AddListenerCertificatesCommand,
  CreateListenerCommand,
  CreateLoadBalancerCommand,
  DeleteListenerCommand,
  DeleteLoadBalancerCommand,
  DescribeListenerCertificatesCommand,
  DescribeListenersCommand,
  DescribeTargetGroupsCommand,
  ModifyListenerCommand,
  RemoveListenerCertificatesCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Action } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  addRule,
  CERT,
  CERT2,
  createAlb,
  createHttpListener,
  createTg,
  notFound404,
  sdkError,
  SUBNET_A,
  useSim,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: listeners', () => {
  const ctx = useSim();

  it('creates HTTP and HTTPS listeners with real-format ARNs and rejects a duplicate port', async () => {
    const lb = await createAlb(ctx.client, 'web');
    const http = await createHttpListener(ctx.client, lb, 80);
    const lbId = lb.LoadBalancerArn!.split('/').pop();
    expect(http.ListenerArn).toMatch(new RegExp(`:listener/app/web/${lbId}/[0-9a-f]{16}$`));
    expect(http.DefaultActions).toEqual([{ ...notFound404, Order: 1 }]);

    const https = await ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        Protocol: 'HTTPS',
        Port: 443,
        Certificates: [{ CertificateArn: CERT }],
        DefaultActions: [notFound404],
      }),
    );
    expect(https.Listeners![0]).toMatchObject({
      SslPolicy: 'ELBSecurityPolicy-2016-08',
      Certificates: [{ CertificateArn: CERT }],
    });

    const dup = await sdkError(createHttpListener(ctx.client, lb, 80));
    expect(dup.name).toBe('DuplicateListenerException');
    const noCert = await sdkError(
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Protocol: 'HTTPS',
          Port: 8443,
          DefaultActions: [notFound404],
        }),
      ),
    );
    expect(noCert.name).toBe('ValidationError');
  });

  it('describes by LoadBalancerArn and ListenerArns, modifies, deletes', async () => {
    const lb = await createAlb(ctx.client);
    const l80 = await createHttpListener(ctx.client, lb, 80);
    await createHttpListener(ctx.client, lb, 8080);
    const all = await ctx.client.send(new DescribeListenersCommand({ LoadBalancerArn: lb.LoadBalancerArn }));
    expect(all.Listeners!.map((l) => l.Port)).toEqual([80, 8080]);

    const tg = await createTg(ctx.client);
    const modified = await ctx.client.send(
      new ModifyListenerCommand({
        ListenerArn: l80.ListenerArn,
        Port: 81,
        DefaultActions: [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }],
      }),
    );
    expect(modified.Listeners![0]!.Port).toBe(81);
    expect(modified.Listeners![0]!.DefaultActions![0]).toEqual({
      Type: 'forward',
      TargetGroupArn: tg.TargetGroupArn,
      Order: 1,
      ForwardConfig: {
        TargetGroups: [{ TargetGroupArn: tg.TargetGroupArn, Weight: 1 }],
        TargetGroupStickinessConfig: { Enabled: false },
      },
    });
    const clash = await sdkError(
      ctx.client.send(new ModifyListenerCommand({ ListenerArn: l80.ListenerArn, Port: 8080 })),
    );
    expect(clash.name).toBe('DuplicateListenerException');

    await ctx.client.send(new DeleteListenerCommand({ ListenerArn: l80.ListenerArn }));
    const gone = await sdkError(
      ctx.client.send(new DescribeListenersCommand({ ListenerArns: [l80.ListenerArn!] })),
    );
    expect(gone.name).toBe('ListenerNotFoundException');
  });

  it('adds, describes and removes extra certificates', async () => {
    const lb = await createAlb(ctx.client);
    const out = await ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: lb.LoadBalancerArn,
        Protocol: 'HTTPS',
        Port: 443,
        Certificates: [{ CertificateArn: CERT }],
        DefaultActions: [notFound404],
      }),
    );
    const arn = out.Listeners![0]!.ListenerArn;
    await ctx.client.send(
      new AddListenerCertificatesCommand({ ListenerArn: arn, Certificates: [{ CertificateArn: CERT2 }] }),
    );
    const certs = await ctx.client.send(new DescribeListenerCertificatesCommand({ ListenerArn: arn }));
    expect(certs.Certificates).toEqual([
      { CertificateArn: CERT, IsDefault: true },
      { CertificateArn: CERT2, IsDefault: false },
    ]);
    await ctx.client.send(
      new RemoveListenerCertificatesCommand({ ListenerArn: arn, Certificates: [{ CertificateArn: CERT2 }] }),
    );
    const after = await ctx.client.send(new DescribeListenerCertificatesCommand({ ListenerArn: arn }));
    expect(after.Certificates).toHaveLength(1);
    const bad = await sdkError(
      ctx.client.send(
        new AddListenerCertificatesCommand({ ListenerArn: arn, Certificates: [{ CertificateArn: 'nope' }] }),
      ),
    );
    expect(bad.name).toBe('CertificateNotFoundException');
  });

  it('refuses a TG already used by another load balancer (TargetGroupAssociationLimit)', async () => {
    const tg = await createTg(ctx.client);
    const forward: Action[] = [{ Type: 'forward', TargetGroupArn: tg.TargetGroupArn }];
    await createHttpListener(ctx.client, await createAlb(ctx.client, 'one'), 80, forward);
    const err = await sdkError(
      createHttpListener(ctx.client, await createAlb(ctx.client, 'two'), 80, forward),
    );
    expect(err.name).toBe('TargetGroupAssociationLimitException');
  });

  it('deleting a load balancer deletes its listeners and rules and detaches its target groups', async () => {
    const tg = await createTg(ctx.client);
    const lb = await createAlb(ctx.client);
    const listener = await createHttpListener(ctx.client, lb, 80, [
      { Type: 'forward', TargetGroupArn: tg.TargetGroupArn },
    ]);
    await addRule(ctx.client, listener, 1);
    await ctx.client.send(new DeleteLoadBalancerCommand({ LoadBalancerArn: lb.LoadBalancerArn }));
    const snap = ctx.sim.snapshot();
    expect(snap.listeners).toEqual([]);
    expect(snap.rules).toEqual([]);
    const tgs = await ctx.client.send(
      new DescribeTargetGroupsCommand({ TargetGroupArns: [tg.TargetGroupArn!] }),
    );
    expect(tgs.TargetGroups![0]!.LoadBalancerArns).toEqual([]);
  });

  it('only allows forward to TCP target groups on NLB listeners', async () => {
    const nlb = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'nlb', Type: 'network', Subnets: [SUBNET_A] }),
      )
    ).LoadBalancers![0]!;
    const tcp = await createTg(ctx.client, 'tcp', { Protocol: 'TCP', Port: 5432 });
    const ok = await ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: nlb.LoadBalancerArn,
        Protocol: 'TCP',
        Port: 5432,
        DefaultActions: [{ Type: 'forward', TargetGroupArn: tcp.TargetGroupArn }],
      }),
    );
    expect(ok.Listeners![0]!.Protocol).toBe('TCP');
    const http = await sdkError(
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: nlb.LoadBalancerArn,
          Protocol: 'HTTP',
          Port: 80,
          DefaultActions: [notFound404],
        }),
      ),
    );
    expect(http.name).toBe('UnsupportedProtocolException');
  });

  it('NLB listeners forward to up to 5 weighted target groups of one protocol and IP address type', async () => {
    const nlb = (
      await ctx.client.send(
        new CreateLoadBalancerCommand({ Name: 'nlb-w', Type: 'network', Subnets: [SUBNET_A] }),
      )
    ).LoadBalancers![0]!;
    const tcp = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => createTg(ctx.client, `tcp-${i}`, { Protocol: 'TCP', Port: 5432 })),
    );
    const tls = await createTg(ctx.client, 'tls', { Protocol: 'TLS', Port: 5432 });
    const forward = (tgs: Array<{ TargetGroupArn?: string }>): Action[] => [
      {
        Type: 'forward',
        ForwardConfig: {
          TargetGroups: tgs.map((t, i) => ({ TargetGroupArn: t.TargetGroupArn, Weight: i * 10 })),
        },
      },
    ];
    const created = await ctx.client.send(
      new CreateListenerCommand({
        LoadBalancerArn: nlb.LoadBalancerArn,
        Protocol: 'TCP',
        Port: 5432,
        DefaultActions: forward(tcp.slice(0, 2)),
      }),
    );
    expect(created.Listeners![0]!.DefaultActions).toEqual([
      {
        Type: 'forward',
        Order: 1,
        ForwardConfig: {
          TargetGroups: [
            { TargetGroupArn: tcp[0]!.TargetGroupArn, Weight: 0 },
            { TargetGroupArn: tcp[1]!.TargetGroupArn, Weight: 10 },
          ],
          TargetGroupStickinessConfig: { Enabled: false },
        },
      },
    ]);
    const arn = created.Listeners![0]!.ListenerArn;
    const six = await sdkError(
      ctx.client.send(new ModifyListenerCommand({ ListenerArn: arn, DefaultActions: forward(tcp) })),
    );
    expect([six.name, six.message]).toEqual([
      'ValidationError',
      'A forward action can have at most 5 target groups',
    ]);
    // A TLS listener's groups share one protocol (TCP and TLS are each allowed alone).
    const mixed = await sdkError(
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: nlb.LoadBalancerArn,
          Protocol: 'TLS',
          Port: 443,
          Certificates: [{ CertificateArn: CERT }],
          DefaultActions: forward([tcp[2]!, tls]),
        }),
      ),
    );
    expect([mixed.name, mixed.message]).toEqual([
      'ValidationError',
      'All target groups in the default action must use the same protocol',
    ]);
  });
});
