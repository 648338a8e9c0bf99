import { describe, expect, it } from 'vitest';
import type { HTTPIngressPath } from '../../lib/karmada/types.js';
import { pathPatterns, ruleConditions, sortPaths } from '../../lib/providers/aws/model/rules.js';

const p = (path: string, pathType: HTTPIngressPath['pathType']): HTTPIngressPath => ({
  path,
  pathType,
  backend: { service: { name: 's', port: { number: 80 } } },
});

describe('Function: sortPaths', () => {
  it.each([
    {
      name: 'Exact first, then Prefix longest first, then ImplementationSpecific in order',
      input: [
        p('/is-b', 'ImplementationSpecific'),
        p('/a', 'Prefix'),
        p('/exact', 'Exact'),
        p('/is-a', 'ImplementationSpecific'),
        p('/abc', 'Prefix'),
      ],
      expected: ['/exact', '/abc', '/a', '/is-b', '/is-a'],
    },
    {
      name: 'equal-length prefixes keep their order (stable)',
      input: [p('/bb', 'Prefix'), p('/aa', 'Prefix'), p('/c', 'Prefix')],
      expected: ['/bb', '/aa', '/c'],
    },
    {
      name: 'several Exact paths keep their order',
      input: [p('/z', 'Exact'), p('/', 'Prefix'), p('/a', 'Exact')],
      expected: ['/z', '/a', '/'],
    },
  ])('$name', ({ input, expected }) => {
    expect(sortPaths(input).map((x) => x.path.path)).toStrictEqual(expected);
  });

  it('remembers the original index for error field paths', () => {
    expect(sortPaths([p('/a', 'Prefix'), p('/x', 'Exact')]).map((x) => x.index)).toStrictEqual([1, 0]);
  });
});

describe('Function: pathPatterns', () => {
  it.each([
    { path: '/p', type: 'Exact' as const, expected: ['/p'] },
    { path: '/p', type: 'Prefix' as const, expected: ['/p', '/p/*'] },
    { path: '/p/', type: 'Prefix' as const, expected: ['/p', '/p/*'] },
    { path: '/', type: 'Prefix' as const, expected: ['/*'] },
    { path: '/img/*.png', type: 'ImplementationSpecific' as const, expected: ['/img/*.png'] },
  ])('$type $path → $expected', ({ path, type, expected }) => {
    expect(pathPatterns(path, type, 'f')).toStrictEqual(expected);
  });

  it.each(['Exact', 'Prefix'] as const)('rejects wildcards in %s paths', (type) => {
    expect(() => pathPatterns('/a?', type, 'spec.x')).toThrow(/spec\.x: .*wildcards/);
  });
});

describe('Function: ruleConditions', () => {
  it.each([
    {
      name: 'host and path',
      host: 'a.example.com',
      path: p('/x', 'Exact'),
      expected: [
        { field: 'host-header', values: ['a.example.com'] },
        { field: 'path-pattern', values: ['/x'] },
      ],
    },
    {
      name: 'host only',
      host: 'a.example.com',
      path: p('', 'ImplementationSpecific'),
      expected: [{ field: 'host-header', values: ['a.example.com'] }],
    },
    {
      name: 'neither: match all',
      host: undefined,
      path: p('', 'ImplementationSpecific'),
      expected: [{ field: 'path-pattern', values: ['/*'] }],
    },
  ])('$name', ({ host, path, expected }) => {
    expect(ruleConditions(host, path, 'f')).toStrictEqual(expected);
  });
});
