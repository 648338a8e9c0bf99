/**
 * RBAC minimality. The Kubernetes access the functions need is not written down by hand and
 * trusted: it is observed. Every controller scenario runs against the API stand-in, whose request
 * log is mapped to (verb, group, resource[/subresource]); the functions' ClusterRole and Role in
 * infra/functions-rbac/ must grant exactly that set, with no wildcard. The forwarder's ClusterRole
 * must be read-only on exactly the types it watches, plus its leader-election Lease.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOW_ALL } from '../support/tenant-policy.js';
import { startElbv2Simulator, type Elbv2Simulator } from '../../dev/elbv2-sim/index.js';
import type { RequestRecord } from '../../dev/kube-apiserver/index.js';
import { awsConfigFor } from '../../dev/local/pipeline.js';
import {
  cluster,
  upstreamScenario,
  minimalIngress,
  serveMultiClusterService,
} from '../../dev/local/scenario.js';
import { WATCHED_TYPES } from '../../lib/forwarder/watched.js';
import { MemoryLogger } from '../../lib/log/logger.js';
import { enqueueResync, resyncPass } from '../../lib/maintenance/resync.js';
import { sweepOrphans } from '../../lib/maintenance/sweep.js';
import { Resources } from '../../lib/kube/resources.js';
import type { KubeObject, ResourceType } from '../../lib/kube/types.js';
import type { NormalizedNotification } from '../../lib/notification/types.js';
import { lockName } from '../../lib/reconcile/lock.js';
import { SERVICE_EXPORT_CPP_NAME, SERVICE_EXPORT_POLICY_PREFIX } from '../../lib/karmada/constants.js';
import { SERVICE_EXPORT_API_VERSION, servicePolicyFor } from '../../lib/karmada/policies.js';
import { notify, notifyChange, startHarness, type Harness } from '../support/harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Where the deployment keeps the reconcile locks (serverless.yml's lockNamespace). */
const LOCK_NAMESPACE = 'multicluster-cloud-provider-locks';

/** `verb group/resource[/subresource]`, group empty for the core API. */
export type Access = string;

/** Maps one API request to the RBAC verb and resource it needs. */
export function accessOf(r: Pick<RequestRecord, 'method' | 'path' | 'query'>): Access {
  const parts = r.path.split('/').filter(Boolean);
  let group: string;
  let rest: string[];
  if (parts[0] === 'api') {
    group = '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    rest = parts.slice(3);
  } else {
    throw new Error(`not a resource request: ${r.method} ${r.path}`);
  }
  if (rest[0] === 'namespaces' && rest.length > 2) rest = rest.slice(2);
  const [resource, name, subresource] = rest;
  const query = new URLSearchParams(r.query);
  const collection = name === undefined;
  const verb =
    r.method === 'GET'
      ? collection
        ? query.get('watch') === 'true' || query.get('watch') === '1'
          ? 'watch'
          : 'list'
        : 'get'
      : r.method === 'POST'
        ? 'create'
        : r.method === 'PUT'
          ? 'update'
          : r.method === 'PATCH'
            ? 'patch'
            : r.method === 'DELETE'
              ? collection
                ? 'deletecollection'
                : 'delete'
              : r.method.toLowerCase();
  return `${verb} ${group}/${resource ?? ''}${subresource ? `/${subresource}` : ''}`;
}

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

interface RoleDoc {
  kind: string;
  metadata: { name: string; namespace?: string };
  rules: PolicyRule[];
}

function readRoles(...files: string[]): RoleDoc[] {
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(ROOT, f), 'utf8')).map((d) => d.toJS() as RoleDoc),
  );
}

