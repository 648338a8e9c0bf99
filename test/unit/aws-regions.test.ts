import { describe, expect, it } from 'vitest';
import {
  InProgressError,
  InvalidObjectError,
  ProviderConfigError,
  RetryLaterError,
} from '../../lib/errors.js';
import { findCause } from '../../lib/errors.js';
import type { EndpointSlice, MultiClusterIngress } from '../../lib/karmada/types.js';
import type { KubeObject } from '../../lib/kube/types.js';
import { silentLogger } from '../../lib/log/logger.js';
import type { ProviderContext } from '../../lib/provider/contract.js';
import { configuredRegions, parseAwsConfig, regionalConfig } from '../../lib/providers/aws/config.js';
import { KubeTargetRecords } from '../../lib/providers/aws/deploy/target-records.js';
import { elbv2PolicyStatements } from '../../lib/providers/aws/iam.js';
import {
  ClusterRegionSource,
  resolveClusterRegions,
} from '../../lib/providers/aws/regions/cluster-regions.js';
import { RegionMarkers } from '../../lib/providers/aws/regions/markers.js';
import { regionShare, unknownRegionMessage } from '../../lib/providers/aws/regions/partition.js';
import {
  describeOutcomes,
  inEveryRegion,
  RegionsFailedError,
  throwIfFailed,
} from '../../lib/providers/aws/regions/results.js';
import { Turns } from '../../lib/providers/aws/regions/turns.js';
import { RegionalDeploys } from '../../lib/providers/aws/regions/accelerator-seam.js';
import {
  MultiRegionProvider,
  UnknownClusters,
  type RegionalPart,
} from '../../lib/providers/aws/regions/provider.js';
import type { AwsProvider } from '../../lib/providers/aws/provider.js';
import { minimalIngress } from '../../dev/local/scenario.js';
import { Resources } from '../../lib/kube/resources.js';
import { MemoryKube } from '../support/memory-kube.js';

const twoRegions = `
ownerId: karmada-prod
regions:
  - region: us-east-1
    endpoint: http://127.0.0.1:4566
    vpc: { id: vpc-east, cidrs: [10.0.0.0/16] }
    subnets: [subnet-e1]
  - region: eu-west-1
    vpc: { id: vpc-west }
    scheme: internet-facing
    securityGroups: [sg-0123456789abcdef0]
clusterRegions: { member9: eu-west-1 }
`;

function clusterObject(name: string, region?: string): KubeObject {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    spec: { syncMode: 'Push', ...(region ? { region } : {}) },
  } as KubeObject;
}

function slice(cluster: string, name = 'abc'): EndpointSlice {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `imported-${cluster}-${name}`,
      namespace: 'default',
      annotations: { 'work.karmada.io/namespace': `karmada-es-${cluster}` },
    },
    addressType: 'IPv4',
    endpoints: [],
  } as EndpointSlice;
}

const ctx = (): ProviderContext => ({ signal: new AbortController().signal, logger: silentLogger });

