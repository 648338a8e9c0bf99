/**
 * Which Karmada this deployment serves, and the checks that keep two deployments in one account
 * apart. Ownership used to be the `owner` tag alone, so two Karmadas deployed with the same
 * ownerId (the same stage, before ownerId had no default) each saw the other's load balancers as
 * their own, and each hourly sweep deleted the other's as orphans. Now:
 * - the Karmada instance is the UID of the `kube-system` namespace on its API server (assigned by
 *   the API server when the cluster was created, the same for every client, unforgeable by
 *   configuration), tagged on every resource (`multicluster.karmada.io/instance`) and required by
 *   ownership, the sweep and IAM;
 * - the deployment's awsOwnerId (AWS_OWNER_ID) must equal the configuration's ownerId, and its
 *   karmadaInstanceId (KARMADA_INSTANCE_ID, what IAM pins) must equal the instance the kubeconfig
 *   reaches;
 * - the owner ID is claimed in the account (owner-claim.ts) before the first ELBv2 call.
 */
import { ProviderConfigError } from '../../errors.js';
import type { KubeClient } from '../../kube/client.js';
import { Resources } from '../../kube/resources.js';

export interface DeploymentIdentity {
  ownerId: string;
  /** Undefined only where no `kube-system` namespace exists (local API stand-ins) and none is deployed. */
  instanceId?: string;
}

/** The UID of `kube-system` on the Karmada API server, or undefined when it has none. */
export async function karmadaInstanceId(kube: KubeClient): Promise<string | undefined> {
  const ns = await kube.get(Resources.Namespace, undefined, 'kube-system');
  return ns?.metadata.uid || undefined;
}

export interface DeployedValues {
  /** serverless.yml's awsOwnerId (AWS_OWNER_ID). */
  ownerId?: string;
  /** serverless.yml's karmadaInstanceId (KARMADA_INSTANCE_ID). */
  instanceId?: string;
}

export function deployedValues(env: NodeJS.ProcessEnv): DeployedValues {
  const ownerId = env.AWS_OWNER_ID?.trim();
  const instanceId = env.KARMADA_INSTANCE_ID?.trim();
  return { ...(ownerId ? { ownerId } : {}), ...(instanceId ? { instanceId } : {}) };
}

/** Checks the configuration and the Karmada reached against what was deployed. Throws ProviderConfigError. */
export async function deploymentIdentity(
  configuredOwnerId: string,
  kube: KubeClient,
  deployed: DeployedValues,
): Promise<DeploymentIdentity> {
  if (deployed.ownerId !== undefined && deployed.ownerId !== configuredOwnerId) {
    throw new ProviderConfigError(
      `the provider configuration's ownerId "${configuredOwnerId}" is not the deployed awsOwnerId "${deployed.ownerId}": the IAM roles only allow resources tagged with the deployed one; make them equal`,
    );
  }
  const discovered = await karmadaInstanceId(kube);
  if (deployed.instanceId !== undefined) {
    if (discovered === undefined) {
      throw new ProviderConfigError(
        'cannot identify the Karmada instance: the kubeconfig reaches an API server without a kube-system namespace (or one the functions may not read)',
      );
    }
    if (discovered !== deployed.instanceId) {
      throw new ProviderConfigError(
        `this deployment was deployed for the Karmada instance ${deployed.instanceId} (karmadaInstanceId) but its kubeconfig reaches the instance ${discovered}: it refuses to manage another Karmada's load balancers`,
      );
    }
  }
  return { ownerId: configuredOwnerId, ...(discovered ? { instanceId: discovered } : {}) };
}
