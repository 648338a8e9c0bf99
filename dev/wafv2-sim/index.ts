/**
 * The WAFv2 simulator: regional web ACLs (made by test fixtures through `state.addWebAcl`: the
 * provider never creates one) and their associations with load balancers, on WAFv2's own wire
 * protocol (awsJson1_1, `AWSWAF_20190729.*`), for the real @aws-sdk/client-wafv2.
 *
 * Given the ELBv2 simulator's load balancers (`loadBalancers`, as dev/start.ts and the tests pass
 * them), it checks a resource ARN against them as WAFv2 does: an unknown load balancer is
 * WAFNonexistentItemException, a network load balancer WAFInvalidParameterException, one created
 * less than `unavailableForMs` ago WAFUnavailableEntityException (AWS's answer while a new ALB
 * is still being set up), and a deleted load balancer loses its association.
 */
import { WAFV2Client, type WAFV2ClientConfig } from '@aws-sdk/client-wafv2';
import { simClientConfig, type SimClientOptions } from '../elbv2-sim/client.js';
import { SIM_ACCOUNT_ID, SIM_REGION } from '../elbv2-sim/config.js';
import {
  JsonSimError,
  requiredString,
  startJsonSimServer,
  type JsonInput,
  type JsonSimOptions,
  type JsonSimServer,
} from '../json-sim/server.js';

export const WAFV2_TARGET_PREFIX = 'AWSWAF_20190729';

/** What the simulator needs to know of a load balancer (the ELBv2 simulator's records have it). */
export interface SimLoadBalancerView {
  createdAt: number;
  type: string;
}

export interface WebAclRecord {
  Name: string;
  Id: string;
  ARN: string;
  Description: string;
  LockToken: string;
}

const NONEXISTENT = 'WAFNonexistentItemException';
const INVALID = 'WAFInvalidParameterException';

const ARN = /^arn:aws:([a-z0-9-]+):([a-z0-9-]*):(\d{12}):(.+)$/;

function invalidParameter(field: string, reason: string): JsonSimError {
  return new JsonSimError(INVALID, `Error reason: ${reason}., field: ${field}, parameter: `);
}

export class Wafv2State {
  readonly webAcls = new Map<string, WebAclRecord>();
  /** Resource ARN → web ACL ARN. */
  readonly associations = new Map<string, string>();
  private seq = 0;

  constructor(
    private readonly loadBalancers: ((arn: string) => SimLoadBalancerView | undefined) | undefined,
    private readonly unavailableForMs: number,
    private readonly now: () => number,
    /** The Region whose web ACLs and resources it serves (WAFv2 is regional: one simulator per Region). */
    readonly region: string = SIM_REGION,
  ) {}

  /** A regional web ACL, as a fixture (the provider only associates existing ones). */
  addWebAcl(name: string, region: string = this.region): WebAclRecord {
    const id = `${(++this.seq).toString(16).padStart(8, '0')}-0000-4000-8000-${'0'.repeat(12)}`;
    const acl: WebAclRecord = {
      Name: name,
      Id: id,
      ARN: `arn:aws:wafv2:${region}:${SIM_ACCOUNT_ID}:regional/webacl/${name}/${id}`,
      Description: '',
      LockToken: `lock-${this.seq}`,
    };
    this.webAcls.set(acl.ARN, acl);
    return acl;
  }

  /** Which web ACL a resource has, or undefined. */
  aclOf(resourceArn: string): string | undefined {
    this.forgetDeleted();
    return this.associations.get(resourceArn);
  }

  private forgetDeleted(): void {
    if (!this.loadBalancers) return;
    for (const arn of [...this.associations.keys()]) {
      if (!this.loadBalancers(arn)) this.associations.delete(arn);
    }
  }

  private checkResource(field: string, arn: string, associating: boolean): void {
    const m = ARN.exec(arn);
    if (!m || m[1] !== 'elasticloadbalancing' || !m[4]!.startsWith('loadbalancer/')) {
      throw invalidParameter(field, 'The ARN isn’t valid');
    }
    if (m[2] !== this.region) throw invalidParameter(field, 'The resource is in another Region');
    if (!m[4]!.startsWith('loadbalancer/app/')) {
      throw invalidParameter(field, 'The resource type is not supported: only Application Load Balancers');
    }
    if (!this.loadBalancers) return;
    const lb = this.loadBalancers(arn);
    if (!lb)
      throw new JsonSimError(
        NONEXISTENT,
        'AWS WAF couldn’t perform the operation because your resource doesn’t exist.',
      );
    if (associating && this.now() - lb.createdAt < this.unavailableForMs) {
      throw new JsonSimError(
        'WAFUnavailableEntityException',
        'AWS WAF couldn’t retrieve the resource that you requested. Retry your request.',
      );
    }
  }

  private acl(arn: string, field: string): WebAclRecord {
    const m = ARN.exec(arn);
    if (!m || m[1] !== 'wafv2' || !m[4]!.includes('/webacl/'))
      throw invalidParameter(field, 'The ARN isn’t valid');
    if (m[2] !== this.region) throw invalidParameter(field, 'The web ACL is in another Region');
    const acl = this.webAcls.get(arn);
    if (!acl)
      throw new JsonSimError(
        NONEXISTENT,
        'AWS WAF couldn’t perform the operation because your resource doesn’t exist.',
      );
    return acl;
  }

