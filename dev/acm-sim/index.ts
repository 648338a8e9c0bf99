/**
 * The ACM simulator: certificates made by test fixtures (`state.addCertificate`) or imported
 * (`ImportCertificate`, a PEM certificate and its private key), listed and described on ACM's wire
 * protocol (awsJson1_1, `CertificateManager.*`) for the real @aws-sdk/client-acm, in one Region
 * (its ARNs'). As ACM does, ListCertificates without `Includes.keyTypes` returns only
 * RSA_1024 and RSA_2048 certificates (so an ECDSA certificate is found only by a caller that asks
 * for every key type, as LBC's discovery does), pages by `MaxItems`/`NextToken`, and filters by
 * `CertificateStatuses`.
 */
import { ACMClient, type ACMClientConfig } from '@aws-sdk/client-acm';
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
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
  /** When it stops being valid (imported: the certificate's Not After). */
  NotAfter?: Date;
  NotBefore?: Date;
  Issuer?: string;
}

const DEFAULT_KEY_TYPES = ['RSA_1024', 'RSA_2048'];

export class AcmState {
  readonly certificates = new Map<string, CertificateRecord>();
  private seq = 0;

  constructor(
    private readonly maxPage: number,
    readonly region: string = SIM_REGION,
    private readonly now: () => number = Date.now,
  ) {}

  private newArn(): string {
    const id = `${(++this.seq).toString(16).padStart(8, '0')}-2222-4000-8000-${'0'.repeat(12)}`;
    return `arn:aws:acm:${this.region}:${SIM_ACCOUNT_ID}:certificate/${id}`;
  }

  /** A certificate, as a fixture: issued, RSA_2048, Amazon-issued unless told. */
  addCertificate(
    domainName: string,
    o: Partial<Omit<CertificateRecord, 'CertificateArn' | 'DomainName' | 'SubjectAlternativeNames'>> & {
      alternativeNames?: string[];
    } = {},
  ): CertificateRecord {
    const cert: CertificateRecord = {
      CertificateArn: this.newArn(),
      DomainName: domainName,
      SubjectAlternativeNames: [domainName, ...(o.alternativeNames ?? []).filter((n) => n !== domainName)],
      Status: o.Status ?? 'ISSUED',
      Type: o.Type ?? 'AMAZON_ISSUED',
      KeyAlgorithm: o.KeyAlgorithm ?? 'RSA_2048',
    };
    this.certificates.set(cert.CertificateArn, cert);
    return cert;
  }

