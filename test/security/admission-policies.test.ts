/**
 * Issue 27: the admission policies are part of the default install, and they do what they say.
 * - The PropagationPolicy policy (infra/functions-rbac/admission/propagationpolicy.yaml) was an
 *   optional extra step; now both installs (cluster-wide and per-namespace) apply it.
 * - Medium 2's admission part: imported EndpointSlices (the ones the AWS provider takes targets
 *   from) could be written by anyone with EndpointSlice access. The imported-endpointslices policy
 *   lets only Karmada's controller (a parameter) write a slice that looks imported.
 * The API stand-in does not evaluate ValidatingAdmissionPolicies, so their CEL is evaluated here
 * (test/support/cel.ts, test/support/admission-policy.ts) on the objects the code writes and on
 * forged ones.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { collectedSlice } from '../../dev/local/scenario.js';
import { SERVICE_EXPORT_POLICY_PREFIX } from '../../lib/karmada/constants.js';
import { servicePolicyFor } from '../../lib/karmada/policies.js';
import type { EndpointSlice } from '../../lib/karmada/types.js';
import { sliceProblem, WORK_NAME_ANNOTATION } from '../../lib/providers/aws/imported-slices.js';
import { IMPORTED_SLICE_PREFIX, WORK_NAMESPACE_KEY } from '../../lib/providers/aws/model/targets.js';
import { admit, type AdmissionRequest } from '../support/admission-policy.js';

const ROOT = join(import.meta.dirname, '..', '..');
type Doc = {
  kind: string;
  apiVersion: string;
  metadata: { name: string; namespace?: string };
  [k: string]: any;
};

/** Every object a kustomization renders (files and directories under `resources`, recursively). */
function rendered(dir: string): Doc[] {
  const [k] = parseAllDocuments(readFileSync(join(ROOT, dir, 'kustomization.yaml'), 'utf8')).map(
    (d) => d.toJS() as { resources?: string[] },
  );
  return (k?.resources ?? []).flatMap((r) => {
    const path = join(dir, r);
    if (statSync(join(ROOT, path)).isDirectory()) return rendered(path);
    return parseAllDocuments(readFileSync(join(ROOT, path), 'utf8')).map((d) => d.toJS() as Doc);
  });
}

const PP_POLICY = 'multicluster-cloud-provider-propagationpolicies';
const EPS_POLICY = 'multicluster-cloud-provider-imported-endpointslices';
const FUNCTIONS = 'system:serviceaccount:karmada-system:multicluster-cloud-provider-functions';
const KARMADA = 'system:karmada:karmada-controller-manager';
const install = rendered('infra/functions-rbac');
const paramsOf = (docs: Doc[]) =>
  new Map(
    docs
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => [`${d.metadata.namespace}/${d.metadata.name}`, d as unknown]),
  );

describe('the default install applies the admission policies', () => {
  it.each(['infra/functions-rbac', 'infra/functions-rbac/per-namespace'])(
    '%s has both policies, each bound with Deny, and the EndpointSlice policy’s parameter',
    (dir) => {
      const docs = rendered(dir);
      for (const name of [PP_POLICY, EPS_POLICY]) {
        expect(
          docs.find((d) => d.kind === 'ValidatingAdmissionPolicy' && d.metadata.name === name),
          name,
        ).toBeTruthy();
        const binding = docs.find(
          (d) => d.kind === 'ValidatingAdmissionPolicyBinding' && d.spec.policyName === name,
        );
        expect(binding?.spec.validationActions, name).toEqual(['Deny']);
      }
      expect(paramsOf(docs).get(`karmada-system/${EPS_POLICY}`)).toMatchObject({
        data: { usernames: KARMADA },
      });
    },
  );
});

describe('PropagationPolicies: the functions write only what the serviceexport-propagation controller writes', () => {
  const pp = (name: string, selectors: unknown[]) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: { resourceSelectors: selectors, placement: { clusterAffinity: { clusterNames: ['m1'] } } },
  });
  const write = (
    object: unknown,
    username = FUNCTIONS,
    operation: AdmissionRequest['operation'] = 'CREATE',
  ) =>
    admit(install, PP_POLICY, {
      operation,
      group: 'policy.karmada.io',
      resource: 'propagationpolicies',
      namespace: 'default',
      object,
      userInfo: { username },
    });

  it('admits the policy the controller writes, on create and update', () => {
    const mine = servicePolicyFor({ metadata: { name: 'web', namespace: 'default', uid: 'u' } } as never, [
      'm1',
    ]);
    expect(write(mine)).toEqual({ allowed: true });
    expect(write(mine, FUNCTIONS, 'UPDATE')).toEqual({ allowed: true });
  });

  it('refuses the functions’ identity any other policy', () => {
    const exportOf = (name: string) => ({
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ServiceExport',
      name,
    });
    expect(write(pp('spread-everything', [exportOf('web')])).allowed).toBe(false);
    expect(write(pp(`${SERVICE_EXPORT_POLICY_PREFIX}web`, [exportOf('other')])).allowed).toBe(false);
    expect(
      write(
        pp(`${SERVICE_EXPORT_POLICY_PREFIX}web`, [
          { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        ]),
      ).allowed,
    ).toBe(false);
    expect(write(pp(`${SERVICE_EXPORT_POLICY_PREFIX}web`, [exportOf('web'), exportOf('db')])).allowed).toBe(
      false,
    );
    expect(
      write(
        pp(`${SERVICE_EXPORT_POLICY_PREFIX}web`, [
          { ...exportOf('web'), labelSelector: { matchLabels: {} } },
        ]),
      ).allowed,
    ).toBe(false);
    // A selector without a name errs in CEL: failurePolicy Fail denies.
    const unnamed = { apiVersion: 'multicluster.x-k8s.io/v1alpha1', kind: 'ServiceExport' };
    expect(write(pp(`${SERVICE_EXPORT_POLICY_PREFIX}web`, [unnamed])).allowed).toBe(false);
  });

  it('leaves everyone else’s PropagationPolicies alone', () => {
    expect(write(pp('spread-everything', [{ apiVersion: 'apps/v1', kind: 'Deployment' }]), 'alice')).toEqual({
      allowed: true,
    });
  });
});

