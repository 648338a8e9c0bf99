/**
 * The edge issue's end-to-end test: the lifecycle functions' code (processBatch, every controller)
 * with the AWS provider built from its configuration file, against the Kubernetes API stand-in and
 * the ELBv2, EC2 (linked: a group in use cannot be deleted), WAFv2, Shield and ACM simulators. One
 * internet-facing MultiClusterIngress asks for everything at once: `inbound-cidrs` on a managed
 * security group, a web ACL by ARN, Shield Advanced, OIDC authentication with its client Secret
 * in the namespace, subnets discovered by their role tags and a certificate discovered from
 * `spec.tls` hosts. It is created, changed (the CIDR list, the ACL), repaired on resync after
 * drift made by hand (a security-group rule revoked, the ACL disassociated, the protection
 * deleted), and deleted with nothing left behind in any service.
 */
import type { Action } from '@aws-sdk/client-elastic-load-balancing-v2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { startEc2Simulator, type Ec2Simulator } from '../../dev/ec2-sim/index.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import { awsConfigFor, startEdgeSimulators, type EdgeSimulators } from '../../dev/local/pipeline.js';
import {
  cluster,
  collectedSlice,
  ingressClass,
  resourceBinding,
  serveService,
} from '../../dev/local/scenario.js';
import type { MultiClusterIngress, Secret } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const CLIENT_SECRET = 'e2e-oidc-client-secret-value';
const b64 = (s: string) => Buffer.from(s).toString('base64');

let sim: Elbv2Simulator;
let ec2: Ec2Simulator;
let edge: EdgeSimulators;
let h: Harness;

const secret: Secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'oidc', namespace: 'default' },
  data: { clientID: b64('edge-client'), clientSecret: b64(CLIENT_SECRET) },
};
const IDP = {
  issuer: 'https://idp.example.com',
  authorizationEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  userInfoEndpoint: 'https://idp.example.com/userinfo',
  secretName: 'oidc',
};

function edgeIngress(cidrs: string, aclArn: string): MultiClusterIngress {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: {
      name: 'edge',
      namespace: 'default',
      annotations: {
        [A('scheme')]: 'internet-facing',
        [A('listen-ports')]: '[{"HTTPS":443}]',
        [A('inbound-cidrs')]: cidrs,
        [A('wafv2-acl-arn')]: aclArn,
        [A('shield-advanced-protection')]: 'true',
        [A('auth-type')]: 'oidc',
        [A('auth-idp-oidc')]: JSON.stringify(IDP),
      },
    },
    spec: {
      tls: [{ hosts: ['www.example.com'] }],
      rules: [
        {
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
  } as MultiClusterIngress;
}

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  sim = await startElbv2Simulator({ inProcess: true });
  // Linked: a group a load balancer holds (or just let go of) cannot be deleted yet.
  ec2 = await startEc2Simulator({ inProcess: true, elbv2: sim, releaseAttempts: 1 });
  edge = await startEdgeSimulators(sim);
  // No subnets and no security groups configured: discovered by role tags, and a managed group.
  h = await startHarness({
    inProcess: true,
    provider: 'aws',
    providerConfig: awsConfigFor(
      sim,
      // What this test annotates (internet-facing, a certificate, OIDC) is allowed.
      { subnets: undefined, securityGroups: undefined, tenantPolicy: ALLOW_ALL },
      ec2,
      edge,
    ),
  });
  await h.seed([
    ingressClass(),
    cluster('member1'),
    cluster('member2'),
    serveService(),
    resourceBinding(),
    collectedSlice('member1', ['10.0.128.11']),
    collectedSlice('member2', ['10.0.144.21']),
    secret,
  ]);
});
afterEach(async () => {
  await h.close();
  await sim.close();
  await ec2.close();
  await edge.wafv2.close();
  await edge.shield.close();
  await edge.acm.close();
});

/** Applies the MCI (create or update) and delivers its notification until nothing changes. */
async function apply(mci: MultiClusterIngress, change: 'modified' | 'resync' = 'modified') {
  const existing = await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'edge');
  if (!existing) await h.kube.create(Resources.MultiClusterIngress, mci as KubeObject);
  else {
    await h.kube.update(Resources.MultiClusterIngress, {
      ...existing,
      metadata: { ...existing.metadata, annotations: mci.metadata.annotations },
      spec: mci.spec,
    } as KubeObject);
  }
  for (let i = 0; i < 3; i++) {
    const results = await h.deliver(notify(mci, i === 0 ? change : 'modified'));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual([]);
  }
  const now = await h.kube.get<MultiClusterIngress>(Resources.MultiClusterIngress, 'default', 'edge');
  expect(now?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '').toContain('"status":"True"');
}

function owned() {
  const snap = sim.snapshot();
  const ours = new Set(snap.tags.filter((t) => t.Tags[OWNER_TAG] === 'local').map((t) => t.ResourceArn));
  const lb = snap.loadBalancers.find((l) => ours.has(l.LoadBalancerArn!));
  const groups = ec2.state.securityGroups.all().filter((g) => g.tags[OWNER_TAG] === 'local');
  return { snap, lb, groups };
}

const ingressOf = (g: ReturnType<typeof owned>['groups'][number]) =>
  g.ingress.map((r) => `${r.protocol}/${r.fromPort ?? ''} ${Object.values(r.source)[0] as string}`).sort();