/** Every (verb, group/resource) a set of rules grants, refusing wildcards outright. */
function granted(roles: RoleDoc[]): Set<Access> {
  const out = new Set<Access>();
  for (const role of roles) {
    for (const rule of role.rules) {
      const all = [...(rule.apiGroups ?? []), ...(rule.resources ?? []), ...(rule.verbs ?? [])];
      expect(all, `${role.metadata.name} uses a wildcard`).not.toContain('*');
      expect(rule.nonResourceURLs, `${role.metadata.name} grants non-resource URLs`).toBeUndefined();
      for (const g of rule.apiGroups ?? [])
        for (const r of rule.resources ?? []) for (const v of rule.verbs ?? []) out.add(`${v} ${g}/${r}`);
    }
  }
  return out;
}

const sorted = (s: Iterable<string>) => [...s].sort();

/** Requests made while `fn` ran (the test's own set-up writes are left out). */
async function observe(h: Harness, into: RequestRecord[], fn: () => Promise<unknown>): Promise<void> {
  const start = h.api.requests.entries.length;
  await fn();
  into.push(...h.api.requests.entries.slice(start));
}

async function update(h: Harness, type: ResourceType, obj: KubeObject, change: (o: any) => void) {
  const current = (await h.kube.get<KubeObject>(type, obj.metadata.namespace, obj.metadata.name ?? ''))!;
  const next = structuredClone(current);
  change(next);
  const written =
    'status' in next && type.statusSubresource
      ? await h.kube.updateStatus(
          type,
          await h.kube.update(type, next).then((w) => ({ ...w, status: (next as any).status })),
        )
      : await h.kube.update(type, next);
  return [current, written] as const;
}

/**
 * Every controller scenario, as the functions see it: create, change each dependent kind, make
 * an object invalid (twice: the repeated Event is patched), delete, resync, sweep.
 */
