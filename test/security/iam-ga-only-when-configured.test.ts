/**
 * The Global Accelerator statements exist only in a deployment that configures Global Accelerator.
 * An accelerator is public exposure (two anycast IPs in front of any load balancer, internal ones
 * included), and its statements include the one mutation on Resource "*" (CreateAccelerator lists
 * no resource type) and GA's service-linked role: a deployment that never configured GA must not
 * be able to create one, whatever a tenant annotates or the code does.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { elbv2PolicyStatements, type Elbv2Access } from '../../lib/providers/aws/iam.js';
import { INSTANCE_TAG, OWNER_TAG } from '../../lib/providers/aws/tagging.js';
import { ACCOUNT, isAllowed, resolveCfn, type Statement } from './iam-eval.js';

const ROOT = join(import.meta.dirname, '..', '..');
const ACCESS: Elbv2Access[] = ['reconcile', 'sweep', 'resync'];
const isGa = (a: string) => a.startsWith('globalaccelerator:') || a === 'iam:CreateServiceLinkedRole';
const gaActions = (statements: readonly { Action: string | string[] }[]) =>
  statements.flatMap((s) => [s.Action].flat()).filter(isGa);

const options = { ownerId: 'team-a', instanceId: 'instance-a' };
const createAccelerator = {
  action: 'globalaccelerator:CreateAccelerator',
  resource: '*',
  context: {
    [`aws:RequestTag/${OWNER_TAG}`]: 'team-a',
    [`aws:RequestTag/${INSTANCE_TAG}`]: 'instance-a',
    'aws:TagKeys': [OWNER_TAG, INSTANCE_TAG],
  },
};

describe('Global Accelerator statements only where Global Accelerator is configured', () => {
  it('without Global Accelerator, no role holds any GA action or its service-linked role', () => {
    for (const access of ACCESS)
      expect(gaActions(elbv2PolicyStatements(options, access)), access).toEqual([]);
    const reconcile = resolveCfn(elbv2PolicyStatements(options), ACCOUNT) as Statement[];
    expect(isAllowed(reconcile, createAccelerator)).toBe(false);
  });

  it('the roles serverless.yml ships for a deployment without a provider configuration hold none', () => {
    const roles = JSON.parse(readFileSync(join(ROOT, 'infra/iam/function-roles.json'), 'utf8')) as {
      Roles: Record<
        string,
        { Properties: { Policies: Array<{ PolicyDocument: { Statement: unknown[] } }> } }
      >;
    };
    for (const [id, role] of Object.entries(roles.Roles)) {
      const statements = role.Properties.Policies.flatMap((p) => p.PolicyDocument.Statement).flatMap((s) =>
        (s as { 'Fn::If'?: unknown[] })['Fn::If'] ? [(s as { 'Fn::If': unknown[] })['Fn::If'][1]] : [s],
      ) as Array<{ Action: string[] }>;
      expect(gaActions(statements), id).toEqual([]);
    }
    const policy = JSON.parse(readFileSync(join(ROOT, 'infra/iam/elbv2-policy.json'), 'utf8')) as {
      Statement: Array<{ Action: string[] }>;
    };
    expect(gaActions(policy.Statement)).toEqual([]);
  });

  it('with Global Accelerator configured, the reconciling roles create accelerators and the sweep retires them', () => {
    const reconcile = resolveCfn(
      elbv2PolicyStatements({ ...options, globalAccelerator: true }),
      ACCOUNT,
    ) as Statement[];
    expect(isAllowed(reconcile, createAccelerator)).toBe(true);
    const sweep = gaActions(elbv2PolicyStatements({ ...options, globalAccelerator: true }, 'sweep'));
    expect(sweep).toContain('globalaccelerator:DeleteAccelerator');
    expect(sweep).not.toContain('globalaccelerator:CreateAccelerator');
    expect(gaActions(elbv2PolicyStatements({ ...options, globalAccelerator: true }, 'resync'))).toEqual([]);
  });
});
