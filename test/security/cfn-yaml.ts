/**
 * serverless.yml read as CloudFormation YAML: the short-form intrinsics (`!GetAtt A.B`, `!Ref X`)
 * as their long form (`{ 'Fn::GetAtt': ['A', 'B'] }`), the way the Serverless Framework reads them.
 */
import { parse, type CollectionTag, type ScalarTag } from 'yaml';

/** CloudFormation's short-form intrinsics, as their long form (`!GetAtt A.B` → `{ 'Fn::GetAtt': … }`). */
const INTRINSICS = [
  'Ref',
  'GetAtt',
  'Sub',
  'Join',
  'Select',
  'Split',
  'If',
  'Equals',
  'Not',
  'And',
  'Or',
  'FindInMap',
  'ImportValue',
  'Base64',
  'Cidr',
  'GetAZs',
  'Condition',
];

function longForm(name: string): string {
  return name === 'Ref' || name === 'Condition' ? name : `Fn::${name}`;
}

const cfnTags: Array<ScalarTag | CollectionTag> = INTRINSICS.flatMap((name) => [
  {
    tag: `!${name}`,
    resolve: (value: string) => ({
      [longForm(name)]: name === 'GetAtt' ? value.split('.') : value,
    }),
  } satisfies ScalarTag,
  {
    tag: `!${name}`,
    collection: 'seq',
    resolve: (seq) => ({ [longForm(name)]: seq.toJSON() }),
  } as CollectionTag,
  {
    tag: `!${name}`,
    collection: 'map',
    resolve: (map) => ({ [longForm(name)]: map.toJSON() }),
  } as CollectionTag,
]);

export function parseCfnYaml(text: string): unknown {
  return parse(text, { customTags: cfnTags });
}
