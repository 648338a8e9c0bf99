/**
 * `npx tsx scripts/gen-iam.ts`: writes the IAM documents generated from the code's calls:
 * - infra/iam/elbv2-policy.json: the provider's ELBv2 statements (lib/providers/aws/iam.ts) for
 *   operators who run the functions under a role of their own;
 * - infra/iam/function-roles.json: one role per function (infra/iam/function-roles.ts), which
 *   serverless.yml includes.
 * The owner ID and the other deployment values are Serverless parameters. test/unit/aws-iam.test.ts
 * checks the files are up to date.
 *
 * A multi-Region configuration (`regions:` in the provider configuration) needs its Regions in
 * the regional ARNs: `npx tsx scripts/gen-iam.ts --config cloud.yaml` (or `--regions
 * us-east-1,eu-west-1`) writes the same files with each ELBv2, EC2, WAFv2 and ACM ARN once per
 * configured Region instead of the deployment's own Region.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parseAwsConfig } from '../lib/providers/aws/config.js';
import { elbv2PolicyDocument } from '../lib/providers/aws/iam.js';
import { functionRolesDocument, PARAMETERS } from '../infra/iam/function-roles.js';

/** The Serverless Framework parameter that holds the Karmada instance (kube-system's UID). */
export const INSTANCE_ID_PARAMETER = PARAMETERS.instanceId;

/** The Serverless Framework parameter that holds the provider configuration's `ownerId`. */
export const OWNER_ID_PARAMETER = PARAMETERS.ownerId;

export function policyDocument(regions?: readonly string[]) {
  return elbv2PolicyDocument({
    ownerId: OWNER_ID_PARAMETER,
    instanceId: INSTANCE_ID_PARAMETER,
    ...(regions ? { regions } : {}),
  });
}

export const GENERATED = {
  'infra/iam/elbv2-policy.json': policyDocument,
  'infra/iam/function-roles.json': functionRolesDocument,
} as const;

/** The Regions `--regions a,b` or `--config <file>` (its `regions:`) name; undefined: the deployment's. */
async function regionsFromArgs(args: readonly string[]): Promise<string[] | undefined> {
  const { values } = parseArgs({
    args,
    options: { regions: { type: 'string' }, config: { type: 'string' } },
  });
  if (values.regions)
    return values.regions
      .split(',')
      .map((r) => r.trim())
      .filter(Boolean);
  if (!values.config) return undefined;
  const config = await parseAwsConfig(readFileSync(values.config, 'utf8'));
  return config.regions?.map((r) => r.region);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const regions = await regionsFromArgs(process.argv.slice(2));
  for (const [path, make] of Object.entries(GENERATED)) {
    const out = fileURLToPath(new URL(`../${path}`, import.meta.url));
    // Formatted like the rest of the repository, so `prettier --check .` stays green.
    const text = await format(JSON.stringify(make(regions)), {
      ...(await resolveConfig(out)),
      filepath: out,
    });
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
