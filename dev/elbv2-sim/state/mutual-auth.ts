import type { MutualAuthenticationAttributes, ProtocolEnum } from '@aws-sdk/client-elastic-load-balancing-v2';
import { SimError, validation } from '../errors.js';
import type { ListenerRecord } from './model.js';
import type { Store } from './store.js';
import { checkEnum } from './validate.js';

/**
 * A listener's MutualAuthentication (mTLS) as CreateListener/ModifyListener take it: HTTPS only;
 * `verify` needs an existing trust store, the other modes take none; at most
 * `verifyListenersPerLoadBalancer` listeners of one load balancer verify.
 */
export function normalizeMutualAuthentication(
  store: Store,
  lbArn: string,
  protocol: ProtocolEnum,
  input: MutualAuthenticationAttributes | undefined,
  except?: ListenerRecord,
): MutualAuthenticationAttributes | undefined {
  if (input === undefined) return undefined;
  if (protocol !== 'HTTPS') throw validation('Mutual authentication is supported only for HTTPS listeners');
  const mode = input.Mode ?? 'off';
  checkEnum(mode, 'mutualAuthentication.mode', ['off', 'passthrough', 'verify']);
  checkEnum(input.AdvertiseTrustStoreCaNames, 'mutualAuthentication.advertiseTrustStoreCaNames', [
    'on',
    'off',
  ]);
  if (mode !== 'verify') {
    if (
      input.TrustStoreArn ||
      input.IgnoreClientCertificateExpiry ||
      input.AdvertiseTrustStoreCaNames === 'on'
    ) {
      throw validation(
        `A trust store, IgnoreClientCertificateExpiry and AdvertiseTrustStoreCaNames apply only to mode 'verify'`,
      );
    }
    return { Mode: mode };
  }
  if (!input.TrustStoreArn) throw validation(`A trust store ARN must be specified for mode 'verify'`);
  const ts = store.trustStore(input.TrustStoreArn, 'mutualAuthentication.trustStoreArn');
  const verifying = store
    .listenersOf(lbArn)
    .filter((l) => l !== except && l.mutualAuthentication?.Mode === 'verify').length;
  if (verifying >= store.limits.verifyListenersPerLoadBalancer) {
    throw new SimError(
      'TooManyListeners',
      `The maximum number of listeners in mutual TLS verify mode per load balancer ` +
        `'${store.limits.verifyListenersPerLoadBalancer}' has been reached`,
    );
  }
  return {
    Mode: 'verify',
    TrustStoreArn: ts.arn,
    IgnoreClientCertificateExpiry: input.IgnoreClientCertificateExpiry ?? false,
    AdvertiseTrustStoreCaNames: input.AdvertiseTrustStoreCaNames ?? 'off',
  };
}

/** What Describe* reports: HTTPS listeners always say their mode (`off` unless configured). */
export function renderMutualAuthentication(l: ListenerRecord): MutualAuthenticationAttributes | undefined {
  if (l.protocol !== 'HTTPS') return undefined;
  return l.mutualAuthentication ? { ...l.mutualAuthentication } : { Mode: 'off' };
}
