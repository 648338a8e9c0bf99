/**
 * The table of LBC's Ingress keys: what it marks supported is exactly what the model reads, the
 * README shows it as it is, and an object's keys the provider does not act on are all reported.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALB_KEYS, NLB_KEYS } from '../../lib/providers/aws/model/annotations/keys.js';
import {
  ALB_PREFIX,
  INGRESS_KEY_FAMILY,
  keyPattern,
  LBC_INGRESS_KEYS,
  lbcKeyOf,
  SERVICE_KEY_FAMILY,
  SERVICE_PREFIX,
} from '../../lib/providers/aws/model/annotations/lbc-keys.js';
import {
  ACTED_INGRESS_KEYS,
  ACTED_SERVICE_KEYS,
  unactedKeys,
} from '../../lib/providers/aws/model/annotations/acted-keys.js';
import { ignoredKeys } from '../../lib/providers/aws/model/annotations/ignored-keys.js';
import {
  ignoredKeysWarning,
  UNSUPPORTED_ANNOTATION,
  wordWarnings,
} from '../../lib/providers/aws/model/annotations/unknown-keys.js';
import { README, withKeyTables } from '../../scripts/gen-readme-keys.js';

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Object.values(value as Record<string, unknown>).flatMap(leaves);
}

/** A templated key's literal head (`actions.` for `actions.${action-name}`). */
const templateHead = (key: string) => key.slice(0, key.indexOf('${'));

describe.each([
  { family: INGRESS_KEY_FAMILY, read: ALB_KEYS, name: 'Ingress keys (ALB_KEYS)' },
  { family: SERVICE_KEY_FAMILY, read: NLB_KEYS, name: 'Service keys (NLB_KEYS)' },
])('LBC $name', ({ family, read }) => {
  const supported = family.keys.filter((k) => k.support.status === 'supported');

  it('marks supported exactly the keys the model reads (templated ones by their head)', () => {
    const spelled = supported.map((k) => (k.key.includes('${') ? templateHead(k.key) : k.key));
    const readKeys = leaves(read).map((k) => {
      expect(k.startsWith(family.prefix), k).toBe(true);
      // A templated key may be read under LBC's own spelling (`listener-attributes.${Protocol}-${Port}`).
      const name = k.slice(family.prefix.length);
      return name.includes('${') ? templateHead(name) : name;
    });
    expect([...new Set(readKeys)].sort()).toStrictEqual([...new Set(spelled)].sort());
  });

  it('has each key once, and every key name lower-case as LBC spells them', () => {
    const names = family.keys.map((k) => k.key);
    expect(new Set(names).size).toBe(names.length);
    // `${Protocol}-${Port}` keeps LBC's own capitals inside the placeholder only.
    for (const n of names) expect(n.replace(/\$\{[^}]+\}/g, '')).toMatch(/^[a-z0-9.-]+$/);
  });

  it('is what the model tells from the keys it reads: an instance of each key is ignored unless supported', () => {
    const acted = family === INGRESS_KEY_FAMILY ? ACTED_INGRESS_KEYS : ACTED_SERVICE_KEYS;
    for (const k of family.keys) {
      const key = `${family.prefix}${k.key.replace(/\$\{[^}]+\}/g, 'x-1')}`;
      expect(unactedKeys({ [key]: 'v' }, acted), key).toStrictEqual(
        k.support.status === 'supported' ? [] : [key],
      );
    }
  });

  it('gives every key that is not supported a reason', () => {
    for (const k of family.keys) {
      if (k.support.status !== 'supported') expect(k.support.why.length).toBeGreaterThan(20);
    }
  });
});

describe('keyPattern', () => {
  it('matches templated keys on one path segment, and nothing else', () => {
    expect(keyPattern('actions.${action-name}').test('actions.weighted-routing')).toBe(true);
    expect(keyPattern('actions.${action-name}').test('actions.')).toBe(false);
    expect(keyPattern('actions.${action-name}').test('actions.a/b')).toBe(false);
    expect(keyPattern('listener-attributes.${Protocol}-${Port}').test('listener-attributes.HTTPS-443')).toBe(
      true,
    );
    expect(keyPattern('ssl-policy').test('ssl-policyx')).toBe(false);
    expect(keyPattern('group.name').test('groupxname')).toBe(false);
    expect(lbcKeyOf('target-control-port.svc.80')?.key).toBe(
      'target-control-port.${serviceName}.${servicePort}',
    );
  });
});

describe("the README's key tables", () => {
  it('is what scripts/gen-readme-keys.ts generates (run `npx tsx scripts/gen-readme-keys.ts`)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(withKeyTables(readme)).toBe(readme);
  });
});

