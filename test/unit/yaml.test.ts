import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../lib/util/yaml.js';

describe('Function: parseYaml (the one YAML parser of the bundles)', () => {
  it('reads YAML and JSON alike', () => {
    expect(parseYaml('a: 1\nb: [x, "y"]\n')).toEqual({ a: 1, b: ['x', 'y'] });
    expect(parseYaml('{"a": 1, "b": ["x", "y"]}')).toEqual({ a: 1, b: ['x', 'y'] });
  });

  it('keeps dates and merge keys as plain data (YAML 1.2 core schema, as kubectl)', () => {
    expect(parseYaml('when: 2024-01-01\n<<: x\n')).toEqual({ when: '2024-01-01', '<<': 'x' });
  });

  it('rejects a duplicated key and broken syntax, naming line and column', () => {
    expect(() => parseYaml('a: 1\na: 2\n')).toThrow(/duplicated mapping key \(2:1\)/);
    expect(() => parseYaml('a: [\n')).toThrow(/\(2:1\)/);
  });
});
