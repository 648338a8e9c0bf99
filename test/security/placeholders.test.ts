/**
 * Issue 27, High 2: tenant text can never pull an OIDC client secret (or an ARN) into a call. The
 * plan's placeholders are typed values at the fields they stand in, never strings matched over a
 * whole input; an annotation value holding `{{` is refused naming its key; and in an IngressGroup
 * shared by two namespaces, one member's text can never make the ALB serve the other's secret.
 *
 * End to end: the functions' reconcile (the harness), the AWS provider, the ELBv2 simulator, which
 * keeps what it is sent (the client secret included) so the test can look for it everywhere.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  elbv2ClientFor,
  SIM_NETWORK,
  startElbv2Simulator,
  type Elbv2Simulator,
} from '../../dev/elbv2-sim/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import { collectedSlice, ingressClass, serveService } from '../../dev/local/scenario.js';
import type { Secret } from '../../lib/karmada/types.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { CONDITION_ANNOTATION } from '../../lib/reconcile/conditions.js';
import { applyPlan } from '../../lib/providers/aws/deploy/apply.js';
import type { DeployContext } from '../../lib/providers/aws/deploy/context.js';
import { arnRef, type Operation } from '../../lib/providers/aws/deploy/operations.js';
import { KubeTargetRecords } from '../../lib/providers/aws/deploy/target-records.js';
import { readOidcSecrets } from '../../lib/providers/aws/oidc-secrets.js';
import { buildIngressStack, buildServiceStack } from '../../lib/providers/aws/index.js';
import { minimalIngress, service } from '../fixtures/aws/objects.js';
import { mcs, simConfig } from '../integration/aws-env.js';
import { refused } from '../support/invalid-object.js';
import { MemoryKube } from '../support/memory-kube.js';
import { notify, startHarness, type Harness } from '../support/harness.js';

const A = (k: string) => `alb.ingress.kubernetes.io/${k}`;
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/aaaa-1111';
const SECRET_A = 'team-a-oidc-client-secret.example';
const b64 = (s: string) => Buffer.from(s).toString('base64');

const secret = (namespace: string, value: string): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'oidc', namespace, uid: `oidc-${namespace}` },
  data: { clientID: b64(`${namespace}-client`), clientSecret: b64(value) },
});
const OIDC = {
  [A('listen-ports')]: '[{"HTTPS":443}]',
  [A('certificate-arn')]: CERT,
  [A('auth-type')]: 'oidc',
  [A('auth-idp-oidc')]: JSON.stringify({
    issuer: 'https://idp.example.com',
    authorizationEndpoint: 'https://idp.example.com/authorize',
    tokenEndpoint: 'https://idp.example.com/token',
    userInfoEndpoint: 'https://idp.example.com/userinfo',
    secretName: 'oidc',
  }),
};
const HTTPS = { [A('listen-ports')]: '[{"HTTPS":443}]', [A('certificate-arn')]: CERT };
const LEAK = (namespace: string) => `{{secret:${namespace}/oidc}}`;

function mci(
  namespace: string,
  name: string,
  annotations: Record<string, string>,
  paths: Array<{ path: string; service: string; port?: number | 'use-annotation' }>,
): KubeObject {
  return {
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name, namespace, annotations },
    spec: {
      rules: [
        {
          http: {
            paths: paths.map((p) => ({
              path: p.path,
              pathType: 'Prefix',
              backend: {
                service: {
                  name: p.service,
                  port: p.port === 'use-annotation' ? { name: 'use-annotation' } : { number: p.port ?? 80 },
                },
              },
            })),
          },
        },
      ],
    },
  } as KubeObject;
}

const namespaceOf = (name: string) =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) as KubeObject;
const inNamespace = (obj: KubeObject, namespace: string) =>
  ({ ...obj, metadata: { ...obj.metadata, namespace } }) as KubeObject;

let sim: Elbv2Simulator;
let h: Harness;

/** A fresh simulator and harness for each test: what one leaks must not pass for another's. */
function useHarness() {
  beforeEach(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    sim = await startElbv2Simulator({ inProcess: true });
    h = await startHarness({
      inProcess: true,
      provider: 'aws',
      providerConfig: awsConfigFor(sim, {
        tenantPolicy: {
          rules: [
            {
              name: 'everyone',
              oidc: [{ issuer: 'https://idp.example.com', endpoints: ['https://idp.example.com/*'] }],
              certificates: { allowed: [{ arn: 'arn:aws:acm:us-east-1:123456789012:certificate/*' }] },
            },
          ],
          sharedGroups: [{ name: 'shop', namespaces: ['team-a', 'team-b'] }],
        },
      }),
    });
    await h.seed([
      ingressClass(),
      ...['team-a', 'team-b'].flatMap((ns) => [
        namespaceOf(ns),
        inNamespace(serveService(), ns),
        inNamespace(collectedSlice('member1', [ns === 'team-a' ? '10.0.128.11' : '10.0.128.12']), ns),
      ]),
      secret('team-a', SECRET_A),
    ]);
  }, 60_000);
  afterEach(async () => {
    await h?.close();
    await sim?.close();
  });
}