describe('ignoredKeys', () => {
  const notSupported = LBC_INGRESS_KEYS.find((k) => k.support.status === 'unsupported');
  const notApplicable = LBC_INGRESS_KEYS.find((k) => k.support.status === 'not-applicable');
  const A = (k: string) => `${ALB_PREFIX}${k}`;

  it('reports unknown, unsupported and not-applicable keys with their reason, in key order', () => {
    if (!notSupported || notSupported.support.status !== 'unsupported') throw new Error('no unsupported key');
    if (!notApplicable || notApplicable.support.status !== 'not-applicable') throw new Error('no n/a key');
    const ignored = ignoredKeys({
      [A('scheme')]: 'internal',
      [A('sheme')]: 'internet-facing',
      [A(notSupported.key.replace(/\$\{[^}]+\}/g, 'x'))]: 'v',
      [A(notApplicable.key.replace(/\$\{[^}]+\}/g, 'x'))]: 'v',
      'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internal',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    });
    const expected = [
      `${A('sheme')} (not a key AWS Load Balancer Controller documents: check its spelling)`,
      `${A(notSupported.key.replace(/\$\{[^}]+\}/g, 'x'))} (not supported yet: ${notSupported.support.why})`,
      `${A(notApplicable.key.replace(/\$\{[^}]+\}/g, 'x'))} (not applicable here: ${notApplicable.support.why})`,
    ].sort();
    expect(ignored).toStrictEqual(expected);
  });

  it('reports nothing for an object whose keys are all acted on, or that has none', () => {
    const obj = (annotations?: Record<string, string>) => ({
      metadata: { namespace: 'n', name: 'a', annotations },
    });
    expect(ignoredKeysWarning(obj({ [A('scheme')]: 'internal', [A('ssl-policy')]: 'x' }))).toStrictEqual([]);
    expect(ignoredKeysWarning(obj(undefined))).toStrictEqual([]);
  });

  it('makes one warning, about the object, naming all of its ignored keys; reported, each gets its reason', async () => {
    const warnings = ignoredKeysWarning({
      metadata: { namespace: 'team-a', name: 'shop', annotations: { [A('sheme')]: 'a', [A('shceme')]: 'b' } },
    });
    const [warning, ...rest] = warnings;
    expect(rest).toStrictEqual([]);
    expect(warning?.reason).toBe(UNSUPPORTED_ANNOTATION);
    expect(warning?.object).toStrictEqual({ namespace: 'team-a', name: 'shop' });
    expect(warning?.message).toBe(`annotations ignored by the aws provider: ${A('shceme')}; ${A('sheme')}`);
    const failures: unknown[] = [];
    const [worded, ...none] = await wordWarnings(warnings, (err) => failures.push(err));
    expect(none).toStrictEqual([]);
    expect(failures).toStrictEqual([]);
    expect(worded).toStrictEqual({
      reason: UNSUPPORTED_ANNOTATION,
      object: { namespace: 'team-a', name: 'shop' },
      message: `annotations ignored by the aws provider: ${A('shceme')} (not a key AWS Load Balancer Controller documents: check its spelling); ${A('sheme')} (not a key AWS Load Balancer Controller documents: check its spelling)`,
    });
  });

  it('leaves other warnings as they are, and loads nothing for them', async () => {
    const other = {
      reason: 'UnsupportedTargetType',
      message: 'instance targets',
      object: { namespace: 'n', name: 'a' },
    };
    expect(await wordWarnings([other], () => undefined)).toStrictEqual([other]);
  });
});

describe('ignoredKeys on a MultiClusterService', () => {
  const S = (k: string) => `${SERVICE_PREFIX}${k}`;

  it("claims only aws-load-balancer- keys as LBC's, and reports deprecated ones with what to use", () => {
    expect(
      ignoredKeys(
        {
          [S('aws-load-balancer-scheme')]: 'internal',
          [S('aws-load-balancer-shceme')]: 'internal',
          [S('aws-load-balancer-internal')]: 'true',
          [S('azure-load-balancer-internal')]: 'true',
          [`${ALB_PREFIX}scheme`]: 'internal',
        },
        'service',
      ),
    ).toStrictEqual([
      `${S('aws-load-balancer-internal')} (not supported yet: deprecated by LBC in favour of \`aws-load-balancer-scheme\`, which is supported: use that)`,
      `${S('aws-load-balancer-shceme')} (not a key AWS Load Balancer Controller documents: check its spelling)`,
    ]);
  });
});