async function runScenarios(h: Harness, seen: RequestRecord[]): Promise<void> {
  const logger = new MemoryLogger();
  const signal = new AbortController().signal;
  const objects = upstreamScenario();
  await h.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LOCK_NAMESPACE } } as KubeObject]);
  await h.seed(objects);
  const mci = minimalIngress();
  const mcs = serveMultiClusterService();
  const deliver = (...n: NormalizedNotification[]) => observe(h, seen, () => h.deliver(...n));
  const byKind = (kind: string) => objects.find((o) => o.kind === kind)!;

  // Creation of every kind the functions are told about.
  for (const o of objects) await deliver(notifyChange('added', o));
  await deliver(notify(mci, 'added'), notify(mcs, 'added'));
  await deliver(notify(mci, 'resync'), notify(mcs, 'resync'));

  // Each dependent kind changes.
  const slice = byKind('EndpointSlice');
  const [oldSlice, newSlice] = await update(h, Resources.EndpointSlice, slice, (s) => {
    s.endpoints[0].addresses = ['10.1.0.99'];
  });
  await deliver(notifyChange('modified', newSlice, oldSlice));
  await deliver({ ...notify(slice, 'deleted') }); // a reference only: the slice is read
  const [oldSvc, newSvc] = await update(h, Resources.Service, byKind('Service'), (s) => {
    s.metadata.annotations = { changed: 'yes' };
  });
  await deliver(notifyChange('modified', newSvc, oldSvc));
  const [oldCluster, newCluster] = await update(h, Resources.Cluster, cluster('member1'), (c) => {
    c.status = { remedyActions: ['TrafficControl'] };
  });
  await deliver(notifyChange('modified', newCluster, oldCluster));
  const [oldClass, newClass] = await update(h, Resources.IngressClass, byKind('IngressClass'), (c) => {
    c.metadata.annotations = { ...c.metadata.annotations, touched: 'yes' };
  });
  await deliver(notifyChange('modified', newClass, oldClass));
  const [oldRb, newRb] = await update(h, Resources.ResourceBinding, byKind('ResourceBinding'), (rb) => {
    rb.spec.clusters = [{ name: 'member1' }];
  });
  await deliver(notifyChange('modified', newRb, oldRb));
  // Weights from placement: the MCI asks, the workload's binding appears (the trigger reads the
  // workload and its Service, the reconcile the namespace's workloads), and a StatefulSet's binding
  // goes, known by name only (its workload is read, and found gone).
  const [oldPlaced, placed] = await update(h, Resources.MultiClusterIngress, mci, (m) => {
    m.metadata.annotations = {
      ...m.metadata.annotations,
      'multicluster.karmada.io/cluster-weights-from': 'placement',
    };
  });
  await deliver(notifyChange('modified', placed, oldPlaced));
  const workloadBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'serve-deployment', namespace: 'default' },
    spec: {
      resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'serve' },
      clusters: [{ name: 'member1', replicas: 1 }],
    },
  } as KubeObject;
  await h.seed([workloadBinding]);
  await deliver(notifyChange('added', workloadBinding));
  await deliver(
    notify(
      {
        apiVersion: 'work.karmada.io/v1alpha2',
        kind: 'ResourceBinding',
        metadata: { name: 'db-statefulset', namespace: 'default' },
      },
      'deleted',
    ),
  );
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'tls', namespace: 'default' } };
  await deliver(notify(secret, 'modified'));
  await h.seed([cluster('member3')]);
  await deliver(notifyChange('added', cluster('member3')));
  await deliver(
    notify(
      {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'ClusterPropagationPolicy',
        metadata: { name: 'serviceexportpropagation-policy' },
      },
      'resync',
    ),
  );

  // An invalid spec, reported twice (the second Event is a repeat).
  const [oldMci, badMci] = await update(h, Resources.MultiClusterIngress, mci, (m) => {
    m.spec.rules[0].http.paths[0].backend = {};
  });
  await deliver(notifyChange('modified', badMci, oldMci));
  await deliver(notify(mci, 'resync'));

  // The load balancer type removed, then everything deleted.
  const [oldMcs, newMcs] = await update(h, Resources.MultiClusterService, mcs, (m) => {
    m.spec.types = ['CrossCluster'];
  });
  await deliver(notifyChange('modified', newMcs, oldMcs));
  const [, fixedMci] = await update(h, Resources.MultiClusterIngress, mci, (m) => {
    m.spec = (minimalIngress() as any).spec;
  });
  await deliver(notifyChange('modified', fixedMci, badMci));
  await h.kube.delete(Resources.MultiClusterIngress, 'default', 'minimal-ingress');
  await deliver(notify(mci, 'deleted'));
  await h.kube.delete(Resources.MultiClusterService, 'default', 'serve');
  await deliver(notify(mcs, 'deleted'));
  await h.kube.delete(Resources.Cluster, undefined, 'member3');
  await deliver(notify(cluster('member3'), 'deleted'));

  // Conflicts on writes take the re-read path.
  await h.seed([minimalIngress('again')]);
  h.api.injectConflicts({ probability: 0.5, seed: 7 });
  await deliver(notify(minimalIngress('again'), 'added'));
  h.api.injectConflicts(null);

  // A lock left by an invocation that died is taken over (get + update); a held one is waited on.
  const again = minimalIngress('again');
  await h.kube.create(Resources.Lease, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: lockName('multiclusteringress/default/again'), namespace: LOCK_NAMESPACE },
    spec: { holderIdentity: 'dead', leaseDurationSeconds: 1, renewTime: '2020-01-01T00:00:00.000000Z' },
  } as KubeObject);
  await deliver(notify(again, 'resync'));
  await observe(h, seen, () =>
    Promise.all([h.deliver(notify(again, 'resync')), h.deliver(notify(again, 'resync'))]),
  );

  // An explicit class name is read by name.
  const [oldAgain, classed] = await update(h, Resources.MultiClusterIngress, again, (m) => {
    m.spec.ingressClassName = 'fake';
  });
  await deliver(notifyChange('modified', classed, oldAgain));

  // The scheduled functions.
  // As functions/resync.ts and functions/sweep.ts call them: within ALLOWED_NAMESPACES when set.
  const allowed = h.runtime.config.allowedNamespaces;
  const namespaces = allowed ? { namespaces: allowed } : {};
  await observe(h, seen, () =>
    enqueueResync(h.kube, { send: async () => ({ failed: [] }) }, logger, namespaces),
  );
  // Both halves of the resync, whatever the clock says: a pass whose turn deep-checks nobody (60
  // slots, the last one's turn, fewer objects than slots) compares every fingerprint, and a pass
  // with one slot deep-checks everybody.
  const periodMs = 600_000;
  const lastTurn = new Date((Math.floor(Date.now() / (60 * periodMs)) * 60 - 1) * periodMs);
  for (const [deep, now] of [
    [{ intervalMs: 60 * periodMs, periodMs }, lastTurn],
    [{ intervalMs: periodMs, periodMs }, new Date()],
  ] as const) {
    await observe(h, seen, () =>
      resyncPass(h.kube, h.runtime.provider, { send: async () => ({ failed: [] }) }, logger, {
        ...namespaces,
        providerIngressClass: h.runtime.config.providerIngressClass,
        ctx: { signal, logger },
        deep,
        now,
      }),
    );
  }
  await observe(h, seen, () =>
    sweepOrphans(h.kube, h.runtime.provider, { graceSeconds: 0, signal, logger, ...namespaces }),
  );
}

