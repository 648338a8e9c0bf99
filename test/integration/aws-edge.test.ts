/**
 * WAFv2 and Shield Advanced end to end, against the ELBv2, WAFv2 and Shield simulators through
 * the real SDK clients: an ALB gets the web ACL its MultiClusterIngress names (by ARN or by
 * name) and a protection; a changed ACL is swapped; an ACL disassociated by hand is associated
 * again on resync; removing the annotations undoes only what we did; deleting the MCI leaves no
 * association or protection behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { elbv2ClientFor, taggingClientFor } from '../../dev/elbv2-sim/index.js';
import { shieldClientFor, startShieldSimulator, type ShieldSimulator } from '../../dev/shield-sim/index.js';
import { acmClientFor, startAcmSimulator, type AcmSimulator } from '../../dev/acm-sim/index.js';
import { startWafv2Simulator, wafv2ClientFor, type Wafv2Simulator } from '../../dev/wafv2-sim/index.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { AwsProvider, formatPlan, type AwsProviderConfig } from '../../lib/providers/aws/index.js';
import { SHIELD_TAG, WAF_TAG } from '../../lib/providers/aws/tagging.js';
import { collectedSlice, minimalIngress, service } from '../fixtures/aws/objects.js';
import { PUBLIC_SUBNETS, startAwsEnv, type AwsEnv } from './aws-env.js';

const ALB = 'alb.ingress.kubernetes.io/';
let env: AwsEnv | undefined;
let waf: Wafv2Simulator | undefined;
let shield: ShieldSimulator | undefined;
let acm: AcmSimulator | undefined;
afterEach(async () => {
  await env?.close();
  await waf?.close();
  await shield?.close();
  await acm?.close();
  env = waf = shield = acm = undefined;
});

async function setup(
  o: { subscribed?: boolean; unavailableForMs?: number; config?: Partial<AwsProviderConfig> } = {},
) {
  const e = (env = await startAwsEnv([
    service('serve'),
    collectedSlice('member1', 'serve', { addresses: ['10.0.1.10'] }),
  ]));
  const lbs = (arn: string) => e.sim.state.store.loadBalancers.get(arn);
  const w = (waf = await startWafv2Simulator({
    loadBalancers: lbs,
    unavailableForMs: o.unavailableForMs ?? 0,
    inProcess: true,
  }));
  const s = (shield = await startShieldSimulator({
    loadBalancers: lbs,
    subscribed: o.subscribed ?? true,
    inProcess: true,
  }));
  const c = (acm = await startAcmSimulator({ maxPage: 2, inProcess: true }));
  const provider = new AwsProvider(
    { ...e.config, ...o.config },
    { kube: e.kube, logger: e.logger },
    {
      client: elbv2ClientFor(e.sim, { retryDelayMs: 1 }),
      tagging: taggingClientFor(e.sim),
      deploy: { resourceInUseAttempts: 5, resourceInUseDelayMs: 5 },
      edge: {
        wafv2: wafv2ClientFor(w, { retryDelayMs: 1 }),
        shield: shieldClientFor(s, { retryDelayMs: 1 }),
        acm: acmClientFor(c, { retryDelayMs: 1 }),
      },
    },
  );
  const reconcile = async (obj: MultiClusterIngress, resync = false) => {
    const ctx: ProviderContext = { ...e.ctx, signal: new AbortController().signal, resync };
    const got = await provider.loadBalancer().get(ctx, obj);
    return got.exists ? provider.loadBalancer().update(ctx, obj) : provider.loadBalancer().ensure(ctx, obj);
  };
  const remove = (obj: MultiClusterIngress) =>
    provider.loadBalancer().ensureDeleted({ ...e.ctx, signal: new AbortController().signal }, obj);
  const lb = () => e.sim.snapshot().loadBalancers[0];
  const lbTags = () => {
    const arn = lb()?.LoadBalancerArn ?? '';
    return Object.fromEntries([...(e.sim.state.store.tags.get(arn) ?? new Map<string, string>())]);
  };
  return { e, w, s, c, provider, reconcile, remove, lb, lbTags };
}

const withAnnotations = (annotations: Record<string, string>) => {
  const mci = minimalIngress();
  return { ...mci, metadata: { ...mci.metadata, annotations } };
};

describe('WAFv2 web ACL of an ALB', () => {
  it('associates, swaps, repairs on resync and disassociates when the annotation goes', async () => {
    const { e, w, provider, reconcile, lb, lbTags } = await setup();
    const a = w.state.addWebAcl('edge-a');
    const b = w.state.addWebAcl('edge-b');
    // The plan says what will happen, in order: the ALB first, then its web ACL.
    const planned = await provider.plan(
      { ...e.ctx, signal: new AbortController().signal },
      withAnnotations({ [`${ALB}wafv2-acl-arn`]: a.ARN }),
    );
    const lines = formatPlan(planned.plan);
    const created = lines.findIndex((l) => l.startsWith('+ create LoadBalancer'));
    const associated = lines.indexOf(
      `+ create WebACLAssociation LoadBalancer: web ACL ${a.ARN} [AssociateWebACL]`,
    );
    expect(created).toBeGreaterThanOrEqual(0);
    expect(associated).toBeGreaterThan(created);
    expect(w.calls.total()).toBe(0);
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-arn`]: a.ARN }));
    const arn = lb()!.LoadBalancerArn!;
    expect(w.state.aclOf(arn)).toBe(a.ARN);
    expect(lbTags()[WAF_TAG]).toBe('managed');

    // The same spec again: the fingerprint holds, WAFv2 is not asked anything.
    w.calls.reset();
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-arn`]: a.ARN }));
    expect(w.calls.total()).toBe(0);

    // By name: resolved with one listing, then swapped.
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-name`]: 'edge-b' }));
    expect(w.state.aclOf(arn)).toBe(b.ARN);
    expect(w.calls.get('ListWebACLs').ok).toBe(1);

    // Disassociated by hand: a resync puts it back.
    w.state.associations.delete(arn);
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-name`]: 'edge-b' }), true);
    expect(w.state.aclOf(arn)).toBe(b.ARN);
    expect(w.calls.get('ListWebACLs').ok).toBe(1);

    // The annotation removed: ours, so disassociated, and the record goes.
    await reconcile(minimalIngress());
    expect(w.state.aclOf(arn)).toBeUndefined();
    expect(lbTags()[WAF_TAG]).toBeUndefined();
    expect(e.logger.lines.some((l) => l.level === 'ERROR')).toBe(false);
  });

  it('leaves a web ACL someone else associated alone unless the MCI says none', async () => {
    const { w, reconcile, lb } = await setup();
    const theirs = w.state.addWebAcl('theirs');
    await reconcile(minimalIngress());
    const arn = lb()!.LoadBalancerArn!;
    w.state.associations.set(arn, theirs.ARN);
    await reconcile(withAnnotations({ [`${ALB}tags`]: 'x=y' }));
    await reconcile(minimalIngress(), true);
    expect(w.state.aclOf(arn)).toBe(theirs.ARN);
    expect(w.calls.total()).toBe(0);
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-arn`]: 'none' }));
    expect(w.state.aclOf(arn)).toBeUndefined();
  });

  it('retries an association WAFv2 is not ready for on a new ALB, within the reconcile', async () => {
    const { w, reconcile, lb } = await setup();
    const a = w.state.addWebAcl('edge-a');
    w.faults.failNext('AssociateWebACL', 2, { code: 'WAFUnavailableEntityException' });
    await reconcile(withAnnotations({ [`${ALB}wafv2-acl-arn`]: a.ARN }));
    expect(w.state.aclOf(lb()!.LoadBalancerArn!)).toBe(a.ARN);
    expect(w.calls.get('AssociateWebACL')).toMatchObject({ calls: 3, ok: 1, faulted: 2 });
  });

  it('refuses an unknown web ACL name before any change', async () => {
    const { e, reconcile } = await setup();
    await expect(reconcile(withAnnotations({ [`${ALB}wafv2-acl-name`]: 'missing' }))).rejects.toThrow(
      /annotation alb\.ingress\.kubernetes\.io\/wafv2-acl-name: no regional web ACL named "missing"/,
    );
    expect(e.mutatingCalls()).toEqual([]);
  });
});

describe('Shield Advanced protection of an ALB', () => {
  it('creates an owner-tagged protection, repairs it on resync, and deletes it when asked or the MCI goes', async () => {
    const { s, w, reconcile, remove, lb, lbTags } = await setup();
    const a = w.state.addWebAcl('edge-a');
    const mci = withAnnotations({
      [`${ALB}shield-advanced-protection`]: 'true',
      [`${ALB}wafv2-acl-arn`]: a.ARN,
    });
    await reconcile(mci);
    const arn = lb()!.LoadBalancerArn!;
    const [p] = [...s.state.protections.values()];
    expect(p?.ResourceArn).toBe(arn);
    expect(s.state.tags.get(p!.ProtectionArn)).toMatchObject({
      'multicluster.karmada.io/owner': 'karmada-test',
      'multicluster.karmada.io/stack': 'mci/default/minimal-ingress',
    });
    expect(lbTags()[SHIELD_TAG]).toBe('managed');

    s.state.protections.clear();
    await reconcile(mci, true);
    expect([...s.state.protections.values()].map((x) => x.ResourceArn)).toEqual([arn]);

    await reconcile(
      withAnnotations({ [`${ALB}shield-advanced-protection`]: 'false', [`${ALB}wafv2-acl-arn`]: a.ARN }),
    );
    expect(s.state.protections.size).toBe(0);
    await reconcile(mci);
    expect(s.state.protections.size).toBe(1);

    await remove(mci);
    expect(s.state.protections.size).toBe(0);
    expect(lb()).toBeUndefined();
    // The association went with the load balancer, as in AWS.
    expect(w.state.aclOf(arn)).toBeUndefined();
  });

  it('the orphan sweep deletes our protection before the orphaned ALB', async () => {
    const { e, s, provider, reconcile, lb } = await setup();
    // Not in Kubernetes: an orphan as soon as it is built.
    await reconcile(withAnnotations({ [`${ALB}shield-advanced-protection`]: 'true' }));
    expect(s.state.protections.size).toBe(1);
    const result = await sweepOrphans(e.kube, provider, {
      graceSeconds: 0,
      signal: new AbortController().signal,
      logger: e.logger,
    });
    expect(result).toMatchObject({ deleted: ['mci/default/minimal-ingress'], errors: [] });
    expect(lb()).toBeUndefined();
    expect(s.state.protections.size).toBe(0);
    expect(s.calls.get('DeleteProtection').ok).toBe(1);
  });

  it('without a subscription, says so naming the key before any change', async () => {
    const { e, reconcile } = await setup({ subscribed: false });
    await expect(
      reconcile(withAnnotations({ [`${ALB}shield-advanced-protection`]: 'true' })),
    ).rejects.toThrow(
      /annotation alb\.ingress\.kubernetes\.io\/shield-advanced-protection: "true" needs a Shield Advanced subscription/,
    );
    expect(e.mutatingCalls()).toEqual([]);
  });
});

describe('certificate discovery under a tenant policy', () => {
  it('picks only the allowed certificates, and refuses a host only disallowed ones cover before any change', async () => {
    // The simulator numbers its certificates: the rule allows the first one added alone.
    const { e, c, reconcile, remove, lb } = await setup({
      config: {
        tenantPolicy: {
          rules: [
            {
              name: 'platform-certificates',
              certificates: { allowed: [{ arn: 'arn:aws:acm:*:*:certificate/00000001-*' }] },
            },
          ],
        },
      },
    });
    const allowed = c.state.addCertificate('*.example.com');
    const disallowed = c.state.addCertificate('www.example.com');
    c.state.addCertificate('shop.example.net');
    const https = (name: string, hosts: string[]): MultiClusterIngress => {
      const m = minimalIngress({ spec: { tls: [{ hosts }] } });
      return {
        ...m,
        metadata: { ...m.metadata, name, annotations: { [`${ALB}listen-ports`]: '[{"HTTPS": 443}]' } },
      };
    };
    // www.example.com is covered by both: the allowed one is the listener's only certificate.
    await reconcile(https('minimal-ingress', ['www.example.com']));
    const [listener] = e.sim.snapshot().listeners;
    expect(listener?.Certificates?.map((x) => x.CertificateArn)).toEqual([allowed.CertificateArn]);
    expect(
      e.sim.state
        .describeListenerCertificates({ ListenerArn: listener!.ListenerArn })
        .Certificates?.map((x) => x.CertificateArn),
    ).not.toContain(disallowed.CertificateArn);
    await remove(https('minimal-ingress', ['www.example.com']));
    expect(lb()).toBeUndefined();

    // shop.example.net only by a certificate the rule does not allow: refused, naming host and rule.
    e.sim.calls.reset();
    const refused = await reconcile(https('shop', ['shop.example.net'])).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toMatchObject({ field: `${ALB}certificate-arn`, reason: 'TenantPolicyViolation' });
    expect(String(refused)).toContain(
      'host "shop.example.net" is covered only by ACM certificates the tenant policy does not allow',
    );
    expect(String(refused)).toContain('forbidden by tenant policy rule "platform-certificates"');
    expect(e.mutatingCalls()).toEqual([]);
  });
});

describe('an internet-facing ALB with a web ACL and a discovered certificate, end to end', () => {
  it('creates it, changes the ACL, repairs drift on resync, and deletes it leaving nothing behind', async () => {
    const { e, w, s, c, reconcile, remove, lb } = await setup();
    const a = w.state.addWebAcl('edge-a');
    const b = w.state.addWebAcl('edge-b');
    // Paged (two a page): the wildcard covers one label, the ECDSA one needs every key type asked for.
    c.state.addCertificate('other.test');
    const wildcard = c.state.addCertificate('*.example.com', { KeyAlgorithm: 'EC_prime256v1' });
    const exact = c.state.addCertificate('shop.example.net', { alternativeNames: ['www.shop.example.net'] });
    c.state.addCertificate('pending.example.com', { Status: 'PENDING_VALIDATION' });
    const mci = (acl: string): MultiClusterIngress => ({
      ...minimalIngress({
        spec: {
          tls: [{ hosts: ['www.example.com'] }],
          rules: [
            {
              host: 'www.shop.example.net',
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'Prefix',
                    backend: { service: { name: 'serve', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      }),
      metadata: {
        name: 'minimal-ingress',
        namespace: 'default',
        uid: 'mci-uid-1',
        annotations: {
          [`${ALB}scheme`]: 'internet-facing',
          [`${ALB}subnets`]: PUBLIC_SUBNETS.join(','),
          [`${ALB}listen-ports`]: '[{"HTTPS": 443}]',
          [`${ALB}wafv2-acl-arn`]: acl,
          [`${ALB}shield-advanced-protection`]: 'true',
        },
      },
    });
    await reconcile(mci(a.ARN));
    const arn = lb()!.LoadBalancerArn!;
    expect(lb()?.Scheme).toBe('internet-facing');
    const [listener] = e.sim.snapshot().listeners;
    const certificates = [wildcard.CertificateArn, exact.CertificateArn].sort();
    expect(listener?.Certificates?.map((x) => x.CertificateArn)).toEqual([certificates[0]]);
    expect(
      e.sim.state
        .describeListenerCertificates({ ListenerArn: listener!.ListenerArn })
        .Certificates?.map((x) => x.CertificateArn)
        .sort(),
    ).toEqual(certificates);
    expect(w.state.aclOf(arn)).toBe(a.ARN);
    expect(s.state.protections.size).toBe(1);
    // Listed once (two pages) and each certificate described once per container.
    expect(c.calls.get('ListCertificates').ok).toBe(2);
    expect(c.calls.get('DescribeCertificate').ok).toBe(3);

    await reconcile(mci(b.ARN));
    expect(w.state.aclOf(arn)).toBe(b.ARN);
    expect(c.calls.get('DescribeCertificate').ok).toBe(3);

    w.state.associations.delete(arn);
    s.state.protections.clear();
    await reconcile(mci(b.ARN), true);
    expect(w.state.aclOf(arn)).toBe(b.ARN);
    expect(s.state.protections.size).toBe(1);

    await remove(mci(b.ARN));
    expect(lb()).toBeUndefined();
    expect(w.state.aclOf(arn)).toBeUndefined();
    expect(s.state.protections.size).toBe(0);
    expect(e.sim.snapshot().targetGroups).toEqual([]);
  });
});
