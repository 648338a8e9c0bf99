/**
 * `npx tsx scripts/gen-iam.ts`: writes the IAM documents generated from the code's calls for a
 * deployment without a provider configuration (the deployment's own Region, no Global Accelerator,
 * any VPC), the committed ones:
 * - infra/iam/elbv2-policy.json: the provider's ELBv2 statements (lib/providers/aws/iam.ts);
 * - infra/iam/function-roles.json: one role per function (infra/iam/function-roles.ts), which
 *   serverless.yml includes for the fake provider.
 * The owner ID and the other deployment values are Serverless parameters. test/unit/aws-iam.test.ts
 * checks the files are up to date.
 *
 * A deployment of the aws provider needs the documents of its own configuration (its Regions, its
 * VPCs, Global Accelerator if configured): `osls package` generates its roles from `cloudConfig`
 * itself. For operators who run the functions under a role of their own,
 * `npx tsx scripts/gen-iam.ts --config config/aws.yaml --out <dir>` writes the same two files for
 * that configuration into <dir>, never over the committed ones.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parseAwsConfig } from '../lib/providers/aws/config.js';
import { elbv2PolicyDocument } from '../lib/providers/aws/iam.js';
import {
  functionRolesDocument,
  PARAMETERS,
  roleOptionsOf,
  type RoleOptions,
} from '../infra/iam/function-roles.js';

/** The Serverless Framework parameter that holds the Karmada instance (kube-system's UID). */
export const INSTANCE_ID_PARAMETER = PARAMETERS.instanceId;

/** The Serverless Framework parameter that holds the provider configuration's `ownerId`. */
export const OWNER_ID_PARAMETER = PARAMETERS.ownerId;

export function policyDocument(options: RoleOptions = {}) {
  return elbv2PolicyDocument({
    ownerId: OWNER_ID_PARAMETER,
    instanceId: INSTANCE_ID_PARAMETER,
    ...options,
  });
}

export const GENERATED = {
  'infra/iam/elbv2-policy.json': policyDocument,
  'infra/iam/function-roles.json': (options?: RoleOptions) => functionRolesDocument(options),
} as const;

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The documents for `--config <file>` into `--out <dir>`, or the committed ones without either. */
async function targets(args: readonly string[]): Promise<{ dir: string; options: RoleOptions }> {
  const { values } = parseArgs({ args, options: { config: { type: 'string' }, out: { type: 'string' } } });
  if (!values.config) {
    if (values.out)
      throw new Error('--out goes with --config (the committed files are written without either)');
    return { dir: ROOT, options: {} };
  }
  if (!values.out)
    throw new Error('--config needs --out <dir>: the committed files under infra/iam/ stay as they are');
  const dir = resolve(values.out);
  if (dir === resolve(ROOT, 'infra/iam')) {
    throw new Error(`--out ${values.out} would overwrite the committed files: choose another directory`);
  }
  return { dir, options: roleOptionsOf(await parseAwsConfig(readFileSync(values.config, 'utf8'))) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { dir, options } = await targets(process.argv.slice(2));
  for (const [path, make] of Object.entries(GENERATED)) {
    const out = dir === ROOT ? join(ROOT, path) : join(dir, path.split('/').pop()!);
    mkdirSync(resolve(out, '..'), { recursive: true });
    // Formatted like the rest of the repository, so `prettier --check .` stays green.
    const text = await format(JSON.stringify(make(options)), {
      ...(await resolveConfig(join(ROOT, path))),
      filepath: out,
    });
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
