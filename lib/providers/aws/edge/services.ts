/**
 * The edge services a load balancer may have besides ELBv2: a WAFv2 web ACL, a Shield Advanced
 * protection, and ACM (certificate discovery). Each SDK client is loaded at its first use
 * (lazy-parts.ts), so a container whose stacks need none of them loads none; this module only
 * names what the deploy asks of them.
 */
import type { ACMClient } from '@aws-sdk/client-acm';
import type {
  CreateProtectionCommandInput,
  DeleteProtectionCommandInput,
  ShieldClient,
} from '@aws-sdk/client-shield';
import type {
  AssociateWebACLCommandInput,
  DisassociateWebACLCommandInput,
  WAFV2Client,
} from '@aws-sdk/client-wafv2';
import type { AwsProviderConfig } from '../config.js';
import { loadShield, loadWafv2 } from '../lazy-parts.js';

type Ctx = { signal: AbortSignal };
type SendOptions = { abortSignal: AbortSignal };

export interface Wafv2Api {
  /** The web ACL associated with the resource (its ARN), or null. */
  webAclOf(resourceArn: string, ctx: Ctx): Promise<string | null>;
  /** The Region's web ACLs: name → ARN. */
  webAclsByName(ctx: Ctx): Promise<Map<string, string>>;
  associate(input: AssociateWebACLCommandInput, o: SendOptions): Promise<void>;
  disassociate(input: DisassociateWebACLCommandInput, o: SendOptions): Promise<void>;
}

export interface ActualProtection {
  id: string;
  arn: string;
  tags: Record<string, string>;
}

export interface ShieldApi {
  subscribed(ctx: Ctx): Promise<boolean>;
  /** The resource's protection with its tags, or null. */
  protectionOf(resourceArn: string, ctx: Ctx): Promise<ActualProtection | null>;
  create(input: CreateProtectionCommandInput, o: SendOptions): Promise<void>;
  delete(input: DeleteProtectionCommandInput, o: SendOptions): Promise<void>;
}

export type EdgeConfig = Pick<
  AwsProviderConfig,
  'region' | 'wafv2Endpoint' | 'shieldEndpoint' | 'acmEndpoint' | 'maxAttempts'
>;

export interface EdgeClients {
  wafv2?: WAFV2Client;
  shield?: ShieldClient;
  acm?: ACMClient;
}

/** How long a web ACL name's ARN is used (ACLs are renamed or replaced rarely). */
export const WEB_ACL_NAMES_TTL_MS = 5 * 60_000;

/**
 * One provider's edge services: each client built (and its chunk loaded) at its first use, and
 * the Region's web ACL names kept per container for WEB_ACL_NAMES_TTL_MS (one listing, however
 * many stacks name ACLs; a name not found is read again at once, since it may just have been made).
 */
export class EdgeServices {
  private wafv2Api: Promise<Wafv2Api> | undefined;
  private shieldApi: Promise<ShieldApi> | undefined;
  private names: { at: number; value: Promise<Map<string, string>> } | undefined;

  constructor(
    private readonly config: EdgeConfig,
    private readonly clients: EdgeClients = {},
    private readonly now: () => number = () => Date.now(),
  ) {}

  wafv2(): Promise<Wafv2Api> {
    this.wafv2Api ??= loadWafv2().then((m) => m.configuredWafv2(this.config, this.clients.wafv2));
    this.wafv2Api.catch(() => (this.wafv2Api = undefined));
    return this.wafv2Api;
  }

  shield(): Promise<ShieldApi> {
    this.shieldApi ??= loadShield().then((m) => m.configuredShield(this.config, this.clients.shield));
    this.shieldApi.catch(() => (this.shieldApi = undefined));
    return this.shieldApi;
  }

  /** The ARN of the Region's web ACL `name`, or undefined when there is none. */
  async webAclArn(name: string, ctx: Ctx): Promise<string | undefined> {
    const read = async () => (await this.wafv2()).webAclsByName(ctx);
    const cached = this.names && this.now() - this.names.at < WEB_ACL_NAMES_TTL_MS ? this.names : undefined;
    if (cached) {
      const found = (await cached.value).get(name);
      if (found) return found;
    }
    const entry = { at: this.now(), value: read() };
    this.names = entry;
    entry.value.catch(() => {
      if (this.names === entry) this.names = undefined;
    });
    return (await entry.value).get(name);
  }
}