  /**
   * ImportCertificate as the API reference states its guidelines: the PEM certificate and the
   * unencrypted private key that matches it (at most 5,120 bytes), the current time between its
   * Not Before and Not After, a non-empty Issuer; with `CertificateArn`, the imported certificate
   * it replaces (same ARN). Its names are its subject's CN and its DNS subject alternative names.
   */
  importCertificate(input: JsonInput): object {
    const pem = (field: string): string | undefined => {
      const v = input[field];
      if (v === undefined) return undefined;
      if (typeof v !== 'string' || v === '') throw validation(`Value at '${field}' must be a PEM blob`);
      return Buffer.from(v, 'base64').toString('utf8');
    };
    const certText = pem('Certificate');
    const keyText = pem('PrivateKey');
    if (certText === undefined || keyText === undefined)
      throw validation(
        `Value null at '${certText === undefined ? 'certificate' : 'privateKey'}' failed to satisfy constraint: Member must not be null`,
      );
    if (Buffer.byteLength(keyText) > 5120) throw validation('The private key is larger than 5,120 bytes.');
    if (input.Tags !== undefined)
      throw validation('The simulator keeps no certificate tags (it has no ListTagsForCertificate).');
    let cert: X509Certificate;
    let key: KeyObject;
    try {
      cert = new X509Certificate(certText);
    } catch {
      throw validation('Could not validate the certificate with the certificate chain.');
    }
    try {
      key = createPrivateKey(keyText);
    } catch {
      throw validation('The private key is not supported.');
    }
    if (!cert.checkPrivateKey(key))
      throw validation('The private key does not match the public key in the certificate.');
    const notBefore = new Date(cert.validFrom);
    const notAfter = new Date(cert.validTo);
    const now = this.now();
    if (now < notBefore.getTime() || now > notAfter.getTime())
      throw validation('The certificate is not valid at this time (Not Before … Not After).');
    if (cert.issuer.trim() === '') throw validation('The certificate has no Issuer.');
    const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
    const dnsNames = (cert.subjectAltName ?? '')
      .split(/,\s*/)
      .filter((n) => n.startsWith('DNS:'))
      .map((n) => n.slice(4));
    const domainName = cn ?? dnsNames[0];
    if (!domainName)
      throw validation('The certificate names no domain (no CN, no DNS subject alternative name).');
    const replaced = typeof input.CertificateArn === 'string' ? input.CertificateArn : undefined;
    if (replaced !== undefined) {
      const old = this.certificates.get(replaced);
      if (!old)
        throw new JsonSimError('ResourceNotFoundException', `Could not find certificate ${replaced}.`);
      if (old.Type !== 'IMPORTED')
        throw validation(
          `Certificate ${replaced} was not imported: only an imported certificate can be reimported.`,
        );
    }
    const record: CertificateRecord = {
      CertificateArn: replaced ?? this.newArn(),
      DomainName: domainName,
      SubjectAlternativeNames: [domainName, ...dnsNames.filter((n) => n !== domainName)],
      Status: 'ISSUED',
      Type: 'IMPORTED',
      KeyAlgorithm: keyAlgorithm(cert),
      NotBefore: notBefore,
      NotAfter: notAfter,
      Issuer: cert.issuer,
    };
    this.certificates.set(record.CertificateArn, record);
    return { CertificateArn: record.CertificateArn };
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
    const { NotAfter, NotBefore, ...rest } = c;
    return {
      Certificate: {
        ...rest,
        SubjectAlternativeNames: [...c.SubjectAlternativeNames],
        // Timestamps are epoch seconds on this protocol.
        ...(NotAfter ? { NotAfter: NotAfter.getTime() / 1000 } : {}),
        ...(NotBefore ? { NotBefore: NotBefore.getTime() / 1000 } : {}),
      },
    };
  }
}

const validation = (message: string) => new JsonSimError('ValidationException', message);

/** ACM's KeyAlgorithm names (RSA_2048, EC_prime256v1, ...) for a certificate's public key. */
function keyAlgorithm(cert: X509Certificate): string {
  const details = cert.publicKey.asymmetricKeyDetails;
  if (cert.publicKey.asymmetricKeyType === 'rsa') return `RSA_${details?.modulusLength ?? 2048}`;
  const curve = details?.namedCurve;
  return curve === 'secp384r1' ? 'EC_secp384r1' : curve === 'secp521r1' ? 'EC_secp521r1' : 'EC_prime256v1';
}

export interface AcmSimulatorOptions extends JsonSimOptions {
  /** The most a ListCertificates page holds, whatever MaxItems asks (default 1000, ACM's). */
  maxPage?: number;
  /** The Region in its certificates' ARNs (ACM is regional: one simulator per Region; SIM_REGION by default). */
  region?: string;
}

export interface AcmSimulator extends JsonSimServer {
  readonly region: string;
  readonly state: AcmState;
}

export async function startAcmSimulator(options: AcmSimulatorOptions = {}): Promise<AcmSimulator> {
  const state = new AcmState(options.maxPage ?? 1000, options.region ?? SIM_REGION);
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
        ImportCertificate: (i) => state.importCertificate(i),
      },
    },
    options,
  );
  return { ...server, region: state.region, state };
}

/** A real ACM client pointed at the simulator, with dummy credentials. */
export function acmClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<ACMClientConfig> } = {},
): ACMClient {
  return new ACMClient({ ...(simClientConfig(sim, options) as ACMClientConfig), ...options.config });
}
