/**
 * The token rotator's kubeconfigs in AWS Secrets Manager: its own, read and written
 * (GetSecretValue, PutSecretValue), and the functions', only written (PutSecretValue). Each
 * PutSecretValue makes a new AWSCURRENT version; the previous one stays as AWSPREVIOUS.
 */
import { PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { secretsManagerKubeconfig } from '../runtime/kubeconfig-secrets-manager.js';
import type { KubeconfigSecrets } from './token-rotation.js';

/** The Secrets Manager calls the rotator makes, as IAM names them (its role grants exactly these). */
export const TOKEN_ROTATOR_SECRET_ACTIONS = {
  own: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
  functions: ['secretsmanager:PutSecretValue'],
} as const;

export function secretsManagerKubeconfigs(client = new SecretsManagerClient({})): KubeconfigSecrets {
  return {
    read: (secretId) => secretsManagerKubeconfig(secretId, client).read(),
    async write(secretId, text) {
      await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: text }));
    },
  };
}