/** Every place the simulator keeps a value it was sent, but the OIDC actions' client secrets. */
function everythingButClientSecrets(): string {
  const strip = (actions: ReadonlyArray<{ AuthenticateOidcConfig?: object }> | undefined) =>
    (actions ?? []).map((a) => {
      if (!a.AuthenticateOidcConfig) return a;
      const { ClientSecret: _secret, ...rest } = a.AuthenticateOidcConfig as { ClientSecret?: string };
      return { ...a, AuthenticateOidcConfig: rest };
    });
  const store = sim.state.store;
  return JSON.stringify([
    // A listener's default actions are its default rule's.
    [...store.rules.values()].map((r) => ({ ...r, actions: strip(r.actions) })),
    sim.snapshot().tags,
    sim.snapshot().loadBalancers,
    sim.snapshot().targetGroups,
  ]);
}

/** The client secrets the simulator holds for the OIDC actions of the rules on `path`. */
function clientSecretsOn(path: string): Array<string | undefined> {
  return [...sim.state.store.rules.values()]
    .filter((r) => r.conditions.some((c) => (c.PathPatternConfig?.Values ?? c.Values ?? []).includes(path)))
    .flatMap((r) => r.actions.filter((a) => a.AuthenticateOidcConfig))
    .map((a) => a.AuthenticateOidcConfig?.ClientSecret);
}

async function reconcile(...objects: KubeObject[]) {
  await h.seed(objects);
  for (let i = 0; i < 3; i++) await h.deliver(...objects.map((o) => notify(o, 'modified')));
}

