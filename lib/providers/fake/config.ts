import { parseYaml } from '../../util/yaml.js';
import * as z from 'zod/mini';
import { ProviderConfigError } from '../../errors.js';

const failureRule = z.object({
  /** Fail the next N calls of this method. */
  next: z.optional(z.int().check(z.minimum(0))),
  /** Fail each call with this probability (seeded, so runs are reproducible). */
  probability: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
  message: z.optional(z.string()),
  /** Only calls for this object (`namespace/name`) are affected. */
  object: z.optional(z.string()),
});

const methods = ['get', 'create', 'update', 'delete'] as const;

export const fakeConfigSchema = z.strictObject({
  /** Delay before each call answers, like upstream's RequestDelay. */
  requestDelayMs: z.optional(z.int().check(z.minimum(0))),
  /** Keep load balancers in this JSON file so that separate local invocations see each other's. */
  stateFile: z.optional(z.string().check(z.minLength(1))),
  seed: z.optional(z.int()),
  failures: z.optional(z.partialRecord(z.enum(methods), failureRule)),
});

export type FakeConfig = z.infer<typeof fakeConfigSchema>;
export type FakeMethod = (typeof methods)[number];
export type FailureRule = z.infer<typeof failureRule>;

export function parseFakeConfig(text: string | undefined): FakeConfig {
  if (text === undefined || text.trim() === '') return {};
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ProviderConfigError(`fake provider config is not valid YAML/JSON: ${(err as Error).message}`);
  }
  const res = fakeConfigSchema.safeParse(raw ?? {});
  if (!res.success) {
    const issue = res.error.issues[0];
    const path = issue?.path.join('.') || '(root)';
    throw new ProviderConfigError(`fake provider config: ${path}: ${issue?.message ?? 'invalid'}`);
  }
  return res.data;
}