describe('RBAC: the functions get exactly the access they use', () => {
  const seen: RequestRecord[] = [];
  const harnesses: Harness[] = [];
  let sim: Elbv2Simulator;

  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'rbac';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'rbac';
    sim = await startElbv2Simulator({ inProcess: true });
    // The fake provider and the AWS provider (which reads Services and EndpointSlices itself).
    for (const options of [
      {},
      { provider: 'aws', providerConfig: awsConfigFor(sim, { recordNamespace: LOCK_NAMESPACE }) },
    ]) {
      const h = await startHarness({
        inProcess: true,
        ...options,
        runtime: { lockNamespace: LOCK_NAMESPACE },
      });
      harnesses.push(h);
      // What the runtime read while starting (the AWS provider identifies the Karmada instance).
      seen.push(...h.api.requests.entries);
      await runScenarios(h, seen);
    }
  }, 120_000);
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await sim.close();
  });

  it('observes a non-trivial set of requests, all of them successful or expected failures', () => {
    expect(seen.length).toBeGreaterThan(100);
    const failures = seen.filter((r) => r.status >= 400 && r.status !== 404 && r.status !== 409);
    expect(failures.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([]);
  });

  it('infra/functions-rbac grants exactly the observed verbs and resources, no wildcard', () => {
    const observed = new Set(seen.map(accessOf));
    const roles = readRoles(
      'infra/functions-rbac/clusterrole.yaml',
      'infra/functions-rbac/common/lease-role.yaml',
      'infra/functions-rbac/common/execution-spaces.yaml',
    ).filter((d) => d.kind === 'ClusterRole' || d.kind === 'Role');
    expect(sorted(granted(roles))).toEqual(sorted(observed));
  });

  it('lock Leases live in a namespace of their own, which a namespaced Role covers', () => {
    const leases = seen.filter((r) => accessOf(r).endsWith('coordination.k8s.io/leases'));
    expect(leases.length).toBeGreaterThan(0);
    expect(new Set(leases.map((r) => r.path.split('/')[5]))).toEqual(new Set([LOCK_NAMESPACE]));
    const [role] = readRoles('infra/functions-rbac/common/lease-role.yaml');
    expect(role?.kind).toBe('Role');
    expect(role?.metadata.namespace).toBe(LOCK_NAMESPACE);
    const [ns] = readRoles('infra/functions-rbac/common/lock-namespace.yaml') as unknown as Array<{
      kind: string;
      metadata: { name: string };
    }>;
    expect(ns).toMatchObject({ kind: 'Namespace', metadata: { name: LOCK_NAMESPACE } });
    const sls = readFileSync(join(ROOT, 'serverless.yml'), 'utf8');
    expect(sls).toMatch(new RegExp(`lockNamespace: ${LOCK_NAMESPACE}`));
    const [clusterRole] = readRoles('infra/functions-rbac/clusterrole.yaml');
    expect(sorted(granted([clusterRole!])).filter((a) => a.includes('leases'))).toEqual([]);
  });

  it('ClusterPropagationPolicy get/update are limited by resourceNames to the one the functions own', () => {
    const cpp = seen.filter((r) => accessOf(r).endsWith('policy.karmada.io/clusterpropagationpolicies'));
    expect(cpp.length).toBeGreaterThan(0);
    const named = cpp.filter((r) => !accessOf(r).startsWith('create '));
    expect(new Set(named.map((r) => r.path.split('/').at(-1)))).toEqual(new Set([SERVICE_EXPORT_CPP_NAME]));
    const [clusterRole] = readRoles('infra/functions-rbac/clusterrole.yaml');
    for (const rule of clusterRole!.rules.filter((r) =>
      r.resources?.includes('clusterpropagationpolicies'),
    )) {
      if (rule.verbs?.some((v) => v !== 'create'))
        expect(rule.resourceNames).toEqual([SERVICE_EXPORT_CPP_NAME]);
    }
  });

  it('the PropagationPolicy admission policy pins the names and selectors the functions write', () => {
    const docs = parseAllDocuments(
      readFileSync(join(ROOT, 'infra/functions-rbac/admission/propagationpolicy.yaml'), 'utf8'),
    ).map((d) => d.toJS() as { kind: string; spec: any });
    const policy = docs.find((d) => d.kind === 'ValidatingAdmissionPolicy')!;
    expect(policy.spec.matchConstraints.resourceRules[0].resources).toEqual(['propagationpolicies']);
    expect(JSON.stringify(policy.spec.matchConditions)).toContain(
      'system:serviceaccount:karmada-system:multicluster-cloud-provider-functions',
    );
    const cel = JSON.stringify(policy.spec.validations);
    expect(cel).toContain(SERVICE_EXPORT_POLICY_PREFIX);
    expect(cel).toContain(SERVICE_EXPORT_API_VERSION);
    expect(cel).toContain("'ServiceExport'");
    expect(docs.find((d) => d.kind === 'ValidatingAdmissionPolicyBinding')?.spec.validationActions).toEqual([
      'Deny',
    ]);
    // What the controller writes is what the policy admits: its name and its single selector.
    const pp = servicePolicyFor({ metadata: { name: 'web', namespace: 'default', uid: 'u' } } as never, [
      'm1',
    ]);
    expect(pp.metadata.name).toBe(`${SERVICE_EXPORT_POLICY_PREFIX}web`);
    expect(pp.spec?.resourceSelectors).toEqual([
      { apiVersion: SERVICE_EXPORT_API_VERSION, kind: 'ServiceExport', name: 'web' },
    ]);
  });

  it('namespaces: only kube-system is read (the Karmada instance), by resourceNames', () => {
    const ns = seen.filter((r) => accessOf(r) === 'get /namespaces');
    expect(ns.length).toBeGreaterThan(0);
    expect(new Set(ns.map((r) => r.path))).toEqual(new Set(['/api/v1/namespaces/kube-system']));
    const [clusterRole] = readRoles('infra/functions-rbac/clusterrole.yaml');
    const rule = clusterRole!.rules.find((r) => r.resources?.includes('namespaces'));
    expect(rule).toEqual({
      apiGroups: [''],
      resources: ['namespaces'],
      resourceNames: ['kube-system'],
      verbs: ['get'],
    });
  });

  it('the functions read no Secret unless an MCI authenticates with OIDC', () => {
    expect(seen.filter((r) => accessOf(r).includes('/secrets'))).toEqual([]);
  });
});