describe('an internet-facing ALB with everything of the edge, through the lifecycle', () => {
  it('is created, changed, repaired on resync and deleted leaving nothing in any service', async () => {
    const aclA = edge.wafv2.state.addWebAcl('edge-a');
    const aclB = edge.wafv2.state.addWebAcl('edge-b');
    const [certificate] = [...edge.acm.state.certificates.values()];

    // Create.
    await apply(edgeIngress('203.0.113.0/24,198.51.100.0/24', aclA.ARN));
    const { snap, lb, groups } = owned();
    expect(lb).toMatchObject({ Type: 'application', Scheme: 'internet-facing' });
    const publicSubnets = sim.network.subnets
      .filter((s) => s.public)
      .map((s) => s.subnetId)
      .sort();
    expect(lb!.AvailabilityZones!.map((z) => z.SubnetId).sort()).toEqual(publicSubnets);
    expect(groups).toHaveLength(1);
    const group = groups[0]!;
    expect(lb!.SecurityGroups).toEqual([group.groupId]);
    expect(ingressOf(group)).toEqual(['tcp/443 198.51.100.0/24', 'tcp/443 203.0.113.0/24']);
    const [listener] = snap.listeners.filter((l) => l.LoadBalancerArn === lb!.LoadBalancerArn);
    expect(listener).toMatchObject({ Protocol: 'HTTPS', Port: 443 });
    expect(listener!.Certificates?.map((c) => c.CertificateArn)).toEqual([certificate!.CertificateArn]);
    const rule = snap.rules.find((r) => r.ListenerArn === listener!.ListenerArn && !r.IsDefault);
    const [auth, forward] = (rule?.Actions ?? []) as Action[];
    expect(auth).toMatchObject({
      Type: 'authenticate-oidc',
      AuthenticateOidcConfig: { ClientId: 'edge-client', Issuer: IDP.issuer },
    });
    expect(forward?.Type).toBe('forward');
    expect(edge.wafv2.state.aclOf(lb!.LoadBalancerArn!)).toBe(aclA.ARN);
    expect(edge.shield.state.protections.size).toBe(1);
    expect(h.logger.lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain(CLIENT_SECRET);

    // Change: another CIDR list and another ACL; the same ALB and group.
    await apply(edgeIngress('203.0.113.0/24,192.0.2.0/24', aclB.ARN));
    const changed = owned();
    expect(changed.lb!.LoadBalancerArn).toBe(lb!.LoadBalancerArn);
    expect(changed.groups.map((g) => g.groupId)).toEqual([group.groupId]);
    expect(ingressOf(changed.groups[0]!)).toEqual(['tcp/443 192.0.2.0/24', 'tcp/443 203.0.113.0/24']);
    expect(edge.wafv2.state.aclOf(lb!.LoadBalancerArn!)).toBe(aclB.ARN);

    // Drift by hand, repaired by a resync.
    expect(
      ec2.state.securityGroups.revokeByHand(
        group.groupId,
        (r) => 'cidrIpv4' in r.source && r.source.cidrIpv4 === '192.0.2.0/24',
      ),
    ).toBe(1);
    edge.wafv2.state.associations.delete(lb!.LoadBalancerArn!);
    edge.shield.state.protections.clear();
    // An ordinary notification trusts the recorded fingerprint: only the resync looks deeper.
    await apply(edgeIngress('203.0.113.0/24,192.0.2.0/24', aclB.ARN));
    expect(ingressOf(owned().groups[0]!)).toEqual(['tcp/443 203.0.113.0/24']);
    expect(edge.wafv2.state.aclOf(lb!.LoadBalancerArn!)).toBeUndefined();
    await apply(edgeIngress('203.0.113.0/24,192.0.2.0/24', aclB.ARN), 'resync');
    const repaired = owned();
    expect(ingressOf(repaired.groups[0]!)).toEqual(['tcp/443 192.0.2.0/24', 'tcp/443 203.0.113.0/24']);
    expect(edge.wafv2.state.aclOf(lb!.LoadBalancerArn!)).toBe(aclB.ARN);
    expect([...edge.shield.state.protections.values()].map((p) => p.ResourceArn)).toEqual([
      lb!.LoadBalancerArn,
    ]);

    // No Warning on the way, and the client secret in no Event either.
    const events = await h.kube.list<KubeObject & { reason: string; type: string; message?: string }>(
      Resources.Event,
      { namespace: 'default' },
    );
    expect(
      events.items.filter((e) => e.type === 'Warning').map((e) => `${e.reason}: ${e.message ?? ''}`),
    ).toEqual([]);
    expect(JSON.stringify(events.items)).not.toContain(CLIENT_SECRET);

    // Delete: nothing left in ELBv2, EC2, WAFv2 or Shield.
    await h.kube.delete(Resources.MultiClusterIngress, 'default', 'edge');
    for (let i = 0; i < 3; i++) await h.deliver(notify(edgeIngress('', '')));
    expect(await h.kube.get(Resources.MultiClusterIngress, 'default', 'edge')).toBeUndefined();
    const gone = owned();
    expect(gone.lb).toBeUndefined();
    expect(gone.snap.targetGroups).toEqual([]);
    expect(gone.snap.tags.filter((t) => t.Tags[OWNER_TAG])).toEqual([]);
    expect(gone.groups).toEqual([]);
    expect(ec2.state.securityGroups.all().map((g) => g.groupId)).toEqual([
      sim.network.defaultSecurityGroupId,
    ]);
    // The association goes with the load balancer, as in AWS; the protection is deleted by us.
    expect(edge.wafv2.state.aclOf(lb!.LoadBalancerArn!)).toBeUndefined();
    expect(edge.wafv2.state.associations.size).toBe(0);
    expect(edge.shield.state.protections.size).toBe(0);
  });
});
