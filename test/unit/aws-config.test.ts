import { describe, expect, it } from 'vitest';
import { ProviderConfigError } from '../../lib/errors.js';
import { silentLogger } from '../../lib/log/logger.js';
import { createElbv2Client, DEFAULT_HEALTH_CHECK, parseAwsConfig } from '../../lib/providers/aws/config.js';
import { createAwsProvider } from '../../lib/providers/aws/index.js';
import { MemoryKube } from '../support/memory-kube.js';

const minimalYaml = `
region: eu-west-1
vpc:
  id: vpc-123
  cidrs: [10.0.0.0/16]
subnets: [subnet-a, subnet-b]
ownerId: karmada-prod
`;

describe('Function: parseAwsConfig', () => {
  it('applies the defaults (scheme internal, LBC health check, 5 attempts, records beside the locks)', async () => {
    expect(await parseAwsConfig(minimalYaml)).toStrictEqual({
      region: 'eu-west-1',
      vpc: { id: 'vpc-123', cidrs: ['10.0.0.0/16'] },
      subnets: ['subnet-a', 'subnet-b'],
      scheme: 'internal',
      ownerId: 'karmada-prod',
      recordNamespace: 'multicluster-cloud-provider-locks',
      defaultTags: {},
      healthCheck: DEFAULT_HEALTH_CHECK,
      maxAttempts: 5,
      dryRun: false,
    });
  });

  it("reads the VPC's IPv6 blocks; each must be an IPv6 CIDR", async () => {
    const withV6 = (cidrs: string) =>
      minimalYaml.replace('cidrs: [10.0.0.0/16]', `cidrs: [10.0.0.0/16]\n  ipv6Cidrs: ${cidrs}`);
    expect((await parseAwsConfig(withV6("['2600:1f18:e1b5:5000::/56', 'fd00::/8']"))).vpc).toStrictEqual({
      id: 'vpc-123',
      cidrs: ['10.0.0.0/16'],
      ipv6Cidrs: ['2600:1f18:e1b5:5000::/56', 'fd00::/8'],
    });
    for (const bad of ['[10.0.0.0/16]', "['2600::/129']", "['2600:::1::/56']", "['1:2:3:4:5:6:7:8:9/64']"]) {
      await expect(parseAwsConfig(withV6(bad)), bad).rejects.toThrow(
        /vpc\.ipv6Cidrs\.0: must be a valid IPv6 CIDR like 2600:1f18:e1b5:5000::\/56/,
      );
    }
  });

  it('reads the record namespace, which must be a DNS label', async () => {
    expect((await parseAwsConfig(`${minimalYaml}recordNamespace: karmada-system\n`)).recordNamespace).toBe(
      'karmada-system',
    );
    await expect(parseAwsConfig(`${minimalYaml}recordNamespace: Not_A_Label\n`)).rejects.toThrow(
      /recordNamespace/,
    );
  });

  it('reads the calls-per-second cap and dry-run switch, and rejects a zero cap', async () => {
    expect(await parseAwsConfig(`${minimalYaml}maxCallsPerSecond: 5\ndryRun: true\n`)).toMatchObject({
      maxCallsPerSecond: 5,
      dryRun: true,
    });
    await expect(parseAwsConfig(`${minimalYaml}maxCallsPerSecond: 0\n`)).rejects.toThrow(/maxCallsPerSecond/);
    await expect(
      parseAwsConfig(`${minimalYaml}defaultTags: { multicluster.karmada.io/fingerprint: x }\n`),
    ).rejects.toThrow(/reserved tag key/);
  });

  it('without subnets and without vpc.cidrs, the load balancers subnets are left to discovery', async () => {
    const cfg = await parseAwsConfig(
      minimalYaml.replace('subnets: [subnet-a, subnet-b]\n', '').replace('  cidrs: [10.0.0.0/16]\n', ''),
    );
    expect(cfg.vpc).toStrictEqual({ id: 'vpc-123' });
    expect(cfg).not.toHaveProperty('subnets');
  });

  it('reads JSON as well, and merges health-check overrides over the defaults', async () => {
    const cfg = await parseAwsConfig(
      JSON.stringify({
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:4566',
        vpc: { id: 'vpc-1', cidrs: ['10.0.0.0/8'] },
        subnets: ['s'],
        securityGroups: ['sg-1'],
        scheme: 'internet-facing',
        ownerId: 'a',
        defaultTags: { team: 'x' },
        healthCheck: { path: '/healthz', intervalSeconds: 30 },
        maxAttempts: 3,
      }),
    );
    expect(cfg).toMatchObject({
      endpoint: 'http://127.0.0.1:4566',
      securityGroups: ['sg-1'],
      scheme: 'internet-facing',
      defaultTags: { team: 'x' },
      healthCheck: { ...DEFAULT_HEALTH_CHECK, path: '/healthz', intervalSeconds: 30 },
      maxAttempts: 3,
    });
  });

  it.each([
    { name: 'no file', text: undefined, message: /needs a configuration file/ },
    { name: 'not YAML', text: 'a: [', message: /not valid YAML/ },
    {
      name: 'missing ownerId',
      text: minimalYaml.replace('ownerId: karmada-prod', ''),
      message: /ownerId: required/,
    },
    {
      name: 'ownerId not a DNS label',
      text: minimalYaml.replace('karmada-prod', 'Karmada_Prod'),
      message: /ownerId: must be a DNS label/,
    },
    { name: 'bad CIDR', text: minimalYaml.replace('10.0.0.0/16', '10.0.0.0/99'), message: /vpc\.cidrs\.0/ },
    {
      name: 'bad scheme',
      text: `${minimalYaml}scheme: public\n`,
      message: /scheme: must be one of "internal", "internet-facing"/,
    },
    { name: 'unknown field', text: `${minimalYaml}regoin: x\n`, message: /unknown field\(s\) regoin/ },
    {
      name: 'bad health-check interval',
      text: `${minimalYaml}healthCheck: { intervalSeconds: 1 }\n`,
      message: /healthCheck\.intervalSeconds/,
    },
    {
      name: 'reserved default tag',
      text: `${minimalYaml}defaultTags: { multicluster.karmada.io/owner: x }\n`,
      message: /defaultTags\.multicluster\.karmada\.io\/owner: reserved/,
    },
    { name: 'empty subnets', text: minimalYaml.replace('[subnet-a, subnet-b]', '[]'), message: /subnets/ },
    {
      // Discovery needs EC2's subnets, which the CIDR override keeps out.
      name: 'no subnets with vpc.cidrs',
      text: minimalYaml.replace('subnets: [subnet-a, subnet-b]\n', ''),
      message: /subnets: required with vpc\.cidrs \(subnet discovery reads the VPC's subnets from EC2/,
    },
  ])('rejects $name with ProviderConfigError naming the field', async ({ text, message }) => {
    await expect(parseAwsConfig(text)).rejects.toThrow(ProviderConfigError);
    await expect(parseAwsConfig(text)).rejects.toThrow(message);
  });
});

describe('Function: createElbv2Client', () => {
  it('uses adaptive retry with the configured attempts', async () => {
    const client = createElbv2Client({ ...(await parseAwsConfig(minimalYaml)), maxAttempts: 3 });
    expect(await client.config.maxAttempts()).toBe(3);
    expect(client.config.retryMode).toBe('adaptive');
    expect(((await client.config.retryStrategy()) as { mode?: string }).mode).toBe('adaptive');
    client.destroy();
  });
});

describe('Function: createAwsProvider', () => {
  const deps = { kube: new MemoryKube(), logger: silentLogger };

  it('builds the aws provider: ingress and MCS supported', async () => {
    const provider = await createAwsProvider(minimalYaml, deps);
    expect(provider.providerName()).toBe('aws');
    expect(provider.loadBalancer()).toBeDefined();
    expect(provider.mcsLoadBalancer()).toBeDefined();
  });

  it('fails with ProviderConfigError on a bad file', async () => {
    await expect(createAwsProvider('region: x', deps)).rejects.toThrow(ProviderConfigError);
  });
});
