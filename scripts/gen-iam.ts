/**
 * `npx tsx scripts/gen-iam.ts`: writes infra/iam/elbv2-policy.json, the provider's minimal ELBv2
 * policy (lib/providers/aws/iam.ts), with the owner ID as a Serverless parameter so that
 * serverless.yml can use the statements as they are. test/unit/aws-iam.test.ts checks the file is
 * up to date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { elbv2PolicyDocument } from '../lib/providers/aws/iam.js';

/** The Serverless Framework parameter that holds the provider configuration's `ownerId`. */
export const OWNER_ID_PARAMETER = '${param:awsOwnerId}';

export function policyDocument() {
  return elbv2PolicyDocument(OWNER_ID_PARAMETER);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = fileURLToPath(new URL('../infra/iam/elbv2-policy.json', import.meta.url));
  // Formatted like the rest of the repository, so `prettier --check .` stays green.
  const text = await format(JSON.stringify(policyDocument()), {
    ...(await resolveConfig(out)),
    filepath: out,
  });
  writeFileSync(out, text);
  console.log(`wrote ${out}`);
}
