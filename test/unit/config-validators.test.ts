import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../lib/errors.js';
import { parseAwsConfig } from '../../lib/providers/aws/config.js';
import { parseFakeConfig } from '../../lib/providers/fake/config.js';
import {
  CONFIG_VALIDATORS,
  generateConfigValidator,
  type ConfigValidatorModule,
} from '../../scripts/gen-validators.js';

const minimal = `region: eu-west-1
vpc: { id: vpc-1, cidrs: [10.0.0.0/16] }
subnets: [subnet-a]
ownerId: karmada-prod
`;

const awsError = async (text: string) => {
  try {
    await parseAwsConfig(text);
  } catch (err) {
    expect(err).toBeInstanceOf(ProviderConfigError);
    return (err as Error).message;
  }
  throw new Error('expected the configuration to be refused');
};

describe('generated provider-configuration validators', () => {
  it('match what scripts/gen-validators.ts generates from the config schemas (run `npm run gen`)', () => {
    for (const module of Object.keys(CONFIG_VALIDATORS) as ConfigValidatorModule[]) {
      const { js, dts } = generateConfigValidator(module);
      const dir = new URL('../../lib/generated/', import.meta.url);
      expect(readFileSync(new URL(`${module}.js`, dir), 'utf8')).toBe(js);
      expect(readFileSync(new URL(`${module}.d.ts`, dir), 'utf8')).toBe(dts);
      expect(js).not.toMatch(/\bimport\b|\brequire\(/);
    }
  });
});

describe('Function: parseAwsConfig (schema errors, worded)', () => {
  it('fills the defaults the schema leaves out', async () => {
    const config = await parseAwsConfig(minimal);
    expect(config).toMatchObject({ scheme: 'internal', maxAttempts: 5, dryRun: false, defaultTags: {} });
  });

  it('names every faulty field at once', async () => {
    expect(await awsError(`${minimal}maxAttempts: 0\nscheme: public\nregoin: x\nfoo: 1\n`)).toBe(
      'invalid aws provider configuration: (root): unknown field(s) regoin; (root): unknown field(s) foo; ' +
        'scheme: must be one of "internal", "internet-facing"; maxAttempts: must be > 0',
    );
  });

  it('says what a union, a pattern and an URL mean', async () => {
    expect(await awsError(`${minimal}healthCheck: { port: http, path: health }\n`)).toBe(
      'invalid aws provider configuration: healthCheck.path: must start with "/"; ' +
        'healthCheck.port: must be "traffic-port" or a port number',
    );
    expect(await awsError(`${minimal}endpoint: not a url\n`)).toBe(
      'invalid aws provider configuration: endpoint: must be a valid url',
    );
    expect(await awsError(minimal.replace('[10.0.0.0/16]', '[10.0.0.0/16, 10.1.0.0/33]'))).toBe(
      'invalid aws provider configuration: vpc.cidrs.1: must be a valid cidrv4',
    );
  });

  it('names a tag key that is too long, and a missing required field', async () => {
    expect(await awsError(`${minimal}defaultTags: { ${'k'.repeat(129)}: v }\n`)).toBe(
      `invalid aws provider configuration: defaultTags.${'k'.repeat(129)}: must be at most 128 characters`,
    );
    expect(await awsError(minimal.replace('vpc: { id: vpc-1, ', 'vpc: { '))).toBe(
      'invalid aws provider configuration: vpc.id: required',
    );
  });
});

describe('Function: parseAwsConfig (the tenant policy, validated by its own validator)', () => {
  it('names the policy’s faulty fields from the file’s root, after the rest of the file’s', async () => {
    const policy = [
      'tenantPolicy:',
      '  rules:',
      '    - ingressClasses: [""]',
      '      namespaceSelector: { matchExpressions: [{ key: team, operator: Like }] }',
      '      maxLoadBalancersPerNamespace: -1',
      '      colour: red',
      '',
    ].join('\n');
    expect(await awsError(`${minimal}maxAttempts: 0\n${policy}`)).toBe(
      'invalid aws provider configuration: maxAttempts: must be > 0; ' +
        'tenantPolicy.rules.0.name: required; tenantPolicy.rules.0: unknown field(s) colour; ' +
        'tenantPolicy.rules.0.ingressClasses.0: must be at least 1 character(s); ' +
        'tenantPolicy.rules.0.namespaceSelector.matchExpressions.0.operator: ' +
        'must be one of "In", "NotIn", "Exists", "DoesNotExist"; ' +
        'tenantPolicy.rules.0.maxLoadBalancersPerNamespace: must be >= 0',
    );
    expect(await awsError(`${minimal}tenantPolicy: [rules]\n`)).toBe(
      'invalid aws provider configuration: tenantPolicy: expected object',
    );
    expect(await awsError(`${minimal}tenantPolicy: {}\n`)).toBe(
      'invalid aws provider configuration: tenantPolicy.rules: required',
    );
  });

  it('keeps a valid policy as written', async () => {
    const config = await parseAwsConfig(
      `${minimal}tenantPolicy: { rules: [{ name: pin, schemes: [internal], tags: { deny: ['cost-*'] } }] }\n`,
    );
    expect(config.tenantPolicy).toEqual({
      rules: [{ name: 'pin', schemes: ['internal'], tags: { deny: ['cost-*'] } }],
    });
  });

  it('shared IngressGroups need an LBC group name and at least one namespace', async () => {
    expect(
      await awsError(
        `${minimal}tenantPolicy: { rules: [], sharedGroups: [{ name: Shop, namespaces: [] }] }\n`,
      ),
    ).toMatch(/tenantPolicy\.sharedGroups\.0\.name: .*tenantPolicy\.sharedGroups\.0\.namespaces: /);
    const config = await parseAwsConfig(
      `${minimal}tenantPolicy: { rules: [], sharedGroups: [{ name: shop, namespaces: [a, b] }] }\n`,
    );
    expect(config.tenantPolicy?.sharedGroups).toEqual([{ name: 'shop', namespaces: ['a', 'b'] }]);
  });
});

describe('Function: parseFakeConfig (schema errors, worded)', () => {
  it('names the first faulty field', () => {
    expect(() => parseFakeConfig('failures: { explode: { next: 1 } }')).toThrow(
      'fake provider config: failures.explode: must be one of "get", "create", "update", "delete"',
    );
    expect(() => parseFakeConfig('requestDelayMs: 1.5')).toThrow(
      'fake provider config: requestDelayMs: expected integer',
    );
  });

  it('accepts a full configuration as written', () => {
    const text =
      'requestDelayMs: 5\nseed: 7\nfailures: { create: { probability: 0.5, object: default/a } }\n';
    expect(parseFakeConfig(text)).toEqual({
      requestDelayMs: 5,
      seed: 7,
      failures: { create: { probability: 0.5, object: 'default/a' } },
    });
  });
});