describe('imported EndpointSlices: only Karmada’s controller may write one', () => {
  const params = paramsOf(install);
  const write = (
    object: Record<string, any>,
    username: string,
    operation: AdmissionRequest['operation'] = 'CREATE',
    oldObject?: unknown,
    p = params,
  ) =>
    admit(
      install,
      EPS_POLICY,
      {
        operation,
        group: 'discovery.k8s.io',
        resource: 'endpointslices',
        namespace: 'default',
        object,
        ...(oldObject ? { oldObject } : {}),
        userInfo: { username, groups: ['system:authenticated'] },
      },
      p,
    );
  const imported = () => collectedSlice('member1', ['10.1.0.11']) as Record<string, any>;
  const withMeta = (meta: Record<string, unknown>) => {
    const s = imported();
    return { ...s, metadata: { ...s.metadata, ...meta } };
  };
  const ordinary = () =>
    withMeta({ name: 'serve-handmade', annotations: {}, labels: { 'kubernetes.io/service-name': 'serve' } });

  it('Karmada’s controller creates and updates imported slices', () => {
    expect(write(imported(), KARMADA)).toEqual({ allowed: true });
    expect(write(imported(), KARMADA, 'UPDATE', imported())).toEqual({ allowed: true });
  });

  it('a tenant (a user, a ServiceAccount, the functions) cannot forge one, however it is made to look', () => {
    for (const who of ['alice', 'system:serviceaccount:team-a:deployer', FUNCTIONS]) {
      const forged = [
        imported(),
        // The name only, the annotation only, the label only: the code reads any of them.
        withMeta({ annotations: {} }),
        withMeta({ name: 'serve-handmade' }),
        withMeta({
          name: 'serve-handmade',
          annotations: {},
          labels: { [WORK_NAMESPACE_KEY]: 'karmada-es-member1' },
        }),
      ];
      for (const slice of forged) {
        const verdict = write(slice, who);
        expect(verdict.allowed, `${who} ${slice.metadata.name}`).toBe(false);
        expect(verdict.message).toContain(
          'only Karmada (system:karmada:karmada-controller-manager) may write it',
        );
      }
      // Nor change Karmada's (its endpoints), nor make it ordinary to take it over.
      const changed = {
        ...imported(),
        endpoints: [{ addresses: ['10.9.9.9'], conditions: { ready: true } }],
      };
      expect(write(changed, who, 'UPDATE', imported()).allowed).toBe(false);
      expect(write(withMeta({ annotations: {} }), who, 'UPDATE', imported()).allowed).toBe(false);
      expect(write(ordinary(), who, 'UPDATE', withMeta({ name: 'serve-handmade' })).allowed).toBe(false);
    }
  });

  it('ordinary EndpointSlices are anyone’s', () => {
    expect(write(ordinary(), 'alice')).toEqual({ allowed: true });
    expect(write(ordinary(), 'alice', 'UPDATE', ordinary())).toEqual({ allowed: true });
  });

  it('the writers are a parameter; without it no EndpointSlice is admitted (closed, not open)', () => {
    const other = new Map([
      [`karmada-system/${EPS_POLICY}`, { data: { usernames: 'system:admin, ' + KARMADA } }],
    ]);
    expect(write(imported(), 'system:admin', 'CREATE', undefined, other)).toEqual({ allowed: true });
    expect(write(imported(), 'alice', 'CREATE', undefined, other).allowed).toBe(false);
    expect(write(imported(), KARMADA, 'CREATE', undefined, new Map()).allowed).toBe(false);
    expect(write(ordinary(), 'alice', 'CREATE', undefined, new Map()).allowed).toBe(false);
  });

  it('everything the provider would take targets from is guarded by the policy', () => {
    // Slices the code accepts, and near misses: whenever the slice alone passes sliceProblem (the
    // Work it names is read after), only Karmada may write it.
    const names = [
      `${IMPORTED_SLICE_PREFIX}member1-serve-abcde`,
      `${IMPORTED_SLICE_PREFIX}m-x`,
      'serve-abc',
      'importedmember1-x',
    ];
    const keys = [
      {},
      { [WORK_NAMESPACE_KEY]: 'karmada-es-member1' },
      { [WORK_NAMESPACE_KEY]: 'karmada-es-m' },
      { [WORK_NAMESPACE_KEY]: 'karmada-es-member1', [WORK_NAME_ANNOTATION]: 'serve-work' },
    ];
    let accepted = 0;
    for (const name of names) {
      for (const annotations of keys) {
        for (const labels of keys) {
          const slice = withMeta({ name, annotations, labels });
          if (sliceProblem(slice as unknown as EndpointSlice) !== undefined) continue;
          accepted += 1;
          expect(write(slice, 'alice').allowed, name).toBe(false);
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });
});
