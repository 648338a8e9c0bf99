/**
 * The WAFv2, Shield and ACM simulators through the real SDK clients: their wire protocol
 * (awsJson1_1), their errors as the SDK's exception classes, and the ELBv2 simulator's load
 * balancers as the resources WAFv2 and Shield check.
 */
import {
  DescribeCertificateCommand,
  ImportCertificateCommand,
  ListCertificatesCommand,
  ResourceNotFoundException as AcmNotFound,
  ValidationException as AcmValidation,
} from '@aws-sdk/client-acm';
import {
  CreateProtectionCommand,
  DeleteProtectionCommand,
  DescribeProtectionCommand,
  GetSubscriptionStateCommand,
  ListProtectionsCommand,
  ListTagsForResourceCommand,
  ResourceAlreadyExistsException,
  ResourceNotFoundException,
} from '@aws-sdk/client-shield';
import {
  AssociateWebACLCommand,
  DisassociateWebACLCommand,
  GetWebACLCommand,
  GetWebACLForResourceCommand,
  ListWebACLsCommand,
  WAFInvalidParameterException,
  WAFNonexistentItemException,
  WAFUnavailableEntityException,
} from '@aws-sdk/client-wafv2';
import {
  CreateLoadBalancerCommand,
  DeleteLoadBalancerCommand,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, describe, expect, it } from 'vitest';
import { acmClientFor, startAcmSimulator } from '../../dev/acm-sim/index.js';
import { elbv2ClientFor, startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { shieldClientFor, startShieldSimulator } from '../../dev/shield-sim/index.js';
import { startWafv2Simulator, wafv2ClientFor } from '../../dev/wafv2-sim/index.js';
import { selfSigned } from '../conformance/support/certificate.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function elbv2(): Promise<Elbv2Simulator> {
  const sim = await startElbv2Simulator();
  closers.push(() => sim.close());
  return sim;
}

async function alb(sim: Elbv2Simulator, name = 'web', type: 'application' | 'network' = 'application') {
  const r = await elbv2ClientFor(sim).send(
    new CreateLoadBalancerCommand({
      Name: name,
      Type: type,
      // The simulator's own Region's subnets (each Region has its VPC).
      Subnets: sim.network.subnets.filter((s) => !s.public).map((s) => s.subnetId),
    }),
  );
  return r.LoadBalancers![0]!.LoadBalancerArn!;
}

const lookup = (sim: Elbv2Simulator) => (arn: string) => sim.state.store.loadBalancers.get(arn);