describe('RBAC: an OIDC client Secret is read by name only, as the opt-in Role grants', () => {
  const seen: RequestRecord[] = [];
  let h: Harness;
  let sim: Elbv2Simulator;
  const A = 'alb.ingress.kubernetes.io/';

  beforeAll(async () => {
    process.env.AWS_ACCESS_KEY_ID ??= 'rbac';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'rbac';
    sim = await startElbv2Simulator({ inProcess: true });
    h = await startHarness({
      inProcess: true,
      provider: 'aws',
      // The OIDC provider and certificate the MCI names are allowed: this test is about the Secret's read.
      providerConfig: awsConfigFor(sim, { recordNamespace: LOCK_NAMESPACE, tenantPolicy: ALLOW_ALL }),
      runtime: { lockNamespace: LOCK_NAMESPACE },
    });
    await h.seed([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LOCK_NAMESPACE } } as KubeObject]);
    await h.seed(upstreamScenario());
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    await h.seed([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'oidc-client', namespace: 'default' },
        data: { clientID: b64('client'), clientSecret: b64('secret') },
      } as KubeObject,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'unrelated', namespace: 'default' },
        data: { token: b64('nobody reads this') },
      } as KubeObject,
    ]);
    const mci = minimalIngress('authenticated');
    mci.metadata.annotations = {
      [`${A}listen-ports`]: '[{"HTTPS":443}]',
      [`${A}certificate-arn`]: 'arn:aws:acm:us-east-1:123456789012:certificate/aaaa-1111',
      [`${A}auth-type`]: 'oidc',
      [`${A}auth-idp-oidc`]: JSON.stringify({
        issuer: 'https://idp.example.com',
        authorizationEndpoint: 'https://idp.example.com/authorize',
        tokenEndpoint: 'https://idp.example.com/token',
        userInfoEndpoint: 'https://idp.example.com/userinfo',
        secretName: 'oidc-client',
      }),
    };
    await h.seed([mci]);
    await observe(h, seen, () => h.deliver(notify(mci, 'added')));
    await observe(h, seen, () => h.deliver(notify(mci, 'resync')));
  }, 60_000);
  afterAll(async () => {
    await h.close();
    await sim.close();
  });

  it('GETs exactly the named Secret in the MCI namespace, and infra/functions-rbac/oidc-secrets grants exactly that', () => {
    const secrets = seen.filter((r) => accessOf(r).includes('/secrets'));
    expect(secrets.length).toBeGreaterThan(0);
    expect(new Set(secrets.map((r) => `${r.method} ${r.path} ${r.status}`))).toEqual(
      new Set(['GET /api/v1/namespaces/default/secrets/oidc-client 200']),
    );
    const roles = readRoles('infra/functions-rbac/oidc-secrets/role.yaml');
    expect(roles.map((r) => r.kind)).toEqual(['Role']);
    expect(sorted(granted(roles))).toEqual(sorted(new Set(secrets.map(accessOf))));
    // The MCI was served: the authenticate action is in front of its rule.
    const rules = sim.snapshot().rules.filter((r) => !r.IsDefault);
    expect(rules.map((r) => r.Actions?.map((a) => a.Type))).toEqual([['authenticate-oidc', 'forward']]);
  });
});