describe('the regions configuration', () => {
  it('parses a list of Regions: the primary is also the top level, each Region with its defaults', async () => {
    const config = await parseAwsConfig(twoRegions);
    expect(config.region).toBe('us-east-1');
    expect(config.vpc).toEqual({ id: 'vpc-east', cidrs: ['10.0.0.0/16'] });
    expect(config.regions).toEqual([
      {
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:4566',
        vpc: { id: 'vpc-east', cidrs: ['10.0.0.0/16'] },
        subnets: ['subnet-e1'],
        scheme: 'internal',
      },
      {
        region: 'eu-west-1',
        vpc: { id: 'vpc-west' },
        securityGroups: ['sg-0123456789abcdef0'],
        scheme: 'internet-facing',
      },
    ]);
    expect(config.clusterRegions).toEqual({ member9: 'eu-west-1' });
    const west = regionalConfig(config, config.regions![1]!);
    expect(west).toMatchObject({ region: 'eu-west-1', vpc: { id: 'vpc-west' }, scheme: 'internet-facing' });
    // Nothing of the primary's Region leaks into another's part.
    expect(west.endpoint).toBeUndefined();
    expect(west.subnets).toBeUndefined();
    expect(west.regions).toBeUndefined();
    expect(west.ownerId).toBe('karmada-prod');
  });

  it('reads a one-Region file as a one-Region list, without a regions field', async () => {
    const config = await parseAwsConfig('region: eu-west-1\nvpc: { id: vpc-1 }\nownerId: x\n');
    expect(config.regions).toBeUndefined();
    expect(configuredRegions(config)).toEqual([
      { region: 'eu-west-1', vpc: { id: 'vpc-1' }, scheme: 'internal' },
    ]);
  });

  it.each([
    {
      name: 'a Region field beside regions',
      text: `${twoRegions}region: us-east-1\n`,
      message: /region: not with regions/,
    },
    {
      name: 'a Region listed twice',
      text: twoRegions.replace('region: eu-west-1', 'region: us-east-1'),
      message: /regions\.1\.region: us-east-1 is listed twice/,
    },
    {
      name: 'an override to an unconfigured Region',
      text: twoRegions.replace('member9: eu-west-1', 'member9: ap-south-1'),
      message: /clusterRegions\.member9: ap-south-1 is not one of the configured regions/,
    },
    {
      name: 'clusterRegions without regions',
      text: 'region: eu-west-1\nvpc: { id: vpc-1 }\nownerId: x\nclusterRegions: { a: eu-west-1 }\n',
      message: /clusterRegions: only with regions/,
    },
    { name: 'neither region nor regions', text: 'ownerId: x\nvpc: { id: v }\n', message: /region: required/ },
    {
      name: 'a Region without a VPC',
      text: twoRegions.replace('    vpc: { id: vpc-west }\n', ''),
      message: /regions\.1\.vpc: required/,
    },
    {
      name: 'a Region endpoint that is not a URL',
      text: twoRegions.replace('http://127.0.0.1:4566', 'not a url'),
      message: /regions\.0\.endpoint: must be a valid url/,
    },
    {
      name: 'a Region with vpc.cidrs and no subnets',
      text: twoRegions.replace('    subnets: [subnet-e1]\n', ''),
      message: /regions\.0\.subnets: required with regions\.0\.vpc\.cidrs/,
    },
    { name: 'an empty list', text: 'ownerId: x\nregions: []\n', message: /regions: needs at least 1 item/ },
  ])('rejects $name, naming the field', async ({ text, message }) => {
    await expect(parseAwsConfig(text)).rejects.toThrow(ProviderConfigError);
    await expect(parseAwsConfig(text)).rejects.toThrow(message);
  });
});

describe('Function: resolveClusterRegions', () => {
  const map = resolveClusterRegions(
    [
      clusterObject('east', 'us-east-1') as never,
      clusterObject('bare') as never,
      clusterObject('far', 'ap-south-1') as never,
      clusterObject('moved', 'us-east-1') as never,
    ],
    { moved: 'eu-west-1', ghost: 'us-east-1' },
    ['us-east-1', 'eu-west-1'],
  );

  it('takes spec.region, with the override over it (even for a cluster without a Cluster object)', () => {
    expect(map.regionOf('east')).toBe('us-east-1');
    expect(map.regionOf('moved')).toBe('eu-west-1');
    expect(map.regionOf('ghost')).toBe('us-east-1');
  });

  it('says why a cluster has no configured Region, never guessing one', () => {
    expect(map.regionOf('bare')).toBeUndefined();
    expect(map.unknown('bare')).toEqual({ cluster: 'bare', why: 'no-region' });
    expect(map.unknown('far')).toEqual({ cluster: 'far', why: 'not-configured', region: 'ap-south-1' });
    expect(map.unknown('nowhere')).toEqual({ cluster: 'nowhere', why: 'no-cluster' });
    expect(map.unknown('east')).toBeUndefined();
    expect(unknownRegionMessage({ cluster: 'far', why: 'not-configured', region: 'ap-south-1' })).toContain(
      'cluster far is in Region ap-south-1, which the provider configuration’s regions do not list'.replace(
        '’',
        "'",
      ),
    );
  });
});

