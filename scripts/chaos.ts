/**
 * `npm run chaos -- [--profile short|long] [--seeds N] [--seed S] [--source forwarder|watch-loop] [--log-level L]`
 *
 * Runs the chaos convergence suite (test/chaos) for one seed or for N seeds (1..N), prints the
 * figures of each run, and exits non-zero if any run leaked, missed or left something stuck,
 * naming the seed to replay.
 */
import { parseArgs } from 'node:util';
import { profileNamed } from '../test/chaos/profile.js';
import { formatFigures, passed } from '../test/chaos/report.js';
import { runChaos } from '../test/chaos/run.js';
import type { SourceKind } from '../test/chaos/notification-source.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'long' },
    seeds: { type: 'string' },
    seed: { type: 'string' },
    from: { type: 'string', default: '1' },
    source: { type: 'string' },
    'log-level': { type: 'string' },
  },
});

const profile = profileNamed(values.profile ?? 'long');
const seeds = values.seed
  ? [Number(values.seed)]
  : Array.from({ length: Number(values.seeds ?? '1') }, (_, i) => Number(values.from) + i);
if (seeds.some((s) => !Number.isInteger(s))) throw new Error('--seed/--seeds/--from must be integers');

const failed: number[] = [];
for (const seed of seeds) {
  const figures = await runChaos({
    seed,
    profile,
    ...(values.source ? { source: values.source as SourceKind } : {}),
    ...(values['log-level'] ? { logLevel: values['log-level'] } : {}),
    progress: (line) => console.error(line),
  });
  console.log(formatFigures(figures, 50));
  if (!passed(figures)) failed.push(seed);
}
console.log(
  failed.length
    ? `FAILED seeds: ${failed.join(', ')} (replay one with: npm run chaos -- --profile ${profile.name} --seed ${failed[0]})`
    : `all ${seeds.length} seed(s) passed`,
);
process.exit(failed.length ? 1 : 0);