describe('WAFv2 simulator', () => {
  it('associates, reports and disassociates a web ACL of a load balancer the ELBv2 simulator has', async () => {
    const lbs = await elbv2();
    const waf = await startWafv2Simulator({ loadBalancers: lookup(lbs) });
    closers.push(() => waf.close());
    const client = wafv2ClientFor(waf);
    const acl = waf.state.addWebAcl('edge');
    const arn = await alb(lbs);
    expect(await client.send(new GetWebACLForResourceCommand({ ResourceArn: arn }))).not.toHaveProperty(
      'WebACL',
    );
    await client.send(new AssociateWebACLCommand({ WebACLArn: acl.ARN, ResourceArn: arn }));
    const got = await client.send(new GetWebACLForResourceCommand({ ResourceArn: arn }));
    expect(got.WebACL?.ARN).toBe(acl.ARN);
    expect((await client.send(new GetWebACLCommand({ ARN: acl.ARN }))).WebACL?.Name).toBe('edge');
    await client.send(new DisassociateWebACLCommand({ ResourceArn: arn }));
    expect((await client.send(new GetWebACLForResourceCommand({ ResourceArn: arn }))).WebACL).toBeUndefined();
    // A deleted load balancer takes its association with it.
    await client.send(new AssociateWebACLCommand({ WebACLArn: acl.ARN, ResourceArn: arn }));
    await elbv2ClientFor(lbs).send(new DeleteLoadBalancerCommand({ LoadBalancerArn: arn }));
    expect(waf.state.aclOf(arn)).toBeUndefined();
    await expect(client.send(new GetWebACLForResourceCommand({ ResourceArn: arn }))).rejects.toBeInstanceOf(
      WAFNonexistentItemException,
    );
  });

  it('serves its own Region: one beside an eu-west-1 ELBv2 simulator takes its load balancers, not us-east-1 ones', async () => {
    const west = await startElbv2Simulator({ region: 'eu-west-1' });
    closers.push(() => west.close());
    const east = await elbv2();
    const waf = await startWafv2Simulator({ loadBalancers: lookup(west), region: west.region });
    closers.push(() => waf.close());
    const client = wafv2ClientFor(waf);
    expect(waf.region).toBe('eu-west-1');
    const acl = waf.state.addWebAcl('edge');
    expect(acl.ARN).toMatch(/^arn:aws:wafv2:eu-west-1:/);
    const arn = await alb(west);
    await client.send(new AssociateWebACLCommand({ WebACLArn: acl.ARN, ResourceArn: arn }));
    expect(waf.state.aclOf(arn)).toBe(acl.ARN);
    await expect(
      client.send(new AssociateWebACLCommand({ WebACLArn: acl.ARN, ResourceArn: await alb(east) })),
    ).rejects.toBeInstanceOf(WAFInvalidParameterException);
    const listed = await client.send(new ListWebACLsCommand({ Scope: 'REGIONAL' }));
    expect(listed.WebACLs?.map((a) => a.ARN)).toEqual([acl.ARN]);
  });

  it('refuses an unknown ACL, another Region’s ARN, an NLB, and a load balancer still being set up', async () => {
    const lbs = await elbv2();
    const waf = await startWafv2Simulator({ loadBalancers: lookup(lbs), unavailableForMs: 60_000 });
    closers.push(() => waf.close());
    const client = wafv2ClientFor(waf);
    const acl = waf.state.addWebAcl('edge');
    const other = waf.state.addWebAcl('west', 'us-west-2');
    const arn = await alb(lbs);
    const nlb = await alb(lbs, 'tcp', 'network');
    const associate = (WebACLArn: string, ResourceArn: string) =>
      client.send(new AssociateWebACLCommand({ WebACLArn, ResourceArn }));
    await expect(associate(acl.ARN.replace('edge', 'gone'), arn)).rejects.toBeInstanceOf(
      WAFNonexistentItemException,
    );
    await expect(associate(other.ARN, arn)).rejects.toBeInstanceOf(WAFInvalidParameterException);
    await expect(associate(acl.ARN, nlb)).rejects.toBeInstanceOf(WAFInvalidParameterException);
    await expect(associate(acl.ARN, arn)).rejects.toBeInstanceOf(WAFUnavailableEntityException);
  });

  it('lists regional web ACLs by page, and injects throttling the SDK retries', async () => {
    const waf = await startWafv2Simulator();
    closers.push(() => waf.close());
    for (const n of ['a', 'b', 'c']) waf.state.addWebAcl(n);
    waf.state.addWebAcl('elsewhere', 'eu-west-1');
    const client = wafv2ClientFor(waf, { retryDelayMs: 1 });
    const first = await client.send(new ListWebACLsCommand({ Scope: 'REGIONAL', Limit: 2 }));
    expect(first.WebACLs?.map((a) => a.Name)).toEqual(['a', 'b']);
    const second = await client.send(
      new ListWebACLsCommand({ Scope: 'REGIONAL', Limit: 2, NextMarker: first.NextMarker }),
    );
    expect(second.WebACLs?.map((a) => a.Name)).toEqual(['c']);
    expect(second.NextMarker).toBeUndefined();
    waf.faults.failNext('ListWebACLs', 1, { code: 'ThrottlingException' });
    expect((await client.send(new ListWebACLsCommand({ Scope: 'REGIONAL' }))).WebACLs).toHaveLength(3);
    expect(waf.calls.get('ListWebACLs')).toMatchObject({ calls: 4, ok: 3, faulted: 1 });
  });
});

