/**
 * What the last `npm start` in a state directory used (last-run.json): its provider, its Regions
 * and the simulators' ports. A restart takes the same ports (an `aws --endpoint-url` command from
 * the last banner still works), and a change of provider or Regions without --fresh is told with
 * what it keeps. Pure apart from reading the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SIM_REGION } from '../elbv2-sim/config.js';
import { apiObjectsFile, elbv2StateFile } from './pipeline.js';

export interface LastRun {
  provider?: string;
  /** The primary Region's ELBv2 simulator port (before Regions were recorded, the only one). */
  elbv2Port?: number;
  /** The last `--provider aws` run's Regions, the primary first (kept through fake runs). */
  regions?: string[];
  /** Every Region's ELBv2 simulator port any run used here. */
  elbv2Ports?: Record<string, number>;
  gaPort?: number;
}

/** The first Region's ELBv2 port when nothing chooses another. */
export const DEFAULT_ELBV2_PORT = 4566;

export function readLastRun(file: string): LastRun {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LastRun) : {};
}

/** The Regions whose simulators' state the directory holds (a run before Regions: SIM_REGION's). */
export function lastRegions(last: LastRun): string[] {
  if (last.regions) return last.regions;
  return last.provider === 'aws' || last.elbv2Port !== undefined ? [SIM_REGION] : [];
}

function savedPorts(last: LastRun): Record<string, number> {
  if (last.elbv2Ports) return last.elbv2Ports;
  const [primary] = lastRegions(last);
  return last.elbv2Port !== undefined && primary ? { [primary]: last.elbv2Port } : {};
}

export interface WantedPorts {
  /** By Region. */
  elbv2: Record<string, number>;
  ga: number;
}

/**
 * The ports to ask for: each Region's from the last run; the first Region's else `--elbv2-port`
 * (which wins over the saved one) or 4566, the others' next to it, and Global Accelerator's after
 * them. Never the same port twice; a port taken by something else is the pipeline's to replace.
 */
export function wantedPorts(last: LastRun, regions: readonly string[], explicitFirst?: number): WantedPorts {
  const saved = savedPorts(last);
  const used = new Set<number>();
  const first =
    explicitFirst ?? (regions[0] !== undefined ? saved[regions[0]] : undefined) ?? DEFAULT_ELBV2_PORT;
  let next = first;
  const take = (port: number | undefined): number => {
    if (port === undefined || used.has(port)) {
      while (used.has(next)) next++;
      port = next;
    }
    used.add(port);
    return port;
  };
  const elbv2: Record<string, number> = {};
  regions.forEach((region, i) => {
    elbv2[region] = take(i === 0 ? first : saved[region]);
  });
  return { elbv2, ga: take(last.gaPort) };
}

/** The last-run.json of this run: what it used, over what earlier runs saved. */
export function nextLastRun(
  last: LastRun,
  provider: string,
  used?: { regions: readonly string[]; elbv2Ports: Record<string, number>; gaPort: number },
): LastRun {
  if (!used) return { ...last, provider };
  return {
    provider,
    regions: [...used.regions],
    elbv2Port: used.elbv2Ports[used.regions[0]!]!,
    elbv2Ports: { ...savedPorts(last), ...used.elbv2Ports },
    gaPort: used.gaPort,
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What a start without --fresh keeps when the provider or the Regions changed since the last run
 * (no lines when neither did). `regions`: this run's, for `--provider aws`.
 */
export function switchNotice(
  last: LastRun,
  now: { provider: string; regions: readonly string[] },
  stateDir: string,
): string[] {
  const lines: string[] = [];
  const before = lastRegions(last);
  const file = (region: string) => `${region}: ${elbv2StateFile(stateDir, region)}`;
  const accelerators = join(stateDir, 'ga-state.json');
  if (last.provider && last.provider !== now.provider) {
    lines.push(`switching from --provider ${last.provider} to ${now.provider} without --fresh; keeping:`);
    lines.push(
      `  - the API objects (${apiObjectsFile(stateDir)}): MCIs and MCSs keep their finalizers,`,
      `    and their status.loadBalancer changes to ${now.provider}'s load balancers as they are reconciled;`,
    );
    if (last.provider === 'fake') {
      lines.push(
        `  - fake's load balancers (${join(stateDir, 'fake-load-balancers.json')}), left as they are;`,
      );
    } else {
      lines.push(`  - the simulators' load balancers, not served while ${now.provider} runs:`);
      for (const region of before) lines.push(`      ${file(region)}`);
      lines.push(`  - the simulator's accelerators (${accelerators}), not served either;`);
    }
  }
  if (now.provider === 'aws' && before.length > 0 && !sameList(before, now.regions)) {
    lines.push(
      `switching Regions from ${before.join(', ')} to ${now.regions.join(', ')} without --fresh; keeping:`,
      '  - served, each Region its own simulator and state file:',
    );
    for (const region of now.regions)
      lines.push(`      ${file(region)}${before.includes(region) ? '' : ' (a Region new here)'}`);
    const dropped = before.filter((r) => !now.regions.includes(r));
    if (dropped.length > 0) {
      lines.push('  - not served while it is not among --regions, left as it is:');
      for (const region of dropped) lines.push(`      ${file(region)}`);
    }
    // As the provider serves them: one Region is the one-Region configuration, which reads no
    // spec.region and puts every cluster behind its one load balancer (README, "Clusters in
    // several Regions"); over several, a Region not configured is reported and served nowhere.
    lines.push(
      ...(now.regions.length === 1
        ? [
            `  - the Clusters as they are: with one Region their spec.region is not read, and every cluster's`,
            `    endpoints go to ${now.regions[0]}'s load balancers (those outside its VPC as AvailabilityZone all targets);`,
          ]
        : [
            '  - the Clusters as they are, with their spec.region: a cluster in a Region not among --regions is',
            '    reported on each MCI and MCS and its endpoints left out (kubectl edit cluster <name> moves it);',
          ]),
    );
    if (before.length === 1 && now.regions.length > 1)
      lines.push(
        `  - the accelerators (${accelerators}): now every MCI and MCS gets one over the Regions (annotated`,
        '    multicluster.karmada.io/global-accelerator: "false", it does not);',
      );
    if (before.length > 1 && now.regions.length === 1)
      lines.push(
        `  - the accelerators (${accelerators}): with one Region only objects annotated`,
        '    multicluster.karmada.io/global-accelerator: "true" keep theirs; the others are deleted as they are reconciled;',
      );
  }
  if (lines.length > 0) lines.push('  npm start -- --fresh starts over.');
  return lines;
}
