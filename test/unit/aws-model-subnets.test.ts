import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../lib/errors.js';
import { resolveSubnets, type SubnetQuery } from '../../lib/providers/aws/model/subnets.js';
import type { VpcSubnet } from '../../lib/providers/aws/vpc-network.js';

const KEY = 'alb.ingress.kubernetes.io/subnets';
const ELB = 'kubernetes.io/role/elb';
const INTERNAL = 'kubernetes.io/role/internal-elb';

function subnet(
  id: string,
  zone: string,
  tags: Record<string, string>,
  more: Partial<VpcSubnet> = {},
): VpcSubnet {
  return { id, cidr: '10.0.0.0/24', zone, tags, availableAddresses: 250, ipv6: true, ...more };
}

const CATALOG: VpcSubnet[] = [
  subnet('subnet-000000000000000a2', 'us-east-1a', { Name: 'public-a', [ELB]: '1' }),
  subnet('subnet-000000000000000a1', 'us-east-1a', { Name: 'public-a', [ELB]: '' }),
  subnet('subnet-000000000000000b1', 'us-east-1b', { Name: 'public-b', [ELB]: '1' }),
  subnet('subnet-000000000000000c1', 'us-east-1c', { Name: 'private-c', [INTERNAL]: '1' }),
  subnet('subnet-000000000000000d1', 'us-east-1d', { Name: 'other', [ELB]: '0' }),
];

const query = (q: Partial<SubnetQuery>): SubnetQuery => ({
  key: KEY,
  scheme: 'internet-facing',
  type: 'application',
  ipAddressType: 'ipv4',
  catalog: CATALOG,
  ...q,
});

function refused(q: SubnetQuery): InvalidObjectError {
  try {
    resolveSubnets(q);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidObjectError);
    return e as InvalidObjectError;
  }
  throw new Error('expected an InvalidObjectError');
}

describe('listed subnets', () => {
  it('keeps IDs as written (ELBv2 checks them), without the catalog too', () => {
    const listed = ['subnet-0123abcd', 'subnet-0123abce'];
    expect(resolveSubnets(query({ listed, catalog: undefined }))).toStrictEqual(listed);
  });

  it('resolves names by the Name tag in the order written; a shared name takes the next by ID', () => {
    expect(
      resolveSubnets(query({ listed: ['public-b', 'public-a', 'subnet-0123abcd', 'public-a'] })),
    ).toStrictEqual([
      'subnet-000000000000000b1',
      'subnet-000000000000000a1',
      'subnet-0123abcd',
      'subnet-000000000000000a2',
    ]);
  });

  it('names the key of a name no subnet has, or one listed more often than subnets carry it', () => {
    const missing = refused(query({ listed: ['nope'] }));
    expect(missing).toMatchObject({ field: KEY, reason: 'SubnetNotFound' });
    expect(missing.message).toBe(`annotation ${KEY}: no subnet of the VPC has the Name tag "nope"`);
    expect(refused(query({ listed: ['public-b', 'public-b'] })).message).toBe(
      `annotation ${KEY}: "public-b" is listed 2 times but 1 subnet(s) of the VPC have that Name tag`,
    );
    expect(refused(query({ listed: ['nope'], listedBy: 'configuration' })).message).toMatch(
      /^configuration subnets: no subnet/,
    );
  });

  it('refuses names when the configuration kept EC2 out (vpc.cidrs)', () => {
    expect(refused(query({ listed: ['public-a'], catalog: undefined })).message).toContain(
      "names are resolved from EC2's subnets, which the configuration's vpc.cidrs keeps out",
    );
  });
});

describe('discovered subnets', () => {
  it("takes the scheme's role tag (value 1 or empty), one per zone, the lowest ID first, sorted", () => {
    expect(resolveSubnets(query({}))).toStrictEqual(['subnet-000000000000000a1', 'subnet-000000000000000b1']);
    expect(resolveSubnets(query({ scheme: 'internal', type: 'network' }))).toStrictEqual([
      'subnet-000000000000000c1',
    ]);
  });

  it('an ALB needs two zones, an NLB one; the message names the key, the tag and what was found', () => {
    const e = refused(query({ scheme: 'internal' }));
    expect(e).toMatchObject({ field: KEY, reason: 'SubnetsNotDiscovered' });
    expect(e.message).toBe(
      `annotation ${KEY} is not set and the configuration lists no subnets: discovery found internal subnets ` +
        `(tag ${INTERNAL}) in 1 Availability Zone(s) (us-east-1c); an ALB needs subnets in at least 2. ` +
        `1 subnet(s) of the VPC carry the tag. Tag a subnet in another zone ${INTERNAL}=1, or list subnets in ${KEY}`,
    );
    expect(refused(query({ catalog: [] })).message).toContain('in 0 Availability Zone(s); an ALB needs');
  });

  it('leaves out subnets with fewer than 8 free addresses, and without IPv6 for dualstack (LBC)', () => {
    const catalog = [
      subnet('subnet-000000000000000a1', 'us-east-1a', { [ELB]: '1' }, { availableAddresses: 7 }),
      subnet('subnet-000000000000000a2', 'us-east-1a', { [ELB]: '1' }, { availableAddresses: 8 }),
      subnet('subnet-000000000000000b1', 'us-east-1b', { [ELB]: '1' }, { ipv6: false }),
      subnet('subnet-000000000000000b2', 'us-east-1b', { [ELB]: '1' }),
    ];
    expect(resolveSubnets(query({ catalog }))).toStrictEqual([
      'subnet-000000000000000a2',
      'subnet-000000000000000b1',
    ]);
    expect(resolveSubnets(query({ catalog, ipAddressType: 'dualstack' }))).toStrictEqual([
      'subnet-000000000000000a2',
      'subnet-000000000000000b2',
    ]);
    const few = [catalog[0]!, catalog[2]!];
    expect(refused(query({ catalog: few, ipAddressType: 'dualstack' })).message).toContain(
      '2 subnet(s) of the VPC carry the tag, 1 with fewer than 8 free addresses, 1 without an IPv6 block (dualstack needs one)',
    );
  });

  it("keeps to the tenant policy's allowed subnets, and says when they leave too few zones", () => {
    expect(
      resolveSubnets(query({ allowed: ['subnet-000000000000000a2', 'subnet-000000000000000b1'] })),
    ).toStrictEqual(['subnet-000000000000000a2', 'subnet-000000000000000b1']);
    expect(refused(query({ allowed: ['subnet-000000000000000a2'] })).message).toContain(
      "3 subnet(s) of the VPC carry the tag, 2 not among the tenant policy's allowed subnets",
    );
  });
});
