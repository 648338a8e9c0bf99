/**
 * The Shield Advanced simulator: the account's subscription and its protections (with tags), on
 * Shield's wire protocol (awsJson1_1, `AWSShield_20160616.*`), for the real @aws-sdk/client-shield.
 * Without a subscription (`subscribed: false`) GetSubscriptionState says INACTIVE and
 * CreateProtection is refused, as AWS refuses it. Given the ELBv2 simulator's load balancers, a
 * protection of an unknown one is InvalidResourceException; a protection outlives its load
 * balancer, as in AWS (someone has to delete it).
 */
import { ShieldClient, type ShieldClientConfig } from '@aws-sdk/client-shield';
import { simClientConfig, type SimClientOptions } from '../elbv2-sim/client.js';
import { SIM_ACCOUNT_ID, SIM_REGION } from '../elbv2-sim/config.js';
import {
  JsonSimError,
  requiredString,
  startJsonSimServer,
  tagList,
  tagRecord,
  type JsonInput,
  type JsonSimOptions,
  type JsonSimServer,
} from '../json-sim/server.js';

export const SHIELD_TARGET_PREFIX = 'AWSShield_20160616';

export interface ProtectionRecord {
  Id: string;
  Name: string;
  ResourceArn: string;
  ProtectionArn: string;
  HealthCheckIds: string[];
}

const NOT_FOUND = 'ResourceNotFoundException';
const INVALID = 'InvalidParameterException';

export class ShieldState {
  readonly protections = new Map<string, ProtectionRecord>();
  readonly tags = new Map<string, Record<string, string>>();
  subscribed: boolean;
  private seq = 0;

  constructor(
    subscribed: boolean,
    private readonly loadBalancers: ((arn: string) => unknown) | undefined,
  ) {
    this.subscribed = subscribed;
  }

  private byResource(arn: string): ProtectionRecord | undefined {
    return [...this.protections.values()].find((p) => p.ResourceArn === arn);
  }

  private checkSubscription(): void {
    if (!this.subscribed) {
      throw new JsonSimError(
        NOT_FOUND,
        'The subscription does not exist: subscribe to Shield Advanced first.',
      );
    }
  }

  create(input: JsonInput): object {
    this.checkSubscription();
    const name = requiredString(input, 'Name', INVALID);
    const resource = requiredString(input, 'ResourceArn', INVALID);
    if (name.length > 128) throw new JsonSimError(INVALID, 'Name must be at most 128 characters');
    if (!/^arn:aws:elasticloadbalancing:[a-z0-9-]+:\d{12}:loadbalancer\/(app|net)\//.test(resource)) {
      throw new JsonSimError('InvalidResourceException', `Unsupported resource ARN: ${resource}`);
    }
    if (this.loadBalancers && !this.loadBalancers(resource)) {
      throw new JsonSimError('InvalidResourceException', `The resource ${resource} does not exist`);
    }
    if (this.byResource(resource)) {
      throw new JsonSimError(
        'ResourceAlreadyExistsException',
        `The resource ${resource} is already protected`,
      );
    }
    const id = `${(++this.seq).toString(16).padStart(8, '0')}-1111-4000-8000-${'0'.repeat(12)}`;
    const p: ProtectionRecord = {
      Id: id,
      Name: name,
      ResourceArn: resource,
      ProtectionArn: `arn:aws:shield::${SIM_ACCOUNT_ID}:protection/${id}`,
      HealthCheckIds: [],
    };
    this.protections.set(id, p);
    this.tags.set(p.ProtectionArn, tagRecord(input.Tags));
    return { ProtectionId: id };
  }

  delete(input: JsonInput): object {
    const id = requiredString(input, 'ProtectionId', INVALID);
    const p = this.protections.get(id);
    if (!p) throw new JsonSimError(NOT_FOUND, `The protection ${id} does not exist`);
    this.protections.delete(id);
    this.tags.delete(p.ProtectionArn);
    return {};
  }

  describe(input: JsonInput): object {
    const hasId = typeof input.ProtectionId === 'string';
    const hasArn = typeof input.ResourceArn === 'string';
    if (hasId === hasArn) throw new JsonSimError(INVALID, 'Give exactly one of ProtectionId and ResourceArn');
    const p = hasId
      ? this.protections.get(input.ProtectionId as string)
      : this.byResource(input.ResourceArn as string);
    if (!p) throw new JsonSimError(NOT_FOUND, 'The referenced protection does not exist');
    return { Protection: { ...p } };
  }

  list(input: JsonInput): object {
    const max = typeof input.MaxResults === 'number' ? input.MaxResults : 20;
    if (max < 1 || max > 10000) throw new JsonSimError(INVALID, 'MaxResults must be between 1 and 10000');
    const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
    if (!Number.isInteger(start) || start < 0)
      throw new JsonSimError('InvalidPaginationTokenException', 'Invalid NextToken');
    const all = [...this.protections.values()];
    return {
      Protections: all.slice(start, start + max).map((p) => ({ ...p })),
      ...(start + max < all.length ? { NextToken: String(start + max) } : {}),
    };
  }

  subscriptionState(): object {
    return { SubscriptionState: this.subscribed ? 'ACTIVE' : 'INACTIVE' };
  }

  private tagsOf(input: JsonInput): Record<string, string> {
    const arn = requiredString(input, 'ResourceARN', INVALID);
    const t = this.tags.get(arn);
    if (!t) throw new JsonSimError(NOT_FOUND, `The resource ${arn} does not exist`);
    return t;
  }

  listTags(input: JsonInput): object {
    return { Tags: tagList(this.tagsOf(input)) };
  }

  tag(input: JsonInput): object {
    Object.assign(this.tagsOf(input), tagRecord(input.Tags));
    return {};
  }

  untag(input: JsonInput): object {
    const t = this.tagsOf(input);
    for (const k of Array.isArray(input.TagKeys) ? (input.TagKeys as unknown[]) : []) delete t[String(k)];
    return {};
  }
}

export interface ShieldSimulatorOptions extends JsonSimOptions {
  /** Whether the account has a Shield Advanced subscription (default true). */
  subscribed?: boolean;
  /** The ELBv2 simulator's load balancers by ARN: a protection's resource must be one. */
  loadBalancers?: (arn: string) => unknown;
}

export interface ShieldSimulator extends JsonSimServer {
  readonly region: string;
  readonly state: ShieldState;
}

export async function startShieldSimulator(options: ShieldSimulatorOptions = {}): Promise<ShieldSimulator> {
  const state = new ShieldState(options.subscribed ?? true, options.loadBalancers);
  const server = await startJsonSimServer(
    {
      targetPrefix: SHIELD_TARGET_PREFIX,
      faultCodes: {
        throttle: 'ThrottlingException',
        internal: 'InternalErrorException',
        unavailable: 'ServiceUnavailableException',
      },
      actions: {
        CreateProtection: (i) => state.create(i),
        DeleteProtection: (i) => state.delete(i),
        DescribeProtection: (i) => state.describe(i),
        ListProtections: (i) => state.list(i),
        GetSubscriptionState: () => state.subscriptionState(),
        ListTagsForResource: (i) => state.listTags(i),
        TagResource: (i) => state.tag(i),
        UntagResource: (i) => state.untag(i),
      },
    },
    options,
  );
  return { ...server, region: SIM_REGION, state };
}

/** A real Shield client pointed at the simulator, with dummy credentials. */
export function shieldClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<ShieldClientConfig> } = {},
): ShieldClient {
  return new ShieldClient({ ...(simClientConfig(sim, options) as ShieldClientConfig), ...options.config });
}
