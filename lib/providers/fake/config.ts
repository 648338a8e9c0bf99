import { ProviderConfigError } from '../../errors.js';
import { validateFakeConfigSchema } from '../../generated/fake-config-validator.js';
import { parseYaml } from '../../util/yaml.js';
import { configIssues } from '../config-issues.js';
import type { FAKE_METHODS } from './config-schema.js';

export type FakeMethod = (typeof FAKE_METHODS)[number];

export interface FailureRule {
  /** Fail the next N calls of this method. */
  next?: number;
  /** Fail each call with this probability (seeded, so runs are reproducible). */
  probability?: number;
  message?: string;
  /** Only calls for this object (`namespace/name`) are affected. */
  object?: string;
}

/** The fake provider's configuration file, as config-schema.ts admits it. */
export interface FakeConfig {
  /** Delay before each call answers, like upstream's RequestDelay. */
  requestDelayMs?: number;
  /** Keep load balancers in this JSON file so that separate local invocations see each other's. */
  stateFile?: string;
  seed?: number;
  failures?: Partial<Record<FakeMethod, FailureRule>>;
}

export function parseFakeConfig(text: string | undefined): FakeConfig {
  if (text === undefined || text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ProviderConfigError(`fake provider config is not valid YAML/JSON: ${(err as Error).message}`);
  }
  const config = raw ?? {};
  const [first] = configIssues(validateFakeConfigSchema, config, {});
  if (first) throw new ProviderConfigError(`fake provider config: ${first}`);
  return config as FakeConfig;
}
