/**
 * The ACM reads of certificate discovery (LBC pkg/certs/cert_discovery.go): the Region's issued
 * certificates of every key type (ListCertificates returns only RSA_1024 and RSA_2048 ones unless
 * asked for the others), and each one's names (DescribeCertificate: its SubjectAlternativeNames,
 * which include its DomainName). Its own chunk in the function bundles (lazy-parts.ts): loaded
 * only by a container with a stack whose HTTPS listeners have no certificate-arn.
 */
// Costs nothing at run time (the factory is loaded before anything can load this chunk): it keeps
// esbuild from splitting the start set's chunks around what this one shares with them (full-path.ts).
import '../factory.js';
import {
  ACMClient,
  DescribeCertificateCommand,
  KeyAlgorithm,
  ListCertificatesCommand,
  type CertificateSummary,
} from '@aws-sdk/client-acm';
import type { AwsProviderConfig } from '../config-types.js';
import { call } from '../deploy/context.js';
import type { AcmApi } from './services.js';

/** ListCertificates' largest page. */
const PAGE_SIZE = 1000;

export function createAcmClient(
  config: Pick<AwsProviderConfig, 'region' | 'acmEndpoint' | 'maxAttempts'>,
): ACMClient {
  return new ACMClient({
    region: config.region,
    ...(config.acmEndpoint ? { endpoint: config.acmEndpoint } : {}),
    maxAttempts: config.maxAttempts,
  });
}

export function acmApi(client: ACMClient): AcmApi {
  return {
    async issuedCertificates(ctx) {
      const found: CertificateSummary[] = [];
      let token: string | undefined;
      do {
        const page = await call(
          ctx,
          'ListCertificates',
          (o) =>
            client.send(
              new ListCertificatesCommand({
                CertificateStatuses: ['ISSUED'],
                Includes: { keyTypes: Object.values(KeyAlgorithm) },
                MaxItems: PAGE_SIZE,
                ...(token ? { NextToken: token } : {}),
              }),
              o,
            ),
          'ACM',
        );
        found.push(...(page.CertificateSummaryList ?? []));
        token = page.NextToken;
      } while (token);
      return found.flatMap((c) => (c.CertificateArn ? [c.CertificateArn] : []));
    },
    async certificate(arn, ctx) {
      const out = await call(
        ctx,
        'DescribeCertificate',
        (o) => client.send(new DescribeCertificateCommand({ CertificateArn: arn }), o),
        'ACM',
      );
      const c = out.Certificate;
      return {
        names: c?.SubjectAlternativeNames ?? (c?.DomainName ? [c.DomainName] : []),
        imported: c?.Type === 'IMPORTED',
      };
    },
  };
}

export function configuredAcm(
  config: Pick<AwsProviderConfig, 'region' | 'acmEndpoint' | 'maxAttempts'>,
  client?: ACMClient,
): AcmApi {
  return acmApi(client ?? createAcmClient(config));
}