describe('Function: regionShare', () => {
  const map = resolveClusterRegions(
    [clusterObject('east', 'us-east-1') as never, clusterObject('west', 'eu-west-1') as never],
    undefined,
    ['us-east-1', 'eu-west-1', 'ap-south-1'],
  );
  const slices = [slice('east'), slice('west'), slice('east', 'def'), slice('lost')];

  it('gives each Region the slices of its clusters, and the unknown clusters to report', () => {
    const east = regionShare(slices, map, 'us-east-1', true);
    expect(east.slices.map((s) => s.metadata.name)).toEqual(['imported-east-abc', 'imported-east-def']);
    expect(east.serves).toBe(true);
    expect(east.unknown).toEqual([{ cluster: 'lost', why: 'no-cluster' }]);
    const west = regionShare(slices, map, 'eu-west-1', false);
    expect(west.slices.map((s) => s.metadata.name)).toEqual(['imported-west-abc']);
    expect(regionShare(slices, map, 'ap-south-1', false)).toMatchObject({ slices: [], serves: false });
    // What cluster weights may name and this Region's load balancer never weighs.
    expect(east.elsewhere).toEqual(new Set(['west', 'lost']));
    expect(regionShare([slice('east')], map, 'us-east-1', true, ['east', 'west', 'x']).elsewhere).toEqual(
      new Set(['west', 'x']),
    );
  });

  it('lets only the primary Region serve an object none of whose clusters is in a configured Region', () => {
    expect(regionShare([slice('lost')], map, 'us-east-1', true)).toMatchObject({ slices: [], serves: true });
    expect(regionShare([], map, 'us-east-1', true).serves).toBe(true);
    expect(regionShare([], map, 'eu-west-1', false).serves).toBe(false);
    // Once a cluster is somewhere, the primary serves only if it is there.
    expect(regionShare([slice('west')], map, 'us-east-1', true).serves).toBe(false);
  });
});