describe('Shield simulator', () => {
  it('creates a tagged protection, finds it by resource, lists and deletes it', async () => {
    const lbs = await elbv2();
    const shield = await startShieldSimulator({ loadBalancers: lookup(lbs) });
    closers.push(() => shield.close());
    const client = shieldClientFor(shield);
    const arn = await alb(lbs);
    expect((await client.send(new GetSubscriptionStateCommand({}))).SubscriptionState).toBe('ACTIVE');
    const { ProtectionId } = await client.send(
      new CreateProtectionCommand({ Name: 'web', ResourceArn: arn, Tags: [{ Key: 'owner', Value: 'me' }] }),
    );
    await expect(
      client.send(new CreateProtectionCommand({ Name: 'again', ResourceArn: arn })),
    ).rejects.toBeInstanceOf(ResourceAlreadyExistsException);
    const { Protection } = await client.send(new DescribeProtectionCommand({ ResourceArn: arn }));
    expect(Protection).toMatchObject({ Id: ProtectionId, Name: 'web', ResourceArn: arn });
    const tags = await client.send(
      new ListTagsForResourceCommand({ ResourceARN: Protection!.ProtectionArn! }),
    );
    expect(tags.Tags).toEqual([{ Key: 'owner', Value: 'me' }]);
    expect((await client.send(new ListProtectionsCommand({}))).Protections).toHaveLength(1);
    await client.send(new DeleteProtectionCommand({ ProtectionId }));
    await expect(client.send(new DescribeProtectionCommand({ ResourceArn: arn }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it('without a subscription says INACTIVE and refuses a protection', async () => {
    const shield = await startShieldSimulator({ subscribed: false });
    closers.push(() => shield.close());
    const client = shieldClientFor(shield);
    expect((await client.send(new GetSubscriptionStateCommand({}))).SubscriptionState).toBe('INACTIVE');
    await expect(
      client.send(
        new CreateProtectionCommand({
          Name: 'web',
          ResourceArn: 'arn:aws:elasticloadbalancing:us-east-1:123456789012:loadbalancer/app/web/0123',
        }),
      ),
    ).rejects.toBeInstanceOf(ResourceNotFoundException);
  });
});

describe('ACM simulator', () => {
  it('lists issued certificates by page, RSA only unless every key type is asked for, and describes them', async () => {
    const acm = await startAcmSimulator({ maxPage: 2 });
    closers.push(() => acm.close());
    const client = acmClientFor(acm);
    const a = acm.state.addCertificate('a.example.com', { alternativeNames: ['*.a.example.com'] });
    acm.state.addCertificate('b.example.com');
    const ec = acm.state.addCertificate('ec.example.com', { KeyAlgorithm: 'EC_prime256v1' });
    acm.state.addCertificate('pending.example.com', { Status: 'PENDING_VALIDATION' });
    const list = async (keyTypes?: string[]) => {
      const arns: string[] = [];
      let NextToken: string | undefined;
      do {
        const page = await client.send(
          new ListCertificatesCommand({
            CertificateStatuses: ['ISSUED'],
            ...(keyTypes ? { Includes: { keyTypes: keyTypes as never } } : {}),
            ...(NextToken ? { NextToken } : {}),
          }),
        );
        arns.push(...(page.CertificateSummaryList ?? []).map((c) => c.DomainName!));
        NextToken = page.NextToken;
      } while (NextToken);
      return arns;
    };
    expect(await list()).toEqual(['a.example.com', 'b.example.com']);
    expect(await list(['RSA_2048', 'EC_prime256v1'])).toEqual([
      'a.example.com',
      'b.example.com',
      'ec.example.com',
    ]);
    const d = await client.send(new DescribeCertificateCommand({ CertificateArn: a.CertificateArn }));
    expect(d.Certificate).toMatchObject({
      DomainName: 'a.example.com',
      SubjectAlternativeNames: ['a.example.com', '*.a.example.com'],
      Status: 'ISSUED',
    });
    await expect(
      client.send(new DescribeCertificateCommand({ CertificateArn: ec.CertificateArn.replace(/.$/, '9') })),
    ).rejects.toBeInstanceOf(AcmNotFound);
  });
});

describe('ACM simulator: ImportCertificate', () => {
  it("imports a PEM certificate with its key: named by its CN and DNS names, in the simulator's Region", async () => {
    const acm = await startAcmSimulator({ region: 'eu-west-1' });
    closers.push(() => acm.close());
    const client = acmClientFor(acm);
    const pem = selfSigned(['*.example.com', 'example.com']);
    const { CertificateArn } = await client.send(
      new ImportCertificateCommand({
        Certificate: Buffer.from(pem.certificate),
        PrivateKey: Buffer.from(pem.privateKey),
      }),
    );
    expect(CertificateArn).toMatch(/^arn:aws:acm:eu-west-1:123456789012:certificate\/[0-9a-f-]+$/);
    const d = await client.send(new DescribeCertificateCommand({ CertificateArn }));
    expect(d.Certificate).toMatchObject({
      DomainName: '*.example.com',
      SubjectAlternativeNames: ['*.example.com', 'example.com'],
      Type: 'IMPORTED',
      Status: 'ISSUED',
      KeyAlgorithm: 'RSA_2048',
    });
    expect(d.Certificate?.NotAfter?.getTime()).toBeGreaterThan(Date.now());
    const listed = await client.send(new ListCertificatesCommand({ CertificateStatuses: ['ISSUED'] }));
    expect(listed.CertificateSummaryList?.map((c) => c.CertificateArn)).toEqual([CertificateArn]);

    // Reimported with its ARN: the same certificate, its names now the new one's.
    const renewed = selfSigned(['www.example.com']);
    const again = await client.send(
      new ImportCertificateCommand({
        CertificateArn,
        Certificate: Buffer.from(renewed.certificate),
        PrivateKey: Buffer.from(renewed.privateKey),
      }),
    );
    expect(again.CertificateArn).toBe(CertificateArn);
    expect(
      (await client.send(new DescribeCertificateCommand({ CertificateArn }))).Certificate
        ?.SubjectAlternativeNames,
    ).toEqual(['www.example.com']);
  });

  it('refuses a key that is not the certificate’s, and a reimport of an unknown ARN', async () => {
    const acm = await startAcmSimulator();
    closers.push(() => acm.close());
    const client = acmClientFor(acm);
    const a = selfSigned(['a.example.com']);
    const b = selfSigned(['b.example.com']);
    await expect(
      client.send(
        new ImportCertificateCommand({
          Certificate: Buffer.from(a.certificate),
          PrivateKey: Buffer.from(b.privateKey),
        }),
      ),
    ).rejects.toBeInstanceOf(AcmValidation);
    await expect(
      client.send(
        new ImportCertificateCommand({
          CertificateArn:
            'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-4000-8000-000000000000',
          Certificate: Buffer.from(a.certificate),
          PrivateKey: Buffer.from(a.privateKey),
        }),
      ),
    ).rejects.toBeInstanceOf(AcmNotFound);
    expect(acm.state.certificates.size).toBe(0);
  });
});
