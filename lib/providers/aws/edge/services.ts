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
import type { AwsProviderConfig } from '../config-types.js';
import { loadAcm, loadShield, loadWafv2 } from '../lazy-parts.js';
import type { CatalogCertificate } from '../model/certificates.js';

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

export interface AcmApi {
  /** The ARNs of the Region's issued certificates, of every key type. */
  issuedCertificates(ctx: Ctx): Promise<string[]>;
  /** A certificate's names (SubjectAlternativeNames), and whether it was imported. */
  certificate(arn: string, ctx: Ctx): Promise<{ names: string[]; imported: boolean }>;
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

/**
 * How long the certificate list and each certificate's names are used: LBC's 1 minute for the
 * list, 5 minutes for an imported certificate's names (it can be re-imported with others) and 10
 * hours for an ACM-issued one's (its names never change).
 */
export const CERTIFICATE_LIST_TTL_MS = 60_000;
export const IMPORTED_NAMES_TTL_MS = 5 * 60_000;
export const ISSUED_NAMES_TTL_MS = 10 * 60 * 60_000;
/** At most this many certificates' names are kept (the oldest goes first). */
export const MAX_CERTIFICATES_KEPT = 2000;

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
  private acmApi: Promise<AcmApi> | undefined;
  private certificateList: { at: number; value: Promise<string[]> } | undefined;
  private readonly certificateNames = new Map<string, { until: number; names: readonly string[] }>();

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

  acm(): Promise<AcmApi> {
    this.acmApi ??= loadAcm().then((m) => m.configuredAcm(this.config, this.clients.acm));
    this.acmApi.catch(() => (this.acmApi = undefined));
    return this.acmApi;
  }

  /**
   * The Region's issued certificates with their names, for certificate discovery: the list read
   * at most once a minute, each certificate's names kept per CERTIFICATE TTLs above (bounded), so
   * a reconcile costs at most one ListCertificates page walk and a DescribeCertificate per new
   * certificate. A failed read is not kept.
   */
  async certificates(ctx: Ctx): Promise<CatalogCertificate[]> {
    const api = await this.acm();
    const now = this.now();
    let list =
      this.certificateList && now - this.certificateList.at < CERTIFICATE_LIST_TTL_MS
        ? this.certificateList
        : undefined;
    if (!list) {
      const entry = { at: now, value: api.issuedCertificates(ctx) };
      this.certificateList = list = entry;
      entry.value.catch(() => {
        if (this.certificateList === entry) this.certificateList = undefined;
      });
    }
    const arns = await list.value;
    const out: CatalogCertificate[] = [];
    for (const arn of arns) {
      let kept = this.certificateNames.get(arn);
      if (!kept || kept.until <= this.now()) {
        const c = await api.certificate(arn, ctx);
        kept = {
          until: this.now() + (c.imported ? IMPORTED_NAMES_TTL_MS : ISSUED_NAMES_TTL_MS),
          names: c.names,
        };
        this.certificateNames.delete(arn);
        this.certificateNames.set(arn, kept);
        while (this.certificateNames.size > MAX_CERTIFICATES_KEPT) {
          this.certificateNames.delete(this.certificateNames.keys().next().value as string);
        }
      }
      out.push({ arn, names: kept.names });
    }
    return out;
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
