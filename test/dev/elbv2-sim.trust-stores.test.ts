import {
  AddTagsCommand,
  CreateListenerCommand,
  CreateTrustStoreCommand,
  DeleteTrustStoreCommand,
  DescribeListenersCommand,
  DescribeTagsCommand,
  DescribeTrustStoreAssociationsCommand,
  DescribeTrustStoresCommand,
  GetTrustStoreCaCertificatesBundleCommand,
  ModifyListenerCommand,
  ModifyTrustStoreCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import type { TrustStore } from '@aws-sdk/client-elastic-load-balancing-v2';
import { describe, expect, it } from 'vitest';
import {
  CERT,
  createAlb,
  createHttpListener,
  createHttpsListener,
  notFound404,
  sdkError,
  useSim,
} from './elbv2-sim-fixtures.js';

describe('ELBv2 simulator: trust stores', () => {
  const ctx = useSim();
  const create = async (name = 'clients', bucket = 'ca-bundles'): Promise<TrustStore> =>
    (
      await ctx.client.send(
        new CreateTrustStoreCommand({
          Name: name,
          CaCertificatesBundleS3Bucket: bucket,
          CaCertificatesBundleS3Key: 'ca/bundle.pem',
          Tags: [{ Key: 'owner', Value: 'team-a' }],
        }),
      )
    ).TrustStores![0]!;

  it('creates a trust store from an S3 CA bundle reference, describes it by ARN and name, tags it', async () => {
    const ts = await create();
    expect(ts).toEqual({
      Name: 'clients',
      TrustStoreArn: expect.stringMatching(
        /^arn:aws:elasticloadbalancing:us-east-1:123456789012:truststore\/clients\/[0-9a-f]{16}$/,
      ),
      Status: 'ACTIVE',
      NumberOfCaCertificates: 1,
      TotalRevokedEntries: 0,
    });
    const byName = await ctx.client.send(new DescribeTrustStoresCommand({ Names: ['clients'] }));
    expect(byName.TrustStores).toEqual([ts]);
    const byArn = await ctx.client.send(
      new DescribeTrustStoresCommand({ TrustStoreArns: [ts.TrustStoreArn!] }),
    );
    expect(byArn.TrustStores).toEqual([ts]);
    await ctx.client.send(
      new AddTagsCommand({ ResourceArns: [ts.TrustStoreArn!], Tags: [{ Key: 'env', Value: 'dev' }] }),
    );
    const tags = await ctx.client.send(new DescribeTagsCommand({ ResourceArns: [ts.TrustStoreArn!] }));
    expect(tags.TagDescriptions![0]!.Tags).toEqual([
      { Key: 'owner', Value: 'team-a' },
      { Key: 'env', Value: 'dev' },
    ]);
    const missing = await sdkError(ctx.client.send(new DescribeTrustStoresCommand({ Names: ['nope'] })));
    expect(missing.name).toBe('TrustStoreNotFoundException');
    const location = await ctx.client.send(
      new GetTrustStoreCaCertificatesBundleCommand({ TrustStoreArn: ts.TrustStoreArn }),
    );
    expect(location.Location).toBe('https://ca-bundles.s3.us-east-1.amazonaws.com/ca/bundle.pem');
  });

  it('refuses duplicates, malformed buckets and more trust stores than the quota', async () => {
    await create();
    expect((await sdkError(create())).name).toBe('DuplicateTrustStoreNameException');
    expect((await sdkError(create('other', 'Bad_Bucket'))).message).toContain('not valid');
    ctx.sim.state.store.limits.trustStores = 2;
    await create('second');
    expect((await sdkError(create('third'))).name).toBe('TooManyTrustStoresException');
  });

  it('modifies the bundle and deletes a trust store only once no listener verifies against it', async () => {
    const ts = await create();
    await ctx.client.send(
      new ModifyTrustStoreCommand({
        TrustStoreArn: ts.TrustStoreArn,
        CaCertificatesBundleS3Bucket: 'new-bundles',
        CaCertificatesBundleS3Key: 'v2.pem',
        CaCertificatesBundleS3ObjectVersion: 'abc',
      }),
    );
    const location = await ctx.client.send(
      new GetTrustStoreCaCertificatesBundleCommand({ TrustStoreArn: ts.TrustStoreArn }),
    );
    expect(location.Location).toBe('https://new-bundles.s3.us-east-1.amazonaws.com/v2.pem?versionId=abc');
    const lb = await createAlb(ctx.client);
    const listener = (
      await ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Protocol: 'HTTPS',
          Port: 443,
          Certificates: [{ CertificateArn: CERT }],
          DefaultActions: [notFound404],
          MutualAuthentication: { Mode: 'verify', TrustStoreArn: ts.TrustStoreArn },
        }),
      )
    ).Listeners![0]!;
    const associations = await ctx.client.send(
      new DescribeTrustStoreAssociationsCommand({ TrustStoreArn: ts.TrustStoreArn }),
    );
    expect(associations.TrustStoreAssociations).toEqual([{ ResourceArn: listener.ListenerArn }]);
    const inUse = await sdkError(
      ctx.client.send(new DeleteTrustStoreCommand({ TrustStoreArn: ts.TrustStoreArn })),
    );
    expect(inUse.name).toBe('TrustStoreInUseException');
    await ctx.client.send(
      new ModifyListenerCommand({ ListenerArn: listener.ListenerArn, MutualAuthentication: { Mode: 'off' } }),
    );
    await ctx.client.send(new DeleteTrustStoreCommand({ TrustStoreArn: ts.TrustStoreArn }));
    expect(ctx.sim.state.trustStores()).toEqual([]);
    expect(ctx.sim.state.tags()).toEqual([]);
  });
});

