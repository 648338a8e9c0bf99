/**
 * Two Regions without an accelerator: each member cluster's endpoints in its own Region's load
 * balancer (member1 in us-east-1, member2 in eu-west-1, from their Clusters' `spec.region`), the
 * object's status the two load balancers' names, and deletion clearing both Regions.
 */
import { expect } from 'vitest';
import { cluster, ingressClass } from '../../../dev/local/scenario.js';
import type { RegionState } from '../support/observe.js';
import type { Scenario } from '../support/suite.js';
import { REGIONS } from '../support/targets.js';
import {
  exists,
  expectNoOpAndResync,
  hostnames,
  mci,
  mcs,
  path,
  remove,
  rule,
  slice,
  svc,
} from './objects.js';

const targetsBy = (state: Record<string, RegionState>) =>
  Object.fromEntries(
    Object.entries(state).map(([region, s]) => [
      region,
      s.targetGroups.map((t) => `${t.name}: ${t.targets.join(' ')}`),
    ]),
  );

export const REGION_SCENARIOS: Scenario[] = [
  {
    name: 'two Regions, no accelerator: a load balancer per Region with its own clusters’ targets; delete clears both',
    async run(w) {
      const web = mci('web', [rule('web.example.com', path('/', 'Prefix', 'serve', 80))]);
      const tcp = mcs('serve');
      await w.start({ regions: REGIONS }, [
        ingressClass(),
        cluster('member1', false, 'us-east-1'),
        cluster('member2', false, 'eu-west-1'),
        svc('serve'),
        slice('member1', 'serve', ['10.1.0.11', '10.1.0.12']),
        slice('member2', 'serve', ['10.2.0.21']),
        web,
        tcp,
      ]);
      await w.settle(web, tcp);
      const created = await w.observe();
      for (const region of REGIONS) {
        expect(
          created[region]!.loadBalancers.map((l) => `${l.type} ${l.name.replace(/[0-9a-f]{10}$/, '#')}`),
          region,
        ).toEqual(['network k8s-default-serve-#', 'application k8s-default-web-#']);
      }
      expect(targetsBy(created)).toEqual({
        'us-east-1': [
          'k8s-default-serve(default/serve:80): 10.1.0.11:8080@all 10.1.0.12:8080@all',
          'k8s-default-serve(default/web-serve:80): 10.1.0.11:8080@all 10.1.0.12:8080@all',
        ],
        'eu-west-1': [
          'k8s-default-serve(default/serve:80): 10.2.0.21:8080@all',
          'k8s-default-serve(default/web-serve:80): 10.2.0.21:8080@all',
        ],
      });
      for (const o of [web, tcp]) {
        const names = await hostnames(w, o);
        expect(names).toHaveLength(2);
        expect(names.some((n) => n.includes('us-east-1'))).toBe(true);
        expect(names.some((n) => n.includes('eu-west-1'))).toBe(true);
      }
      await expectNoOpAndResync(
        w,
        [web, tcp],
        // README, "NLB target group attributes": once per Region's NLB group on moto.
        w.kind === 'moto'
          ? [
              'elbv2:ModifyTargetGroupAttributes',
              'elbv2:AddTags',
              'elbv2:AddTags',
              'elbv2:ModifyTargetGroupAttributes',
              'elbv2:AddTags',
              'elbv2:AddTags',
            ]
          : [],
      );

      await remove(w, web);
      await remove(w, tcp);
      await w.settle(web, tcp);
      expect(await exists(w, web)).toBe(false);
      expect(await exists(w, tcp)).toBe(false);
      const deleted = await w.observe();
      for (const region of REGIONS) {
        expect(deleted[region], region).toEqual({
          loadBalancers: [],
          listeners: [],
          rules: [],
          targetGroups: [],
          securityGroups: [],
        });
      }
      return { created };
    },
  },
];
