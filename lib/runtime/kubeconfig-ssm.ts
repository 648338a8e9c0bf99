/**
 * The kubeconfig kept in SSM Parameter Store (KUBECONFIG_PARAMETER): a SecureString, decrypted. A
 * chunk of its own, with its SDK client, read only by containers configured for it.
 */
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import type { KubeconfigStore } from './kubeconfig-cache.js';

export function ssmKubeconfig(parameter: string, client = new SSMClient({})): KubeconfigStore {
  return {
    name: `parameter ${parameter}`,
    async read() {
      const out = await client.send(new GetParameterCommand({ Name: parameter, WithDecryption: true }));
      const value = out.Parameter?.Value;
      if (!value) throw new Error(`parameter ${parameter} has no value (the kubeconfig's text)`);
      return value;
    },
  };
}
