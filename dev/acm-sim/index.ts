/**
 * The ACM simulator: certificates made by test fixtures (`state.addCertificate`), listed and
 * described on ACM's wire protocol (awsJson1_1, `CertificateManager.*`) for the real
 * @aws-sdk/client-acm. As ACM does, ListCertificates without `Includes.keyTypes` returns only
 * RSA_1024 and RSA_2048 certificates (so an ECDSA certificate is found only by a caller that asks
 * for every key type, as LBC's discovery does), pages by `MaxItems`/`NextToken`, and filters by
 * `CertificateStatuses`.
 */
import { ACMClient, type ACMClientConfig } from '@aws-sdk/client-acm';
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

export const ACM_TARGET_PREFIX = 'CertificateManager';

export interface CertificateRecord {
  CertificateArn: string;
  DomainName: string;
  /** Every name of the certificate, its DomainName first (as ACM states them). */
  SubjectAlternativeNames: string[];
  Status:
    'ISSUED' | 'PENDING_VALIDATION' | 'EXPIRED' | 'REVOKED' | 'FAILED' | 'INACTIVE' | 'VALIDATION_TIMED_OUT';
  Type: 'AMAZON_ISSUED' | 'IMPORTED' | 'PRIVATE';
  KeyAlgorithm: string;
}

const DEFAULT_KEY_TYPES = ['RSA_1024', 'RSA_2048'];

export class AcmState {
  readonly certificates = new Map<string, CertificateRecord>();
  private seq = 0;

  constructor(private readonly maxPage: number) {}

  /** A certificate, as a fixture: issued, RSA_2048, Amazon-issued unless told. */
  addCertificate(
    domainName: string,
    o: Partial<Omit<CertificateRecord, 'CertificateArn' | 'DomainName' | 'SubjectAlternativeNames'>> & {
      alternativeNames?: string[];
    } = {},
  ): CertificateRecord {
    const id = `${(++this.seq).toString(16).padStart(8, '0')}-2222-4000-8000-${'0'.repeat(12)}`;
    const cert: CertificateRecord = {
      CertificateArn: `arn:aws:acm:${SIM_REGION}:${SIM_ACCOUNT_ID}:certificate/${id}`,
      DomainName: domainName,
      SubjectAlternativeNames: [domainName, ...(o.alternativeNames ?? []).filter((n) => n !== domainName)],
      Status: o.Status ?? 'ISSUED',
      Type: o.Type ?? 'AMAZON_ISSUED',
      KeyAlgorithm: o.KeyAlgorithm ?? 'RSA_2048',
    };
    this.certificates.set(cert.CertificateArn, cert);
    return cert;
  }

  list(input: JsonInput): object {
    const statuses = Array.isArray(input.CertificateStatuses) ? (input.CertificateStatuses as string[]) : [];
    const includes = (input.Includes ?? {}) as { keyTypes?: unknown };
    const keyTypes = Array.isArray(includes.keyTypes) ? (includes.keyTypes as string[]) : DEFAULT_KEY_TYPES;
    const max = typeof input.MaxItems === 'number' ? input.MaxItems : 1000;
    if (max < 1 || max > 1000)
      throw new JsonSimError('ValidationException', 'MaxItems must be between 1 and 1000');
    const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
    if (!Number.isInteger(start) || start < 0)
      throw new JsonSimError('InvalidArgsException', 'Invalid NextToken');
    const size = Math.min(max, this.maxPage);
    const all = [...this.certificates.values()].filter(
      (c) => (statuses.length === 0 || statuses.includes(c.Status)) && keyTypes.includes(c.KeyAlgorithm),
    );
    return {
      CertificateSummaryList: all.slice(start, start + size).map((c) => ({
        CertificateArn: c.CertificateArn,
        DomainName: c.DomainName,
        SubjectAlternativeNameSummaries: c.SubjectAlternativeNames,
        HasAdditionalSubjectAlternativeNames: false,
        Status: c.Status,
        Type: c.Type,
        KeyAlgorithm: c.KeyAlgorithm,
      })),
      ...(start + size < all.length ? { NextToken: String(start + size) } : {}),
    };
  }

  describe(input: JsonInput): object {
    const arn = requiredString(input, 'CertificateArn');
    if (!/^arn:aws:acm:[a-z0-9-]+:\d{12}:certificate\/[0-9a-f-]+$/.test(arn)) {
      throw new JsonSimError('InvalidArnException', `String '${arn}' is not a valid ARN`);
    }
    const c = this.certificates.get(arn);
    if (!c) throw new JsonSimError('ResourceNotFoundException', `Could not find certificate ${arn}.`);
    return { Certificate: { ...c, SubjectAlternativeNames: [...c.SubjectAlternativeNames] } };
  }
}

export interface AcmSimulatorOptions extends JsonSimOptions {
  /** The most a ListCertificates page holds, whatever MaxItems asks (default 1000, ACM's). */
  maxPage?: number;
}

export interface AcmSimulator extends JsonSimServer {
  readonly region: string;
  readonly state: AcmState;
}

export async function startAcmSimulator(options: AcmSimulatorOptions = {}): Promise<AcmSimulator> {
  const state = new AcmState(options.maxPage ?? 1000);
  const server = await startJsonSimServer(
    {
      targetPrefix: ACM_TARGET_PREFIX,
      faultCodes: {
        throttle: 'ThrottlingException',
        internal: 'InternalFailure',
        unavailable: 'ServiceUnavailable',
      },
      actions: {
        ListCertificates: (i) => state.list(i),
        DescribeCertificate: (i) => state.describe(i),
      },
    },
    options,
  );
  return { ...server, region: SIM_REGION, state };
}

/** A real ACM client pointed at the simulator, with dummy credentials. */
export function acmClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<ACMClientConfig> } = {},
): ACMClient {
  return new ACMClient({ ...(simClientConfig(sim, options) as ACMClientConfig), ...options.config });
}