async function reported(namespace: string, name: string) {
  const stored = await h.kube.get<KubeObject>(Resources.MultiClusterIngress, namespace, name);
  const condition = JSON.parse(stored?.metadata.annotations?.[CONDITION_ANNOTATION] ?? '{}') as {
    status?: string;
    reason?: string;
    message?: string;
  };
  const events = (
    await h.kube.list<KubeObject & { reason?: string; message?: string; type?: string }>(Resources.Event, {
      namespace,
    })
  ).items.filter((e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === name);
  return { condition, events };
}

/** Refused before any AWS call: LoadBalancerReady=False and a Warning Event, both naming `key`. */
async function expectRefusedNaming(namespace: string, name: string, key: string) {
  const { condition, events } = await reported(namespace, name);
  expect(condition).toMatchObject({ status: 'False', reason: 'InvalidAnnotation' });
  expect(condition.message).toContain(`annotation ${key}`);
  expect(condition.message).toContain('{{');
  const warning = events.find((e) => e.type === 'Warning' && e.reason === 'InvalidAnnotation');
  expect(warning?.message).toContain(key);
}

describe('a placeholder-shaped annotation value never reaches the ALB as the client secret', () => {
  useHarness();

  it('a fixed-response messageBody is refused naming its key; the secret is nowhere but in ClientSecret', async () => {
    const key = A('actions.body');
    const leaky = mci(
      'team-a',
      'body',
      {
        ...OIDC,
        [key]: JSON.stringify({
          type: 'fixed-response',
          fixedResponseConfig: { contentType: 'text/plain', statusCode: '200', messageBody: LEAK('team-a') },
        }),
      },
      [
        { path: '/app', service: 'serve' },
        { path: '/body', service: 'body', port: 'use-annotation' },
      ],
    );
    await reconcile(leaky);
    await expectRefusedNaming('team-a', 'body', key);
    expect(everythingButClientSecrets()).not.toContain(SECRET_A);
  });

  it('a redirect host is refused naming its key', async () => {
    const key = A('actions.away');
    const leaky = mci(
      'team-a',
      'redirect',
      {
        ...OIDC,
        [key]: JSON.stringify({
          type: 'redirect',
          redirectConfig: { host: LEAK('team-a'), statusCode: 'HTTP_302' },
        }),
      },
      [
        { path: '/app', service: 'serve' },
        { path: '/away', service: 'away', port: 'use-annotation' },
      ],
    );
    await reconcile(leaky);
    await expectRefusedNaming('team-a', 'redirect', key);
    expect(everythingButClientSecrets()).not.toContain(SECRET_A);
  });

  it('an http-header condition value is refused naming its key', async () => {
    const key = A('conditions.serve');
    const leaky = mci(
      'team-a',
      'header',
      {
        ...OIDC,
        [key]: JSON.stringify([
          { field: 'http-header', httpHeaderConfig: { httpHeaderName: 'X-Leak', values: [LEAK('team-a')] } },
        ]),
      },
      [{ path: '/app', service: 'serve' }],
    );
    await reconcile(leaky);
    await expectRefusedNaming('team-a', 'header', key);
    expect(everythingButClientSecrets()).not.toContain(SECRET_A);
  });
});

describe('in an IngressGroup shared by two namespaces, a member gets only its own secrets', () => {
  useHarness();

  it("member B's text cannot make the group's ALB serve member A's client secret; A keeps its own", async () => {
    const group = { [A('group.name')]: 'shop' };
    const a = mci('team-a', 'a', { ...OIDC, ...group }, [{ path: '/a', service: 'serve' }]);
    const key = A('actions.steal');
    const b = mci(
      'team-b',
      'b',
      {
        ...HTTPS,
        ...group,
        [key]: JSON.stringify({
          type: 'fixed-response',
          fixedResponseConfig: { contentType: 'text/plain', statusCode: '200', messageBody: LEAK('team-a') },
        }),
      },
      [{ path: '/steal', service: 'steal', port: 'use-annotation' }],
    );
    await reconcile(a, b);
    // A is served, with its own secret on its own rule...
    expect((await reported('team-a', 'a')).condition).toMatchObject({ status: 'True' });
    expect(clientSecretsOn('/a')).toStrictEqual([SECRET_A]);
    // ...and B is left out, told which key, and nothing of B's carries A's secret.
    await expectRefusedNaming('team-b', 'b', key);
    expect(everythingButClientSecrets()).not.toContain(SECRET_A);
  });
});

describe('apply resolves only typed placeholders, at their fields', () => {
  useHarness();

  it('a literal "{{secret:…}}" or "{{arn:…}}" string in a fixed response, a redirect or a condition is sent as it is', async () => {
    const logger = new MemoryLogger();
    const owner = { ownerId: 'karmada-test', stackId: 'mci/team-b/b' };
    const ctx: DeployContext = {
      client: elbv2ClientFor(sim, { maxAttempts: 1, retryDelayMs: 1 }),
      signal: new AbortController().signal,
      logger,
      owner,
      vpcId: SIM_NETWORK.vpcId,
      options: { resourceInUseAttempts: 1, resourceInUseDelayMs: 1 },
      records: new KubeTargetRecords(new MemoryKube(), 'records', owner.ownerId, logger),
    };
    const kube = new MemoryKube([secret('team-a', SECRET_A) as KubeObject]);
    const { clientSecrets } = await readOidcSecrets(kube, 'team-a', ['oidc']);
    const body = LEAK('team-a');
    const plan: Operation[] = [
      {
        op: 'create',
        resource: 'LoadBalancer',
        id: 'LoadBalancer',
        detail: '',
        calls: [
          {
            action: 'CreateLoadBalancer',
            produces: 'LoadBalancer',
            input: {
              Name: 'k8s-leak',
              Type: 'application',
              Scheme: 'internal',
              Subnets: SIM_NETWORK.subnets.filter((s) => !s.public).map((s) => s.subnetId),
              SecurityGroups: [SIM_NETWORK.defaultSecurityGroupId],
            },
          },
          {
            action: 'CreateListener',
            produces: '80',
            input: {
              LoadBalancerArn: arnRef('LoadBalancer'),
              Port: 80,
              Protocol: 'HTTP',
              DefaultActions: [
                { Type: 'fixed-response', FixedResponseConfig: { StatusCode: '200', MessageBody: body } },
              ],
            },
          },
          {
            action: 'CreateRule',
            input: {
              ListenerArn: arnRef('80'),
              Priority: 1,
              Conditions: [
                { Field: 'http-header', HttpHeaderConfig: { HttpHeaderName: 'X-Leak', Values: [body] } },
              ],
              Actions: [{ Type: 'redirect', RedirectConfig: { Host: body, StatusCode: 'HTTP_302' } }],
            },
          },
          {
            action: 'CreateRule',
            input: {
              ListenerArn: arnRef('80'),
              Priority: 2,
              Conditions: [{ Field: 'path-pattern', PathPatternConfig: { Values: ['/arn'] } }],
              Actions: [
                {
                  Type: 'fixed-response',
                  FixedResponseConfig: { StatusCode: '200', MessageBody: '{{arn:LoadBalancer}}' },
                },
              ],
            },
          },
        ],
      },
    ];
    await applyPlan(ctx, plan, clientSecrets);
    const stored = [...sim.state.store.rules.values()];
    expect(JSON.stringify(stored)).not.toContain(SECRET_A);
    const byDefault = stored.find((r) => r.priority === 'default');
    expect(byDefault?.actions[0]?.FixedResponseConfig?.MessageBody).toBe(body);
    const rules = stored.filter((r) => r.priority !== 'default').sort((x, y) => x.seq - y.seq);
    expect(
      rules.map((r) => r.actions[0]?.RedirectConfig?.Host ?? r.actions[0]?.FixedResponseConfig?.MessageBody),
    ).toStrictEqual([body, '{{arn:LoadBalancer}}']);
    expect(rules[0]?.conditions[0]?.HttpHeaderConfig?.Values).toStrictEqual([body]);
  });
});

describe('a "{{" in an annotation value the model reads is refused, naming the key', () => {
  const ingress = (annotations: Record<string, string>) =>
    minimalIngress({ metadata: { ...minimalIngress().metadata, annotations } });
  const build = (annotations: Record<string, string>, serviceAnnotations?: Record<string, string>) => () =>
    buildIngressStack({
      mci: ingress(annotations),
      services: [
        { ...service('serve'), metadata: { ...service('serve').metadata, annotations: serviceAnnotations } },
      ],
      endpointSlices: [],
      config: simConfig,
    });
  const why = 'the value holds "{{", which no annotation value may hold';

  it("on the MultiClusterIngress, on a backend Service's ALB keys, and on a MultiClusterService", () => {
    expect(refused(build({ [A('tags')]: 'team={{arn:LoadBalancer}}' }))).toMatchObject({
      field: A('tags'),
      reason: 'InvalidAnnotation',
    });
    expect(refused(build({ [A('security-groups')]: '{{sg:ManagedLBSecurityGroup}}' })).message).toContain(
      `annotation ${A('security-groups')}: ${why}`,
    );
    expect(refused(build({ 'multicluster.karmada.io/cluster-weights': 'member1={{x}}' })).field).toBe(
      'multicluster.karmada.io/cluster-weights',
    );
    expect(refused(build({}, { [A('healthcheck-path')]: '/{{secret:default/oidc}}' })).message).toContain(
      `annotation ${A('healthcheck-path')} of Service default/serve: ${why}`,
    );
    const N = 'service.beta.kubernetes.io/aws-load-balancer-additional-resource-tags';
    expect(
      refused(() =>
        buildServiceStack({
          mcs: mcs('serve', {}, { [N]: 'x={{secret:default/oidc}}' }),
          service: service('serve'),
          endpointSlices: [],
          config: simConfig,
        }),
      ),
    ).toMatchObject({ field: N, reason: 'InvalidAnnotation' });
  });

  it("leaves other tools' annotations alone: only the key families the model reads are checked", () => {
    expect(
      build(
        {
          'kubectl.kubernetes.io/last-applied-configuration': '{"metadata":{"annotations":{"x":"{{y}}"}}}',
          'argocd.argoproj.io/template': '{{ .Values.host }}',
        },
        { 'service.beta.kubernetes.io/azure-dns-label-name': '{{label}}' },
      )(),
    ).toMatchObject({ id: 'mci/default/minimal-ingress' });
  });
});