describe('RBAC: the forwarder is read-only on what it watches, plus its Lease', () => {
  const dir = 'infra/forwarder/k8s/karmada-rbac';

  it('the ClusterRole grants get/list/watch on exactly the watched resources', () => {
    const [role] = readRoles(`${dir}/clusterrole.yaml`);
    expect(role?.kind).toBe('ClusterRole');
    const expected = WATCHED_TYPES.flatMap((t) => {
      const group = t.apiVersion.includes('/') ? t.apiVersion.split('/')[0] : '';
      return ['get', 'list', 'watch'].map((v) => `${v} ${group}/${t.plural}`);
    });
    expect(sorted(granted([role!]))).toEqual(sorted(new Set(expected)));
  });

  it('the Lease access is a namespaced Role on coordination.k8s.io/leases only', () => {
    const roles = readRoles(`${dir}/lease-role.yaml`);
    expect(roles.map((r) => r.kind)).toEqual(['Role']);
    expect(sorted(granted(roles))).toEqual(
      sorted([
        'create coordination.k8s.io/leases',
        'get coordination.k8s.io/leases',
        'update coordination.k8s.io/leases',
      ]),
    );
    // get/update only on the forwarder's own Lease.
    for (const rule of roles[0]!.rules) {
      if (rule.verbs?.some((v) => v !== 'create'))
        expect(rule.resourceNames).toEqual(['multicluster-forwarder']);
    }
    const kustomization = readRoles(`${dir}/kustomization.yaml`)[0] as unknown as { namespace?: string };
    expect(kustomization.namespace).toBe('karmada-system');
  });
});

