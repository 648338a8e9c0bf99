import { describe, expect, it } from 'vitest';
import { breakdown, bucketSeconds, describeCalls, totalCalls } from '../../bench/elbv2-env.js';
import { consoleTable, formatValue, markdownTable, percentile, type Figure } from '../../bench/report.js';
import { lbcResyncDescribeCalls } from '../../bench/resync.js';

describe('Function: percentile', () => {
  const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

  it('takes the nearest rank, never interpolating', () => {
    expect(percentile(sorted, 50)).toBe(5);
    expect(percentile(sorted, 90)).toBe(9);
    expect(percentile(sorted, 99)).toBe(10);
    expect(percentile(sorted, 100)).toBe(10);
  });

  it('clamps to the first and last sample', () => {
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile(sorted, -5)).toBe(1);
    expect(percentile(sorted, 150)).toBe(10);
    expect(percentile([42], 99)).toBe(42);
  });

  it('is NaN without samples', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('Function: formatValue', () => {
  it('keeps integers and strings as they are, and rounds by magnitude', () => {
    expect(formatValue(12)).toBe('12');
    expect(formatValue('n/a')).toBe('n/a');
    expect(formatValue(123.456)).toBe('123');
    expect(formatValue(12.345)).toBe('12.3');
    expect(formatValue(1.2345)).toBe('1.23');
  });
});

describe('Function: markdownTable', () => {
  const figures: Figure[] = [
    { group: 'g', name: 'met one', value: 1, unit: 'calls', target: '≤ 2', met: true, anchor: 'LBC 7' },
    { group: 'g', name: 'a | pipe', value: 2.5, unit: 's', target: '≤ 1', met: false },
    { group: 'g', name: 'plain', value: 'n/a', unit: '' },
  ];

  it('renders a header, a separator and one row per figure', () => {
    expect(markdownTable(figures).split('\n')).toStrictEqual([
      '| area | figure | value | target | status | anchor |',
      '| --- | --- | --- | --- | --- | --- |',
      '| g | met one | 1 calls | ≤ 2 | met | LBC 7 |',
      '| g | a \\| pipe | 2.50 s | ≤ 1 | NOT met |  |',
      '| g | plain | n/a |  |  |  |',
    ]);
  });

  it('renders just the header for no figures', () => {
    expect(markdownTable([]).split('\n')).toHaveLength(2);
  });
});

describe('Function: consoleTable', () => {
  it('pads every column to its widest cell', () => {
    const lines = consoleTable([{ group: 'group', name: 'n', value: 10, unit: 'ms' }]).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.indexOf('figure')).toBe(lines[1]!.indexOf('n'));
    expect(lines[0]!.indexOf('value')).toBe(lines[1]!.indexOf('10 ms'));
  });
});

describe('Function: bucketSeconds', () => {
  it('lets the burst through free and the rest at the refill rate', () => {
    expect(bucketSeconds(0)).toBe(0);
    expect(bucketSeconds(40)).toBe(0);
    expect(bucketSeconds(50)).toBe(1);
    expect(bucketSeconds(1040)).toBe(100);
    expect(bucketSeconds(120, 20, 4)).toBe(25);
  });
});

describe('Function: describeCalls / totalCalls / breakdown', () => {
  const byAction = { CreateRule: 1, DescribeTags: 3, DescribeLoadBalancers: 2, AddTags: 1 };

  it('counts only Describe* toward the non-mutating budget', () => {
    expect(describeCalls(byAction)).toBe(5);
    expect(totalCalls(byAction)).toBe(7);
  });

  it('lists actions in the given order first, then the rest', () => {
    expect(breakdown(byAction, ['DescribeLoadBalancers', 'Missing'])).toBe(
      'DescribeLoadBalancers 2, CreateRule 1, DescribeTags 3, AddTags 1',
    );
    expect(breakdown({})).toBe('');
  });
});

describe('Function: lbcResyncDescribeCalls', () => {
  it('grows with the account size through the whole-account listings', () => {
    // 13 Describe* per Ingress with ≤ 400 of each resource, plus the first DescribeTags sweep.
    expect(lbcResyncDescribeCalls(100)).toBe(100 * 9 + 10);
    expect(lbcResyncDescribeCalls(1000)).toBe(1000 * 13 + 100);
  });
});
