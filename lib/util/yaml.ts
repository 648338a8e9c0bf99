/**
 * The one YAML parser in the function bundles: js-yaml, which @kubernetes/client-node already
 * carries, so configuration files cost no second parser. The YAML 1.2 core schema (no timestamps,
 * no merge keys) reads `2024-01-01` or `<<` as plain data, as kubectl and the `yaml` package do.
 */
import { CORE_SCHEMA, load } from 'js-yaml';

/** One YAML (or JSON) document; throws a YAMLException naming the line and column, e.g. `(2:1)`. */
export function parseYaml(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA });
}