describe('ELBv2 simulator: listener mutual authentication', () => {
  const ctx = useSim();

  it('reports mode off by default on HTTPS, keeps verify settings, and checks mode and trust store', async () => {
    const ts = (
      await ctx.client.send(
        new CreateTrustStoreCommand({
          Name: 'ts',
          CaCertificatesBundleS3Bucket: 'b-1',
          CaCertificatesBundleS3Key: 'k',
        }),
      )
    ).TrustStores![0]!;
    const lb = await createAlb(ctx.client);
    const https = await createHttpsListener(ctx.client, lb);
    expect(https.MutualAuthentication).toEqual({ Mode: 'off' });
    const http = await createHttpListener(ctx.client, lb);
    expect(http.MutualAuthentication).toBeUndefined();

    const verify = await ctx.client.send(
      new ModifyListenerCommand({
        ListenerArn: https.ListenerArn,
        MutualAuthentication: {
          Mode: 'verify',
          TrustStoreArn: ts.TrustStoreArn,
          IgnoreClientCertificateExpiry: true,
          AdvertiseTrustStoreCaNames: 'on',
        },
      }),
    );
    expect(verify.Listeners![0]!.MutualAuthentication).toEqual({
      Mode: 'verify',
      TrustStoreArn: ts.TrustStoreArn,
      IgnoreClientCertificateExpiry: true,
      AdvertiseTrustStoreCaNames: 'on',
    });
    const described = await ctx.client.send(
      new DescribeListenersCommand({ ListenerArns: [https.ListenerArn!] }),
    );
    expect(described.Listeners![0]!.MutualAuthentication!.Mode).toBe('verify');

    const modify = (m: object, arn = https.ListenerArn) =>
      sdkError(ctx.client.send(new ModifyListenerCommand({ ListenerArn: arn, MutualAuthentication: m })));
    expect((await modify({ Mode: 'verify' })).message).toContain('trust store ARN must be specified');
    expect((await modify({ Mode: 'passthrough', TrustStoreArn: ts.TrustStoreArn })).message).toContain(
      "only to mode 'verify'",
    );
    expect((await modify({ Mode: 'strict' })).message).toContain('enum');
    expect((await modify({ Mode: 'off' }, http.ListenerArn)).message).toContain('only for HTTPS listeners');
    const gone = await modify({ Mode: 'verify', TrustStoreArn: `${ts.TrustStoreArn!.slice(0, -4)}ffff` });
    expect(gone.name).toBe('TrustStoreNotFoundException');
  });

  it('allows two verify listeners per load balancer', async () => {
    const ts = (
      await ctx.client.send(
        new CreateTrustStoreCommand({
          Name: 'ts',
          CaCertificatesBundleS3Bucket: 'b-1',
          CaCertificatesBundleS3Key: 'k',
        }),
      )
    ).TrustStores![0]!;
    const lb = await createAlb(ctx.client);
    const verifyOn = (port: number) =>
      ctx.client.send(
        new CreateListenerCommand({
          LoadBalancerArn: lb.LoadBalancerArn,
          Protocol: 'HTTPS',
          Port: port,
          Certificates: [{ CertificateArn: CERT }],
          DefaultActions: [notFound404],
          MutualAuthentication: { Mode: 'verify', TrustStoreArn: ts.TrustStoreArn },
        }),
      );
    await verifyOn(443);
    await verifyOn(8443);
    const third = await sdkError(verifyOn(9443));
    expect(third.name).toBe('TooManyListenersException');
    expect(third.message).toContain('verify mode');
  });
});
