/**
 * Whether a MultiClusterIngress is ours (lib/reconcile/ingress-class.ts), with the IngressClasses
 * on the Kubernetes API stand-in: the decision and the detail that logs, results and Events quote.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingressClass } from '../../dev/local/scenario.js';
import type { MultiClusterIngress } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { ingressClassMatches, ingressClassOf } from '../../lib/reconcile/ingress-class.js';
import { startHarness, type Harness } from '../support/harness.js';

const OURS = 'karmada.io/fake';
let h: Harness;
const mci = (ingressClassName?: string): MultiClusterIngress =>
  ({
    apiVersion: 'networking.karmada.io/v1alpha1',
    kind: 'MultiClusterIngress',
    metadata: { name: 'web', namespace: 'default' },
    spec: ingressClassName ? { ingressClassName } : {},
  }) as MultiClusterIngress;
const decide = (m: MultiClusterIngress) => ingressClassMatches(h.kube, m, OURS);

beforeEach(async () => {
  h = await startHarness({ inProcess: true });
});
afterEach(async () => h.close());

describe('ingressClassMatches', () => {
  it('a named class of our controller', async () => {
    await h.seed([ingressClass('fake', OURS, false)]);
    expect(await decide(mci('fake'))).toEqual({ matches: true, detail: 'IngressClass fake' });
  });

  it('a named class that does not exist', async () => {
    expect(await decide(mci('missing'))).toEqual({
      matches: false,
      detail: 'IngressClass missing does not exist',
    });
  });

  it('a named class of another controller', async () => {
    await h.seed([ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    expect(await decide(mci('nginx'))).toEqual({
      matches: false,
      detail: `IngressClass nginx has controller k8s.io/ingress-nginx, not ${OURS}`,
    });
  });

  it('a named class without a controller', async () => {
    await h.seed([
      { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'bare' } } as KubeObject,
    ]);
    expect(await decide(mci('bare'))).toEqual({
      matches: false,
      detail: `IngressClass bare has controller (none), not ${OURS}`,
    });
  });

  it('no class named: the one default class decides, whatever else exists', async () => {
    await h.seed([ingressClass('fake', OURS, true), ingressClass('nginx', 'k8s.io/ingress-nginx', false)]);
    expect(await decide(mci())).toEqual({ matches: true, detail: 'default IngressClass fake' });
    // an MCI without spec at all is the same
    const { spec: _s, ...noSpec } = mci();
    expect(await decide(noSpec as MultiClusterIngress)).toEqual({
      matches: true,
      detail: 'default IngressClass fake',
    });
  });

  it('no class named and no default class', async () => {
    await h.seed([ingressClass('fake', OURS, false)]);
    expect(await decide(mci())).toEqual({
      matches: false,
      detail: 'no ingressClassName and no default IngressClass',
    });
  });

  it('no class named and two default classes: none decides, both are named', async () => {
    await h.seed([ingressClass('fake', OURS, true), ingressClass('other', OURS, true)]);
    expect(await decide(mci())).toEqual({
      matches: false,
      detail: 'no ingressClassName and 2 default IngressClasses (fake, other)',
    });
  });

  it('the class read is returned with the detail', async () => {
    await h.seed([ingressClass('fake', OURS, true)]);
    const { ingressClass: found } = await ingressClassOf(h.kube, mci());
    expect(found?.metadata.name).toBe('fake');
    expect(found?.spec?.controller).toBe(OURS);
  });
});