  associate(input: JsonInput): object {
    const aclArn = requiredString(input, 'WebACLArn', INVALID);
    const resource = requiredString(input, 'ResourceArn', INVALID);
    this.acl(aclArn, 'WEB_ACL_ARN');
    this.checkResource('RESOURCE_ARN', resource, true);
    this.associations.set(resource, aclArn);
    return {};
  }

  disassociate(input: JsonInput): object {
    const resource = requiredString(input, 'ResourceArn', INVALID);
    this.checkResource('RESOURCE_ARN', resource, false);
    this.associations.delete(resource);
    return {};
  }

  forResource(input: JsonInput): object {
    const resource = requiredString(input, 'ResourceArn', INVALID);
    this.checkResource('RESOURCE_ARN', resource, false);
    const arn = this.aclOf(resource);
    const acl = arn ? this.webAcls.get(arn) : undefined;
    return acl ? { WebACL: webAclDetail(acl) } : {};
  }

  getWebAcl(input: JsonInput): object {
    const byArn = typeof input.ARN === 'string' ? this.acl(input.ARN, 'ARN') : undefined;
    const acl =
      byArn ??
      [...this.webAcls.values()].find(
        (a) =>
          a.Name === requiredString(input, 'Name', INVALID) && a.Id === requiredString(input, 'Id', INVALID),
      );
    if (!acl)
      throw new JsonSimError(
        NONEXISTENT,
        'AWS WAF couldn’t perform the operation because your resource doesn’t exist.',
      );
    return { WebACL: webAclDetail(acl), LockToken: acl.LockToken };
  }

  listWebAcls(input: JsonInput): object {
    const scope = requiredString(input, 'Scope', INVALID);
    if (scope !== 'REGIONAL' && scope !== 'CLOUDFRONT')
      throw invalidParameter('SCOPE_VALUE', 'Invalid scope');
    const limit = typeof input.Limit === 'number' ? input.Limit : 100;
    if (limit < 1 || limit > 100) throw invalidParameter('LIMIT', 'Limit must be between 1 and 100');
    const all =
      scope === 'REGIONAL'
        ? [...this.webAcls.values()].filter((a) => a.ARN.includes(`:${this.region}:`))
        : [];
    const start = typeof input.NextMarker === 'string' ? Number(input.NextMarker) : 0;
    if (!Number.isInteger(start) || start < 0) throw invalidParameter('NEXT_MARKER', 'Invalid marker');
    const page = all.slice(start, start + limit);
    return {
      WebACLs: page.map(({ Name, Id, Description, LockToken, ARN: arn }) => ({
        Name,
        Id,
        Description,
        LockToken,
        ARN: arn,
      })),
      ...(start + limit < all.length ? { NextMarker: String(start + limit) } : {}),
    };
  }

  listResources(input: JsonInput): object {
    const aclArn = requiredString(input, 'WebACLArn', INVALID);
    this.acl(aclArn, 'WEB_ACL_ARN');
    this.forgetDeleted();
    return { ResourceArns: [...this.associations].filter(([, a]) => a === aclArn).map(([r]) => r) };
  }
}

function webAclDetail(acl: WebAclRecord): object {
  return {
    Name: acl.Name,
    Id: acl.Id,
    ARN: acl.ARN,
    Description: acl.Description,
    DefaultAction: { Allow: {} },
    Rules: [],
    VisibilityConfig: { SampledRequestsEnabled: true, CloudWatchMetricsEnabled: true, MetricName: acl.Name },
    Capacity: 0,
    ManagedByFirewallManager: false,
  };
}

export interface Wafv2SimulatorOptions extends JsonSimOptions {
  /** The ELBv2 simulator's load balancers by ARN: resource ARNs are checked against them. */
  loadBalancers?: (arn: string) => SimLoadBalancerView | undefined;
  /** An association of a load balancer younger than this is WAFUnavailableEntityException (default 0). */
  unavailableForMs?: number;
  now?: () => number;
  /** Its Region (default SIM_REGION), as the ELBv2 simulator beside it has. */
  region?: string;
}

export interface Wafv2Simulator extends JsonSimServer {
  readonly region: string;
  readonly state: Wafv2State;
}

export async function startWafv2Simulator(options: Wafv2SimulatorOptions = {}): Promise<Wafv2Simulator> {
  const state = new Wafv2State(
    options.loadBalancers,
    options.unavailableForMs ?? 0,
    options.now ?? Date.now,
    options.region ?? SIM_REGION,
  );
  const server = await startJsonSimServer(
    {
      targetPrefix: WAFV2_TARGET_PREFIX,
      faultCodes: {
        throttle: 'ThrottlingException',
        internal: 'WAFInternalErrorException',
        unavailable: 'ServiceUnavailableException',
      },
      actions: {
        AssociateWebACL: (i) => state.associate(i),
        DisassociateWebACL: (i) => state.disassociate(i),
        GetWebACLForResource: (i) => state.forResource(i),
        GetWebACL: (i) => state.getWebAcl(i),
        ListWebACLs: (i) => state.listWebAcls(i),
        ListResourcesForWebACL: (i) => state.listResources(i),
      },
    },
    options,
  );
  return { ...server, region: state.region, state };
}

/** A real WAFv2 client pointed at the simulator, with dummy credentials. */
export function wafv2ClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<WAFV2ClientConfig> } = {},
): WAFV2Client {
  return new WAFV2Client({ ...(simClientConfig(sim, options) as WAFV2ClientConfig), ...options.config });
}
