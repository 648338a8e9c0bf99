/**
 * The EC2 reads of the target groups' VPC (vpc-network.ts): DescribeVpcs for its associated CIDR
 * blocks (LBC's pkg/networking/vpc_info_provider.go `AssociatedIPv4CIDRs`/`AssociatedIPv6CIDRs`:
 * only blocks in state `associated`), DescribeSubnets filtered to the VPC for its subnets and
 * their zones. Its own chunk in the function bundles (lazy-parts.ts): `@aws-sdk/client-ec2` is about
 * 1 MiB, loaded only by a container whose configuration does not list the VPC's CIDRs.
 */
import { DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client, type Subnet } from '@aws-sdk/client-ec2';
import { CancelledError, ProviderConfigError, RetryLaterError, errorMessage } from '../../../errors.js';
import type { AwsProviderConfig } from '../config-types.js';
import { call, isAwsError } from '../deploy/context.js';
import type { VpcNetwork, VpcNetworkReader, VpcSubnet } from '../vpc-network.js';

/**
 * The EC2 client: the region and credentials of the ELBv2 one, the configured bounded attempts,
 * standard retry (its reads are a few per container per TTL; EC2's rate is not ELBv2's).
 */
export function createEc2Client(
  config: Pick<AwsProviderConfig, 'region' | 'ec2Endpoint' | 'maxAttempts'>,
): EC2Client {
  return new EC2Client({
    region: config.region,
    ...(config.ec2Endpoint ? { endpoint: config.ec2Endpoint } : {}),
    maxAttempts: config.maxAttempts,
  });
}

/** DescribeSubnets' largest page. */
const PAGE_SIZE = 1000;

function subnetOf(s: Subnet): VpcSubnet[] {
  if (s.SubnetId === undefined || s.CidrBlock === undefined || s.AvailabilityZone === undefined) return [];
  const tags: Record<string, string> = {};
  for (const t of s.Tags ?? []) if (t.Key !== undefined) tags[t.Key] = t.Value ?? '';
  return [
    {
      id: s.SubnetId,
      cidr: s.CidrBlock,
      zone: s.AvailabilityZone,
      tags,
      ...(s.AvailableIpAddressCount !== undefined ? { availableAddresses: s.AvailableIpAddressCount } : {}),
      // LBC's isSubnetContainsIPv6CIDR: only a block in state `associated` counts.
      ipv6: (s.Ipv6CidrBlockAssociationSet ?? []).some((a) => a.Ipv6CidrBlockState?.State === 'associated'),
    },
  ];
}

/**
 * One EC2 read under the reconcile's signal: throttling and 5xx become retry-later (deploy/context.ts
 * `call`); anything else (UnauthorizedOperation, say) is named as this read, with the way around it.
 */
async function read<T>(
  ctx: { signal: AbortSignal },
  operation: string,
  send: (o: { abortSignal: AbortSignal }) => Promise<T>,
): Promise<T> {
  try {
    return await call(ctx, operation, send, 'EC2');
  } catch (err) {
    if (err instanceof RetryLaterError || err instanceof CancelledError) throw err;
    if (isAwsError(err, 'InvalidVpcID.NotFound') || isAwsError(err, 'InvalidVpcID.Malformed')) throw err;
    throw new Error(
      `EC2 ${operation} (the VPC's CIDRs and zones; vpc.cidrs in the configuration skips EC2): ${errorMessage(err)}`,
      { cause: err },
    );
  }
}

/** A reader of the VPC's network through `client`. */
export function ec2NetworkReader(client: EC2Client): VpcNetworkReader {
  return async (vpcId, ctx): Promise<VpcNetwork> => {
    let vpcs;
    try {
      vpcs = await read(ctx, 'DescribeVpcs', (o) =>
        client.send(new DescribeVpcsCommand({ VpcIds: [vpcId] }), o),
      );
    } catch (err) {
      if (isAwsError(err, 'InvalidVpcID.NotFound') || isAwsError(err, 'InvalidVpcID.Malformed')) {
        throw new ProviderConfigError(
          `vpc.id ${vpcId}: EC2 does not know this VPC in the configured region (${errorMessage(err)})`,
          { cause: err },
        );
      }
      throw err;
    }
    const vpc = vpcs.Vpcs?.find((v) => v.VpcId === vpcId);
    if (!vpc) throw new ProviderConfigError(`vpc.id ${vpcId}: DescribeVpcs did not return it`);
    const cidrs = (vpc.CidrBlockAssociationSet ?? [])
      .filter((a) => a.CidrBlockState?.State === 'associated' && a.CidrBlock)
      .map((a) => a.CidrBlock!);
    const ipv6Cidrs = (vpc.Ipv6CidrBlockAssociationSet ?? [])
      .filter((a) => a.Ipv6CidrBlockState?.State === 'associated' && a.Ipv6CidrBlock)
      .map((a) => a.Ipv6CidrBlock!);
    const subnets: VpcSubnet[] = [];
    let token: string | undefined;
    do {
      const page = await read(ctx, 'DescribeSubnets', (o) =>
        client.send(
          new DescribeSubnetsCommand({
            Filters: [{ Name: 'vpc-id', Values: [vpcId] }],
            MaxResults: PAGE_SIZE,
            ...(token ? { NextToken: token } : {}),
          }),
          o,
        ),
      );
      subnets.push(...(page.Subnets ?? []).flatMap(subnetOf));
      token = page.NextToken;
    } while (token);
    // An old VPC without an association set still states its primary block.
    return { cidrs: cidrs.length ? cidrs : vpc.CidrBlock ? [vpc.CidrBlock] : [], ipv6Cidrs, subnets };
  };
}

/** The reader of a provider without an EC2 client given: one built from the configuration. */
export function configuredNetworkReader(
  config: Pick<AwsProviderConfig, 'region' | 'ec2Endpoint' | 'maxAttempts'>,
  client?: EC2Client,
): VpcNetworkReader {
  return ec2NetworkReader(client ?? createEc2Client(config));
}
