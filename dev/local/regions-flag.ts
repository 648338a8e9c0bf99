/** `npm start -- --regions us-east-1,eu-west-1`: the Regions of `--provider aws`, the primary first. */
import { REGION_NAME } from '../../lib/providers/aws/accelerator/keys.js';
import { SCENARIO_REGIONS } from './scenario.js';

/** More Regions is more simulators on a small machine, and nothing the walkthrough shows. */
export const MAX_REGIONS = 3;

/** The Regions `--regions` names (default: the scenario's two); a usage error is thrown as text. */
export function parseRegionsFlag(text: string | undefined): string[] {
  if (text === undefined) return [...SCENARIO_REGIONS];
  const regions = text.split(',').map((r) => r.trim());
  const usage = (why: string) =>
    new Error(
      `--regions ${JSON.stringify(text)}: ${why} (e.g. --regions us-east-1,eu-west-1; the first is the primary)`,
    );
  if (regions.some((r) => r === '')) throw usage('an empty Region name');
  for (const r of regions) if (!REGION_NAME.test(r)) throw usage(`"${r}" is not an AWS Region name`);
  const twice = regions.find((r, i) => regions.indexOf(r) !== i);
  if (twice) throw usage(`${twice} is named twice`);
  if (regions.length > MAX_REGIONS) throw usage(`at most ${MAX_REGIONS} Regions`);
  return regions;
}
