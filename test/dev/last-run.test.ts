/**
 * `npm start`'s memory of the last run (dev/local/last-run.ts) and its `--regions` flag: the
 * ports a restart asks for, and what a change of provider or Regions without --fresh is told.
 */
import { describe, expect, it } from 'vitest';
import { nextLastRun, switchNotice, wantedPorts, type LastRun } from '../../dev/local/last-run.js';
import { parseRegionsFlag } from '../../dev/local/regions-flag.js';

const TWO = ['us-east-1', 'eu-west-1'];

describe('wantedPorts', () => {
  it('a first run: 4566 for the first Region, the others next to it, Global Accelerator after them', () => {
    expect(wantedPorts({}, TWO)).toStrictEqual({ elbv2: { 'us-east-1': 4566, 'eu-west-1': 4567 }, ga: 4568 });
    expect(wantedPorts({}, ['us-east-1'])).toStrictEqual({ elbv2: { 'us-east-1': 4566 }, ga: 4567 });
  });

  it('a restart takes every saved port; --elbv2-port wins for the first Region', () => {
    const last: LastRun = {
      provider: 'aws',
      regions: TWO,
      elbv2Port: 5000,
      elbv2Ports: { 'us-east-1': 5000, 'eu-west-1': 41234 },
      gaPort: 41235,
    };
    expect(wantedPorts(last, TWO)).toStrictEqual({
      elbv2: { 'us-east-1': 5000, 'eu-west-1': 41234 },
      ga: 41235,
    });
    expect(wantedPorts(last, TWO, 6000).elbv2['us-east-1']).toBe(6000);
  });

  it('a run before Regions were recorded: its one port is us-east-1’s, and a new Region goes next to it', () => {
    const last: LastRun = { provider: 'aws', elbv2Port: 4600 };
    expect(wantedPorts(last, TWO)).toStrictEqual({
      elbv2: { 'us-east-1': 4600, 'eu-west-1': 4601 },
      ga: 4602,
    });
  });

  it('never asks for one port twice: a saved port the first Region now holds goes to the next free', () => {
    const last: LastRun = { elbv2Ports: { 'eu-west-1': 4566 }, gaPort: 4567 };
    expect(wantedPorts(last, TWO)).toStrictEqual({
      elbv2: { 'us-east-1': 4566, 'eu-west-1': 4567 },
      ga: 4568,
    });
  });
});

describe('nextLastRun', () => {
  it('records the Regions and ports, keeping the ports of Regions not served now', () => {
    const last: LastRun = {
      provider: 'aws',
      regions: TWO,
      elbv2Ports: { 'us-east-1': 4566, 'eu-west-1': 4567 },
    };
    expect(
      nextLastRun(last, 'aws', { regions: ['us-east-1'], elbv2Ports: { 'us-east-1': 4566 }, gaPort: 4568 }),
    ).toStrictEqual({
      provider: 'aws',
      regions: ['us-east-1'],
      elbv2Port: 4566,
      elbv2Ports: { 'us-east-1': 4566, 'eu-west-1': 4567 },
      gaPort: 4568,
    });
    // A fake run keeps what the aws run saved, for the next aws run.
    expect(nextLastRun(last, 'fake')).toStrictEqual({ ...last, provider: 'fake' });
  });
});