describe('per-Region results', () => {
  const throttled = new RetryLaterError('throttled', { reason: 'Throttled' });

  it('names every Region with its outcome', () => {
    expect(
      describeOutcomes([
        { region: 'us-east-1', ok: true, status: 'x' },
        { region: 'eu-west-1', ok: false, error: new Error('Service is unavailable') },
        { region: 'ap-south-1', ok: true, status: undefined },
      ]),
    ).toBe('us-east-1: ok; eu-west-1: failed: Service is unavailable; ap-south-1: no clusters');
    // Waiting on the cloud is not a failure (the reconcile is still retried).
    const deploying = new InProgressError('dial not deployed yet', { reason: 'AcceleratorDialDeploying' });
    expect(describeOutcomes([{ region: 'eu-west-1', ok: false, error: deploying }])).toBe(
      'eu-west-1: waiting: dial not deployed yet',
    );
  });

  it('fails when a Region failed, its cause the first failure (so a throttled Region is retried as such)', () => {
    expect(() => throwIfFailed([{ region: 'a', ok: true, status: 1 }])).not.toThrow();
    let thrown: unknown;
    try {
      throwIfFailed([
        { region: 'a', ok: true, status: 1 },
        { region: 'b', ok: false, error: throttled },
        { region: 'c', ok: false, error: new InvalidObjectError('bad') },
      ]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RegionsFailedError);
    expect((thrown as Error).message).toBe('a: ok; b: failed: throttled; c: failed: bad');
    expect(findCause(thrown, RetryLaterError)?.reason).toBe('Throttled');
  });
});

describe('Class: ClusterRegionSource', () => {
  it('lists the Clusters once per reconcile, and keeps the live answer a few seconds outside one', async () => {
    const kube = new MemoryKube([clusterObject('east', 'us-east-1')]);
    let now = 0;
    const source = new ClusterRegionSource(kube, undefined, ['us-east-1'], () => now);
    const lists = () => kube.calls.filter((c) => c.verb === 'list' && c.kind === 'Cluster').length;
    const reconcile = ctx();
    await source.read(reconcile);
    await source.read(reconcile);
    expect(lists()).toBe(1);
    // Another reconcile sees a move at once.
    await kube.update(Resources.Cluster, {
      ...clusterObject('east', 'eu-west-1'),
      metadata: { name: 'east' },
    });
    expect((await source.read(ctx())).regionOf('east')).toBeUndefined();
    expect(lists()).toBe(2);
    await source.read(undefined);
    await source.read(undefined);
    expect(lists()).toBe(3);
    now += 6_000;
    await source.read(undefined);
    expect(lists()).toBe(4);
  });
});

describe('Class: RegionMarkers', () => {
  it('marks a Region before it is built and unmarks it after it is deleted, one LIST per stack and reconcile', async () => {
    const kube = new MemoryKube();
    const markers = new RegionMarkers(kube, 'locks', 'owner');
    const reconcile = ctx();
    expect(await markers.regions(reconcile, 'mci/default/web')).toEqual(new Set());
    await markers.add(reconcile, 'mci/default/web', 'eu-west-1');
    await markers.add(reconcile, 'mci/default/web', 'eu-west-1');
    await markers.add(reconcile, 'mcs/default/web', 'us-east-1');
    expect(await markers.regions(reconcile, 'mci/default/web')).toEqual(new Set(['eu-west-1']));
    expect(kube.calls.filter((c) => c.verb === 'create')).toHaveLength(2);
    // Another reconcile reads what was written; another stack's marker is not this one's.
    expect(await markers.regions(ctx(), 'mci/default/web')).toEqual(new Set(['eu-west-1']));
    await markers.remove(reconcile, 'mci/default/web', 'eu-west-1');
    expect(await markers.regions(reconcile, 'mci/default/web')).toEqual(new Set());
    expect(await markers.regions(ctx(), 'mci/default/web')).toEqual(new Set());
    expect(await markers.regions(ctx(), 'mcs/default/web')).toEqual(new Set(['us-east-1']));
  });
});

describe('regional targets records', () => {
  it('keeps the primary Region’s records as a one-Region provider’s, and every other Region’s apart', async () => {
    const kube = new MemoryKube();
    const primary = new KubeTargetRecords(kube, 'locks', 'owner', silentLogger);
    const west = new KubeTargetRecords(kube, 'locks', 'owner', silentLogger, 'eu-west-1');
    expect(primary.nameOf('mci/default/web')).toBe(
      new KubeTargetRecords(kube, 'locks', 'owner', silentLogger).nameOf('mci/default/web'),
    );
    expect(west.nameOf('mci/default/web')).not.toBe(primary.nameOf('mci/default/web'));
    await primary.write('mci/default/web', { fingerprint: 'p', groups: {} });
    await west.write('mci/default/web', { fingerprint: 'w', groups: {} });
    expect((await primary.read('mci/default/web'))?.fingerprint).toBe('p');
    expect((await west.read('mci/default/web'))?.fingerprint).toBe('w');
    expect([...(await primary.list()).values()].map((r) => r.fingerprint)).toEqual(['p']);
    expect([...(await west.list()).values()].map((r) => r.fingerprint)).toEqual(['w']);
  });
});

describe('IAM for several Regions', () => {
  it('writes each regional ARN once per configured Region; "*" and Region-less ARNs as they are', () => {
    const one = elbv2PolicyStatements('o');
    const two = elbv2PolicyStatements({ ownerId: 'o', regions: ['us-east-1', 'eu-west-1'] });
    expect(two.map((s) => s.Sid)).toEqual(one.map((s) => s.Sid));
    const create = two.find((s) => s.Sid === 'ElbV2CreateLoadBalancerTaggedAsOurs')!;
    expect(create.Resource).toEqual(
      ['loadbalancer/app/*/*', 'loadbalancer/net/*/*'].flatMap((rest) =>
        ['us-east-1', 'eu-west-1'].map((region) => ({
          'Fn::Sub': `arn:\${AWS::Partition}:elasticloadbalancing:${region}:\${AWS::AccountId}:${rest}`,
        })),
      ),
    );
    expect(JSON.stringify(two)).not.toContain('${AWS::Region}');
    expect(two.find((s) => s.Sid === 'ElbV2Describe')!.Resource).toEqual(['*']);
    const shield = two.find((s) => s.Sid === 'ShieldDeleteOwnedProtections')!;
    expect(shield.Resource).toEqual(one.find((s) => s.Sid === 'ShieldDeleteOwnedProtections')!.Resource);
    const groups = two.find((s) => s.Sid === 'Ec2ChangeOwnedSecurityGroups')!;
    expect(groups.Resource.map((r) => (r === '*' ? r : r['Fn::Sub']))).toEqual([
      'arn:${AWS::Partition}:ec2:us-east-1:${AWS::AccountId}:security-group/*',
      'arn:${AWS::Partition}:ec2:eu-west-1:${AWS::AccountId}:security-group/*',
    ]);
  });
});

describe('inEveryRegion', () => {
  it('runs every Region at once and gives the outcomes in the Regions’ order, a failure its own', async () => {
    const started: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    const outcomes = inEveryRegion(
      [{ region: 'us-east-1' }, { region: 'eu-west-1' }, { region: 'ap-south-1' }],
      async ({ region }) => {
        started.push(region);
        if (region === 'us-east-1') await slow;
        if (region === 'ap-south-1') throw new RetryLaterError('throttled', { retryAfterSeconds: 5 });
        return region.toUpperCase();
      },
    );
    // Every Region has started while the first still waits.
    await Promise.resolve();
    expect(started).toEqual(['us-east-1', 'eu-west-1', 'ap-south-1']);
    release();
    const done = await outcomes;
    expect(done.map((o) => [o.region, o.ok ? o.status : 'failed'])).toEqual([
      ['us-east-1', 'US-EAST-1'],
      ['eu-west-1', 'EU-WEST-1'],
      ['ap-south-1', 'failed'],
    ]);
  });
});

describe('Turns', () => {
  it('runs one turn of a key at a time, in the order they were taken, and a failed turn passes on', async () => {
    const turns = new Turns();
    const c = ctx();
    const log: string[] = [];
    let releaseFirst!: () => void;
    const first = turns.take(c, 'stack', async () => {
      log.push('first starts');
      await new Promise<void>((r) => (releaseFirst = r));
      log.push('first ends');
      throw new Error('first failed');
    });
    const second = turns.take(c, 'stack', () => {
      log.push('second');
      return Promise.resolve(2);
    });
    // Another stack, or another reconcile, does not wait.
    const other = turns.take(c, 'other', () => Promise.resolve('other'));
    const elsewhere = turns.take(ctx(), 'stack', () => Promise.resolve('elsewhere'));
    expect(await other).toBe('other');
    expect(await elsewhere).toBe('elsewhere');
    expect(log).toEqual(['first starts']);
    releaseFirst();
    await expect(first).rejects.toThrow('first failed');
    expect(await second).toBe(2);
    expect(log).toEqual(['first starts', 'first ends', 'second']);
  });
});

describe('the orchestrator over concurrent Regions', () => {
  /** A Region's part whose reconcile gives its condition line once `ready` resolves. */
  function part(region: string, ready: Promise<void>, started: string[]): RegionalPart {
    const ingress = {
      update: async (c: ProviderContext) => {
        started.push(region);
        await ready;
        c.detail?.(`cluster weights in ${region}: serve:80 member=1`);
        return { ingress: [{ hostname: `${region}.example` }] };
      },
    };
    // Only what the orchestrator calls of a Region's part (its ingress balancer's update).
    return { region, provider: { ingress } as unknown as AwsProvider };
  }

  it('starts every Region at once and tells their lines in the configuration’s order, however they finish', async () => {
    const started: string[] = [];
    let releaseEast!: () => void;
    const east = new Promise<void>((r) => (releaseEast = r));
    const kube = new MemoryKube();
    const config = await parseAwsConfig(twoRegions);
    const provider = new MultiRegionProvider(
      config,
      [part('us-east-1', east, started), part('eu-west-1', Promise.resolve(), started)],
      {
        clusters: new ClusterRegionSource(kube, undefined, ['us-east-1', 'eu-west-1']),
        markers: new RegionMarkers(kube, 'karmada-system', 'local'),
        unknown: new UnknownClusters(),
        deploys: new RegionalDeploys(['us-east-1', 'eu-west-1']),
      },
      { kube, logger: silentLogger },
    );
    const lines: string[] = [];
    const reconcile = provider.ingress.update(
      { ...ctx(), detail: (l) => lines.push(l) },
      minimalIngress() as MultiClusterIngress,
    );
    // eu-west-1 is done while us-east-1 still waits: nothing told yet.
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['us-east-1', 'eu-west-1']);
    expect(lines).toEqual([]);
    releaseEast();
    expect(await reconcile).toEqual({
      ingress: [{ hostname: 'us-east-1.example' }, { hostname: 'eu-west-1.example' }],
    });
    expect(lines).toEqual([
      'cluster weights in us-east-1: serve:80 member=1',
      'cluster weights in eu-west-1: serve:80 member=1',
      'regions: us-east-1: ok; eu-west-1: ok',
    ]);
  });
});
