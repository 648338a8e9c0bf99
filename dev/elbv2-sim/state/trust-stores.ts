import type {
  CreateTrustStoreInput,
  CreateTrustStoreOutput,
  DeleteTrustStoreInput,
  DescribeTrustStoreAssociationsInput,
  DescribeTrustStoreAssociationsOutput,
  DescribeTrustStoresInput,
  DescribeTrustStoresOutput,
  GetTrustStoreCaCertificatesBundleInput,
  GetTrustStoreCaCertificatesBundleOutput,
  ModifyTrustStoreInput,
  ModifyTrustStoreOutput,
  TrustStore,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, quotaReached, required, validation } from '../errors.js';
import type { TrustStoreRecord } from './model.js';
import { paginate } from './store.js';
import type { Store } from './store.js';
import { applyTags, checkTagQuota } from './tags.js';
import { checkName, checkTags } from './validate.js';

// No S3 is simulated: the CA bundle's bucket and key are checked for shape and remembered, and
// the bundle is taken to hold one CA certificate.

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function checkBundle(bucket: string | undefined, key: string | undefined): { bucket: string; key: string } {
  if (!bucket) throw required('caCertificatesBundleS3Bucket');
  if (!key) throw required('caCertificatesBundleS3Key');
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    throw validation(`The S3 bucket name '${bucket}' is not valid`);
  if (key.length > 1024) throw validation('The S3 key must be at most 1024 characters');
  return { bucket, key };
}

export function renderTrustStore(ts: TrustStoreRecord): TrustStore {
  return {
    Name: ts.name,
    TrustStoreArn: ts.arn,
    Status: 'ACTIVE',
    NumberOfCaCertificates: 1,
    TotalRevokedEntries: 0,
  };
}

/** Listeners whose mutual authentication verifies clients against this trust store. */
export function listenersUsing(store: Store, arn: string): string[] {
  return [...store.listeners.values()]
    .filter((l) => l.mutualAuthentication?.TrustStoreArn === arn)
    .sort((a, b) => a.seq - b.seq)
    .map((l) => l.arn);
}

export function createTrustStore(store: Store, input: CreateTrustStoreInput): CreateTrustStoreOutput {
  const name = checkName(input.Name, 'trust store');
  const bundle = checkBundle(input.CaCertificatesBundleS3Bucket, input.CaCertificatesBundleS3Key);
  const tags = checkTags(input.Tags);
  checkTagQuota(store, tags);
  if ([...store.trustStores.values()].some((t) => t.name === name))
    throw new SimError('DuplicateTrustStoreName', `A trust store with the name '${name}' already exists`);
  if (store.trustStores.size >= store.limits.trustStores) {
    throw quotaReached('TooManyTrustStores', 'trust stores', store.limits.trustStores);
  }
  const record: TrustStoreRecord = {
    seq: store.nextSeq(),
    arn: store.arn(`truststore/${name}/${store.newHexId()}`),
    name,
    ...bundle,
    objectVersion: input.CaCertificatesBundleS3ObjectVersion,
  };
  store.trustStores.set(record.arn, record);
  if (tags.length > 0) applyTags(store, record.arn, tags);
  return { TrustStores: [renderTrustStore(record)] };
}

export function describeTrustStores(
  store: Store,
  input: DescribeTrustStoresInput,
): DescribeTrustStoresOutput {
  const arns = input.TrustStoreArns ?? [];
  const names = input.Names ?? [];
  if (arns.length > 0 && names.length > 0)
    throw validation('Trust store ARNs and names cannot be specified at the same time');
  let items = [...store.trustStores.values()];
  if (arns.length > 0) items = arns.map((arn) => store.trustStore(arn));
  else if (names.length > 0) {
    items = names.map((name) => {
      const ts = items.find((t) => t.name === name);
      if (!ts) throw new SimError('TrustStoreNotFound', `Trust store '${name}' not found`);
      return ts;
    });
  }
  const { page, nextMarker } = paginate([...new Set(items)], input.Marker, input.PageSize);
  return { TrustStores: page.map(renderTrustStore), NextMarker: nextMarker };
}

export function modifyTrustStore(store: Store, input: ModifyTrustStoreInput): ModifyTrustStoreOutput {
  const ts = store.trustStore(input.TrustStoreArn);
  Object.assign(ts, checkBundle(input.CaCertificatesBundleS3Bucket, input.CaCertificatesBundleS3Key));
  ts.objectVersion = input.CaCertificatesBundleS3ObjectVersion;
  return { TrustStores: [renderTrustStore(ts)] };
}

export function deleteTrustStore(store: Store, input: DeleteTrustStoreInput): Record<string, never> {
  const ts = store.trustStore(input.TrustStoreArn);
  const users = listenersUsing(store, ts.arn);
  if (users.length > 0) {
    throw new SimError(
      'TrustStoreInUse',
      `Trust store '${ts.arn}' is in use by listener '${users[0]}' and cannot be deleted`,
    );
  }
  store.trustStores.delete(ts.arn);
  store.deleteTags(ts.arn);
  return {};
}

export function describeTrustStoreAssociations(
  store: Store,
  input: DescribeTrustStoreAssociationsInput,
): DescribeTrustStoreAssociationsOutput {
  const ts = store.trustStore(input.TrustStoreArn);
  const all = listenersUsing(store, ts.arn).map((ResourceArn, i) => ({ seq: i + 1, ResourceArn }));
  const { page, nextMarker } = paginate(all, input.Marker, input.PageSize);
  return { TrustStoreAssociations: page.map(({ ResourceArn }) => ({ ResourceArn })), NextMarker: nextMarker };
}

export function getTrustStoreCaCertificatesBundle(
  store: Store,
  input: GetTrustStoreCaCertificatesBundleInput,
): GetTrustStoreCaCertificatesBundleOutput {
  const ts = store.trustStore(input.TrustStoreArn);
  const version = ts.objectVersion ? `?versionId=${encodeURIComponent(ts.objectVersion)}` : '';
  return { Location: `https://${ts.bucket}.s3.${store.region}.amazonaws.com/${encodeURI(ts.key)}${version}` };
}
