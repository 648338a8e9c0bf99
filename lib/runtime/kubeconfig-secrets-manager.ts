/**
 * The kubeconfig kept in AWS Secrets Manager (KUBECONFIG_SECRET_ID): its `SecretString`, YAML or
 * JSON. A chunk of its own, with its SDK client, read only by containers configured for it.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { KubeconfigStore } from './kubeconfig-cache.js';

export function secretsManagerKubeconfig(
  secretId: string,
  client = new SecretsManagerClient({}),
): KubeconfigStore {
  return {
    name: `secret ${secretId}`,
    async read() {
      const out = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
      if (!out.SecretString)
        throw new Error(`secret ${secretId} has no SecretString (the kubeconfig's text)`);
      return out.SecretString;
    },
  };
}