describe('RBAC: with ALLOWED_NAMESPACES, per-namespace bindings suffice', () => {
  const seen: RequestRecord[] = [];
  const harnesses: Harness[] = [];
  let sim: Elbv2Simulator;
  beforeAll(async () => {
    sim = await startElbv2Simulator({ inProcess: true });
    for (const options of [
      {},
      { provider: 'aws', providerConfig: awsConfigFor(sim, { recordNamespace: LOCK_NAMESPACE }) },
    ]) {
      const h = await startHarness({
        inProcess: true,
        ...options,
        runtime: { lockNamespace: LOCK_NAMESPACE, allowedNamespaces: ['default'] },
      });
      harnesses.push(h);
      // What the runtime read while starting (the AWS provider identifies the Karmada instance).
      seen.push(...h.api.requests.entries);
      await runScenarios(h, seen);
    }
  }, 120_000);
  afterAll(async () => {
    for (const h of harnesses) await h.close();
    await sim?.close();
  });

  it('every request for a namespaced resource names an allowed namespace (or the lock namespace)', () => {
    const clusterWide = seen.filter((r) => {
      const parts = r.path.split('/').filter(Boolean);
      const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
      const namespaced = !['clusters', 'ingressclasses', 'clusterpropagationpolicies', 'namespaces'].includes(
        // `/api/v1/namespaces/<name>` is the Namespace itself (kube-system: the Karmada instance).
        rest[0] === 'namespaces' ? (rest[2] ?? 'namespaces') : (rest[0] ?? ''),
      );
      if (!namespaced) return false;
      // The Work a collected EndpointSlice names, in Karmada's execution namespace of its cluster.
      if (accessOf(r) === 'get work.karmada.io/works' && rest[1]?.startsWith('karmada-es-')) return false;
      return rest[0] !== 'namespaces' || !['default', LOCK_NAMESPACE].includes(rest[1] ?? '');
    });
    expect(clusterWide.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('infra/functions-rbac/per-namespace grants exactly the observed access: a Role per namespace, cluster-scoped types cluster-wide', () => {
    const dir = 'infra/functions-rbac/per-namespace';
    const clusterScoped = readRoles(`${dir}/cluster-scoped.yaml`).filter((d) => d.kind === 'ClusterRole');
    const [role] = readRoles(`${dir}/namespaced/role.yaml`);
    expect(role?.kind).toBe('Role');
    const leases = readRoles('infra/functions-rbac/common/lease-role.yaml');
    const works = readRoles('infra/functions-rbac/common/execution-spaces.yaml').filter(
      (d) => d.kind === 'ClusterRole',
    );
    expect(sorted(granted(works))).toEqual(['get work.karmada.io/works']);
    expect(sorted(granted([...clusterScoped, role!, ...leases, ...works]))).toEqual(
      sorted(new Set(seen.map(accessOf))),
    );
    const cluster = granted(clusterScoped);
    for (const a of cluster)
      expect(/\/(ingressclasses|clusters|clusterpropagationpolicies|namespaces)$/.test(a), a).toBe(true);
  });
});