describe('switchNotice', () => {
  it('says nothing when neither the provider nor the Regions changed', () => {
    expect(switchNotice({ provider: 'aws', regions: TWO }, { provider: 'aws', regions: TWO }, '/s')).toEqual(
      [],
    );
    expect(switchNotice({}, { provider: 'aws', regions: TWO }, '/s')).toEqual([]);
  });

  it('aws to fake names every Region’s state file and the accelerators’', () => {
    const lines = switchNotice({ provider: 'aws', regions: TWO }, { provider: 'fake', regions: [] }, '/s');
    expect(lines[0]).toBe('switching from --provider aws to fake without --fresh; keeping:');
    expect(lines).toContain("  - the simulators' load balancers, not served while fake runs:");
    expect(lines).toContain('      us-east-1: /s/elbv2-state.json');
    expect(lines).toContain('      eu-west-1: /s/elbv2-eu-west-1-state.json');
    expect(lines).toContain("  - the simulator's accelerators (/s/ga-state.json), not served either;");
    expect(lines.at(-1)).toBe('  npm start -- --fresh starts over.');
  });

  it('one Region to two (a state directory from before Regions): the first Region’s state is served again', () => {
    const lines = switchNotice({ provider: 'aws', elbv2Port: 4566 }, { provider: 'aws', regions: TWO }, '/s');
    expect(lines[0]).toBe(
      'switching Regions from us-east-1 to us-east-1, eu-west-1 without --fresh; keeping:',
    );
    expect(lines).toContain('      us-east-1: /s/elbv2-state.json');
    expect(lines).toContain('      eu-west-1: /s/elbv2-eu-west-1-state.json (a Region new here)');
    expect(lines.join('\n')).toMatch(/now every MCI and MCS gets one over the Regions/);
  });

  it('two Regions to one: the dropped Region’s state is kept, not served; accelerators only where annotated', () => {
    const lines = switchNotice(
      { provider: 'aws', regions: TWO },
      { provider: 'aws', regions: ['us-east-1'] },
      '/s',
    );
    expect(lines).toContain('  - not served while it is not among --regions, left as it is:');
    expect(lines).toContain('      eu-west-1: /s/elbv2-eu-west-1-state.json');
    expect(lines.join('\n')).toMatch(/only objects annotated\n.*global-accelerator: "true" keep theirs/);
    // one Region reads no spec.region: nothing is left out (test/dev/local-one-region.test.ts runs it)
    expect(lines.join('\n')).not.toMatch(/left out/);
    expect(lines).toContain(
      "  - the Clusters as they are: with one Region their spec.region is not read, and every cluster's",
    );
  });

  it('one Region to two or three: a cluster in a Region not among --regions is reported and left out', () => {
    const lines = switchNotice(
      { provider: 'aws', regions: ['us-east-1'] },
      { provider: 'aws', regions: ['us-east-1', 'ap-south-1'] },
      '/s',
    );
    expect(lines.join('\n')).toMatch(
      /not among --regions is\n.*reported on each MCI and MCS and its endpoints left out/,
    );
  });

  it('fake to aws in other Regions than the last aws run: both changes are told', () => {
    const lines = switchNotice(
      { provider: 'fake', regions: ['us-east-1'] },
      { provider: 'aws', regions: TWO },
      '/s',
    );
    expect(lines[0]).toBe('switching from --provider fake to aws without --fresh; keeping:');
    expect(lines).toContain(
      'switching Regions from us-east-1 to us-east-1, eu-west-1 without --fresh; keeping:',
    );
    expect(lines.filter((l) => l.includes('--fresh starts over'))).toHaveLength(1);
  });
});

describe('--regions', () => {
  it('defaults to us-east-1 and eu-west-1, and takes a list, the primary first', () => {
    expect(parseRegionsFlag(undefined)).toEqual(['us-east-1', 'eu-west-1']);
    expect(parseRegionsFlag('eu-west-1')).toEqual(['eu-west-1']);
    expect(parseRegionsFlag('ap-south-1, us-east-1')).toEqual(['ap-south-1', 'us-east-1']);
  });

  it.each([
    ['us-east-1,,eu-west-1', 'an empty Region name'],
    ['us-east-1,Europe', '"Europe" is not an AWS Region name'],
    ['us-east-1,us-east-1', 'us-east-1 is named twice'],
    ['us-east-1,eu-west-1,ap-south-1,us-west-2', 'at most 3 Regions'],
  ])('refuses %s: %s', (flag, why) => {
    expect(() => parseRegionsFlag(flag)).toThrow(why);
  });
});
