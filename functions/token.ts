/**
 * Scheduled token rotation (EventBridge): a new short-lived Karmada token for the functions,
 * through the TokenRequest API, written into their kubeconfig secret; then the rotator's own.
 */
import {
  rotateTokens,
  loadTokenRotationConfig,
  type TokenRotationResult,
} from '../lib/maintenance/token-rotation.js';
import { secretsManagerKubeconfigs } from '../lib/maintenance/token-secrets.js';
import {
  KUBECONFIG_CACHE_MS,
  KUBECONFIG_EXPIRY_MARGIN_MS,
  lambdaHandler,
  logger,
} from '../lib/runtime/lambda.js';

const secrets = secretsManagerKubeconfigs();

export const handler = lambdaHandler<unknown, TokenRotationResult>(
  async () =>
    rotateTokens(
      secrets,
      loadTokenRotationConfig(process.env, {
        cacheSeconds: KUBECONFIG_CACHE_MS / 1000,
        marginSeconds: KUBECONFIG_EXPIRY_MARGIN_MS / 1000,
      }),
      logger,
    ),
  { kubeconfig: false },
);
