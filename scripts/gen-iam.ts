/**
 * `npx tsx scripts/gen-iam.ts`: writes the IAM documents generated from the code's calls:
 * - infra/iam/elbv2-policy.json: the provider's ELBv2 statements (lib/providers/aws/iam.ts) for
 *   operators who run the functions under a role of their own;
 * - infra/iam/function-roles.json: one role per function (infra/iam/function-roles.ts), which
 *   serverless.yml includes.
 * The owner ID and the other deployment values are Serverless parameters. test/unit/aws-iam.test.ts
 * checks the files are up to date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { elbv2PolicyDocument } from '../lib/providers/aws/iam.js';
import { functionRolesDocument, PARAMETERS } from '../infra/iam/function-roles.js';

/** The Serverless Framework parameter that holds the Karmada instance (kube-system's UID). */
export const INSTANCE_ID_PARAMETER = PARAMETERS.instanceId;

/** The Serverless Framework parameter that holds the provider configuration's `ownerId`. */
export const OWNER_ID_PARAMETER = PARAMETERS.ownerId;

export function policyDocument() {
  return elbv2PolicyDocument({ ownerId: OWNER_ID_PARAMETER, instanceId: INSTANCE_ID_PARAMETER });
}

export const GENERATED = {
  'infra/iam/elbv2-policy.json': policyDocument,
  'infra/iam/function-roles.json': functionRolesDocument,
} as const;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [path, make] of Object.entries(GENERATED)) {
    const out = fileURLToPath(new URL(`../${path}`, import.meta.url));
    // Formatted like the rest of the repository, so `prettier --check .` stays green.
    const text = await format(JSON.stringify(make()), { ...(await resolveConfig(out)), filepath: out });
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
