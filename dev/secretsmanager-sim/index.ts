/**
 * The Secrets Manager simulator, for the kubeconfig secrets the functions read and the token
 * rotator writes: CreateSecret, GetSecretValue and PutSecretValue on Secrets Manager's wire
 * protocol (awsJson1_1, `secretsmanager.*`) for the real @aws-sdk/client-secrets-manager. A
 * secret is found by its name or its ARN (`secret:<name>-<6 random characters>`); PutSecretValue
 * makes a new AWSCURRENT version and moves AWSPREVIOUS to the version it replaced, and an unknown
 * secret is ResourceNotFoundException, as Secrets Manager answers. Every call is logged with the
 * secret's ARN (`state.log`), for tests that hold a role to the secrets a function really touched.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { SecretsManagerClient, type SecretsManagerClientConfig } from '@aws-sdk/client-secrets-manager';
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

export const SECRETS_MANAGER_TARGET_PREFIX = 'secretsmanager';

interface Version {
  id: string;
  value: string;
  stages: string[];
  created: number;
}

export interface SecretRecord {
  arn: string;
  name: string;
  versions: Version[];
}

const SUFFIX_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const suffix = (): string => [...randomBytes(6)].map((b) => SUFFIX_CHARS[b % SUFFIX_CHARS.length]).join('');

export class SecretsManagerState {
  readonly secrets = new Map<string, SecretRecord>();
  /** Every answered call: its action and the ARN of the secret it named. */
  readonly log: Array<{ action: string; arn: string }> = [];

  /** A secret with a first AWSCURRENT version (a fixture, or CreateSecret). */
  create(name: string, value: string): SecretRecord {
    if ([...this.secrets.values()].some((s) => s.name === name)) {
      throw new JsonSimError(
        'ResourceExistsException',
        `The operation failed because the secret ${name} already exists.`,
      );
    }
    const arn = `arn:aws:secretsmanager:${SIM_REGION}:${SIM_ACCOUNT_ID}:secret:${name}-${suffix()}`;
    const secret: SecretRecord = {
      arn,
      name,
      versions: [{ id: randomUUID(), value, stages: ['AWSCURRENT'], created: Date.now() }],
    };
    this.secrets.set(arn, secret);
    return secret;
  }

  /** By ARN or by name, as SecretId may give either. */
  find(secretId: string): SecretRecord {
    const secret = this.secrets.get(secretId) ?? [...this.secrets.values()].find((s) => s.name === secretId);
    if (!secret)
      throw new JsonSimError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return secret;
  }

  /** The AWSCURRENT value (for test assertions). */
  current(secretId: string): string {
    return this.find(secretId).versions.find((v) => v.stages.includes('AWSCURRENT'))!.value;
  }

  get(input: JsonInput): object {
    const secret = this.find(requiredString(input, 'SecretId'));
    this.log.push({ action: 'GetSecretValue', arn: secret.arn });
    const stage = typeof input.VersionStage === 'string' ? input.VersionStage : 'AWSCURRENT';
    const version = secret.versions.find((v) =>
      typeof input.VersionId === 'string' ? v.id === input.VersionId : v.stages.includes(stage),
    );
    if (!version) {
      throw new JsonSimError(
        'ResourceNotFoundException',
        "Secrets Manager can't find the specified secret value for staging label: " + stage,
      );
    }
    return {
      ARN: secret.arn,
      Name: secret.name,
      VersionId: version.id,
      SecretString: version.value,
      VersionStages: version.stages,
      CreatedDate: version.created / 1000,
    };
  }

  put(input: JsonInput): object {
    const secret = this.find(requiredString(input, 'SecretId'));
    this.log.push({ action: 'PutSecretValue', arn: secret.arn });
    const value = requiredString(input, 'SecretString');
    const id = typeof input.ClientRequestToken === 'string' ? input.ClientRequestToken : randomUUID();
    const same = secret.versions.find((v) => v.id === id);
    // An idempotent retry of the same request changes nothing.
    if (same) {
      if (same.value !== value) {
        throw new JsonSimError(
          'ResourceExistsException',
          'You can’t modify an existing version, you can only create a new version.',
        );
      }
      return { ARN: secret.arn, Name: secret.name, VersionId: id, VersionStages: same.stages };
    }
    for (const v of secret.versions) v.stages = v.stages.filter((s) => s !== 'AWSPREVIOUS');
    for (const v of secret.versions) {
      if (v.stages.includes('AWSCURRENT'))
        v.stages = v.stages.filter((s) => s !== 'AWSCURRENT').concat('AWSPREVIOUS');
    }
    secret.versions = secret.versions.filter((v) => v.stages.length > 0);
    secret.versions.push({ id, value, stages: ['AWSCURRENT'], created: Date.now() });
    return { ARN: secret.arn, Name: secret.name, VersionId: id, VersionStages: ['AWSCURRENT'] };
  }
}

export interface SecretsManagerSimulator extends JsonSimServer {
  readonly region: string;
  readonly state: SecretsManagerState;
}

export async function startSecretsManagerSimulator(
  options: JsonSimOptions = {},
): Promise<SecretsManagerSimulator> {
  const state = new SecretsManagerState();
  const server = await startJsonSimServer(
    {
      targetPrefix: SECRETS_MANAGER_TARGET_PREFIX,
      faultCodes: {
        throttle: 'ThrottlingException',
        internal: 'InternalServiceError',
        unavailable: 'ServiceUnavailable',
      },
      actions: {
        CreateSecret: (i) => {
          const s = state.create(requiredString(i, 'Name'), requiredString(i, 'SecretString'));
          state.log.push({ action: 'CreateSecret', arn: s.arn });
          return { ARN: s.arn, Name: s.name, VersionId: s.versions[0]!.id };
        },
        GetSecretValue: (i) => state.get(i),
        PutSecretValue: (i) => state.put(i),
      },
    },
    options,
  );
  return { ...server, region: SIM_REGION, state };
}

/** A real Secrets Manager client pointed at the simulator, with dummy credentials. */
export function secretsManagerClientFor(
  sim: { url: string; region: string },
  options: SimClientOptions & { config?: Partial<SecretsManagerClientConfig> } = {},
): SecretsManagerClient {
  return new SecretsManagerClient({
    ...(simClientConfig(sim, options) as SecretsManagerClientConfig),
    ...options.config,
  });
}
