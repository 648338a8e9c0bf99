/**
 * SigV4 signing of the HTTP sink's requests with the SDK's signer (@smithy/signature-v4) and the
 * SDK's default credential chain (IRSA, instance role, environment...). A Lambda function URL with
 * `AWS_IAM` auth (serverless.yml's `http` function) only answers signed requests.
 */
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

type SourceData = string | ArrayBuffer | ArrayBufferView;

const bytes = (data: SourceData): Buffer =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/** The SDK's Checksum interface over node:crypto (what @smithy/hash-node does). */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(this.secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export interface SigningOptions {
  region: string;
  /** `lambda` for function URLs. */
  service?: string;
  credentials?: AwsCredentialIdentity | AwsCredentialIdentityProvider;
}

/** `<id>.lambda-url.<region>.on.aws` → the region; undefined for any other host. */
export function functionUrlRegion(url: string): string | undefined {
  const host = new URL(url).hostname;
  return /^[a-z0-9]+\.lambda-url\.([a-z0-9-]+)\.on\.aws$/.exec(host)?.[1];
}

export type RequestSigner = (url: URL, body: string) => Promise<Record<string, string>>;

export function createSigner(options: SigningOptions): RequestSigner {
  const signer = new SignatureV4({
    service: options.service ?? 'lambda',
    region: options.region,
    sha256: Sha256,
    credentials:
      options.credentials ??
      (async () => {
        // Loaded on first use: local runs without signing never evaluate the credential chain.
        const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
        return defaultProvider()();
      }),
  });
  return async (url, body) => {
    const signed = await signer.sign({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { host: url.host, 'content-type': 'application/json' },
      body,
    });
    // fetch sets Host itself (to url.host, the value signed).
    const { host: _host, ...headers } = signed.headers;
    return headers;
  };
}
