/**
 * Tag-on-create cannot take a resource over. Shield's CreateProtection and Global Accelerator's
 * CreateAccelerator with Tags are also authorised as `TagResource` on the new resource (the
 * Service Authorization Reference lists `shield:TagResource` and `globalaccelerator:TagResource`
 * among the permissions each of them needs). A statement that checks only the request's tags lets
 * a role tag *any* protection or accelerator as ours, another deployment's included, and then
 * delete it as its own. The tag-on-create statements require that the resource has no owner or
 * instance tag yet, and only the reconciling roles (which create) hold them: the sweep creates
 * nothing, and may only mark an accelerator that is already ours as retiring.
 */
import { describe, expect, it } from 'vitest';
import { RETIRING_TAG } from '../../lib/providers/aws/accelerator/types.js';
import { elbv2PolicyStatements, type Elbv2Access } from '../../lib/providers/aws/iam.js';
import { INSTANCE_TAG, OWNER_TAG, STACK_TAG } from '../../lib/providers/aws/tagging.js';
import { ACCOUNT, isAllowed, resolveCfn, type Request, type Statement } from './iam-eval.js';

const roles = (access: Elbv2Access) =>
  resolveCfn(
    elbv2PolicyStatements({ ownerId: 'team-a', instanceId: 'instance-a', globalAccelerator: true }, access),
    ACCOUNT,
  ) as Statement[];
const reconcile = roles('reconcile');
const sweep = roles('sweep');

const ACCELERATOR =
  'arn:aws:globalaccelerator::123456789012:accelerator/1234abcd-abcd-1234-abcd-1234abcd5678';
const PROTECTION = 'arn:aws:shield::123456789012:protection/a1b2c3d4-5678-90ab-cdef-EXAMPLE11111';

/** The tags a resource already has, as condition keys (none: a resource being created). */
const has = (tags: Record<string, string>) =>
  Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:ResourceTag/${k}`, v]));
/** A TagResource request adding `tags`. */
const adding = (tags: Record<string, string>) => ({
  'aws:TagKeys': Object.keys(tags),
  ...Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:RequestTag/${k}`, v])),
});
const OURS = { [OWNER_TAG]: 'team-a', [INSTANCE_TAG]: 'instance-a', [STACK_TAG]: 'mci/default/web' };
const THEIRS = { [OWNER_TAG]: 'team-b', [INSTANCE_TAG]: 'instance-b', [STACK_TAG]: 'mci/shop/web' };
/** Same owner ID, another Karmada (a second deployment given the same ownerId). */
const TWIN = { [OWNER_TAG]: 'team-a', [INSTANCE_TAG]: 'instance-b' };

const tag = (service: 'globalaccelerator' | 'shield', resource: string, context: Request['context']) => ({
  action: `${service}:TagResource`,
  resource,
  context,
});

describe('tag-on-create permissions allow no takeover', () => {
  it('another deployment’s accelerator cannot be tagged as ours, by any role', () => {
    for (const [name, statements] of [
      ['reconcile', reconcile],
      ['sweep', sweep],
    ] as const) {
      for (const existing of [THEIRS, TWIN]) {
        const request = tag('globalaccelerator', ACCELERATOR, { ...has(existing), ...adding(OURS) });
        expect(isAllowed(statements, request), `${name}: ${JSON.stringify(existing)}`).toBe(false);
      }
    }
    // …so the takeover's second step never finds it ours: deleting another's accelerator is denied.
    expect(
      isAllowed(reconcile, {
        action: 'globalaccelerator:DeleteAccelerator',
        resource: ACCELERATOR,
        context: has(THEIRS),
      }),
    ).toBe(false);
  });

  it('another deployment’s Shield protection cannot be tagged as ours', () => {
    for (const existing of [THEIRS, TWIN]) {
      const request = tag('shield', PROTECTION, { ...has(existing), ...adding(OURS) });
      expect(isAllowed(reconcile, request), JSON.stringify(existing)).toBe(false);
      expect(isAllowed(sweep, request), JSON.stringify(existing)).toBe(false);
    }
    expect(
      isAllowed(reconcile, { action: 'shield:DeleteProtection', resource: PROTECTION, context: has(THEIRS) }),
    ).toBe(false);
  });

  it('a resource that carries only the other half of an ownership (an instance tag) is not ours to claim', () => {
    const halfTagged = { [INSTANCE_TAG]: 'instance-b' };
    expect(
      isAllowed(reconcile, tag('globalaccelerator', ACCELERATOR, { ...has(halfTagged), ...adding(OURS) })),
    ).toBe(false);
    expect(isAllowed(reconcile, tag('shield', PROTECTION, { ...has(halfTagged), ...adding(OURS) }))).toBe(
      false,
    );
  });

  it('creating with our tags still works: the new resource has no tags yet', () => {
    expect(isAllowed(reconcile, tag('globalaccelerator', ACCELERATOR, adding(OURS)))).toBe(true);
    expect(isAllowed(reconcile, tag('shield', PROTECTION, adding(OURS)))).toBe(true);
    expect(
      isAllowed(reconcile, {
        action: 'globalaccelerator:CreateAccelerator',
        resource: '*',
        context: adding(OURS),
      }),
    ).toBe(true);
    expect(
      isAllowed(reconcile, {
        action: 'shield:CreateProtection',
        resource: PROTECTION,
        context: adding(OURS),
      }),
    ).toBe(true);
    // …and only with our tags: a create tagged as another deployment's is denied.
    expect(isAllowed(reconcile, tag('globalaccelerator', ACCELERATOR, adding(THEIRS)))).toBe(false);
    expect(isAllowed(reconcile, tag('shield', PROTECTION, adding(THEIRS)))).toBe(false);
  });

  it('the sweep, which creates nothing, holds no tag-on-create: it cannot tag an untagged accelerator', () => {
    expect(isAllowed(sweep, tag('globalaccelerator', ACCELERATOR, adding(OURS)))).toBe(false);
    expect(isAllowed(sweep, tag('shield', PROTECTION, adding(OURS)))).toBe(false);
    expect(sweep.flatMap((s) => [s.Action].flat())).not.toContain('shield:TagResource');
  });

  it('the sweep holds no TagResource at all: not even the retiring mark on an accelerator of ours', () => {
    const retiring = { [RETIRING_TAG]: '2026-01-01T00:00:00.000Z' };
    expect(
      isAllowed(sweep, tag('globalaccelerator', ACCELERATOR, { ...has(OURS), ...adding(retiring) })),
    ).toBe(false);
    expect(
      sweep
        .flatMap((s) => [s.Action].flat())
        .filter((a) => typeof a === 'string' && a.endsWith(':TagResource')),
    ).toEqual([]);
  });

  it('an accelerator of ours is retagged by the reconcile, never handed to another owner', () => {
    const owned = has(OURS);
    expect(
      isAllowed(reconcile, tag('globalaccelerator', ACCELERATOR, { ...owned, ...adding({ team: 'x' }) })),
    ).toBe(true);
    expect(
      isAllowed(
        reconcile,
        tag('globalaccelerator', ACCELERATOR, { ...owned, ...adding({ [OWNER_TAG]: 'team-b' }) }),
      ),
    ).toBe(false);
    expect(
      isAllowed(
        reconcile,
        tag('globalaccelerator', ACCELERATOR, { ...owned, ...adding({ [INSTANCE_TAG]: 'instance-b' }) }),
      ),
    ).toBe(false);
  });
});
