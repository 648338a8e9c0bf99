import type { RuleTransform } from '@aws-sdk/client-elastic-load-balancing-v2';
import { required, validation } from '../errors.js';
import { checkRegex } from './regex.js';
import { checkEnum } from './validate.js';

const CONFIG_OF = {
  'host-header-rewrite': 'HostHeaderRewriteConfig',
  'url-rewrite': 'UrlRewriteConfig',
} as const;
const MAX_TEXT = 1024;

/**
 * Rule transforms (CreateRule/ModifyRule `Transforms`): "one host header rewrite transform and
 * one URL rewrite transform", each one regex and its replacement.
 */
export function normalizeTransforms(transforms: readonly RuleTransform[] | undefined): RuleTransform[] {
  const out: RuleTransform[] = [];
  const seen = new Set<string>();
  for (const t of transforms ?? []) {
    if (!t.Type) throw required('transforms.member.type');
    checkEnum(t.Type, 'transforms.member.type', Object.keys(CONFIG_OF));
    if (seen.has(t.Type)) throw validation(`A rule can have only one '${t.Type}' transform`);
    seen.add(t.Type);
    const member = CONFIG_OF[t.Type];
    for (const other of Object.values(CONFIG_OF)) {
      if (other !== member && t[other] !== undefined)
        throw validation(`${other} cannot be specified for a '${t.Type}' transform`);
    }
    const rewrites = t[member]?.Rewrites ?? [];
    if (rewrites.length !== 1) throw validation(`A '${t.Type}' transform must have exactly one rewrite`);
    const [{ Regex, Replace } = {}] = rewrites;
    if (Regex === undefined) throw required(`transforms.member.${member}.rewrites.member.regex`);
    if (Replace === undefined) throw required(`transforms.member.${member}.rewrites.member.replace`);
    checkRegex(Regex, 'transform regular expression', MAX_TEXT);
    if (Replace.length > MAX_TEXT)
      throw validation(`The transform replacement is longer than ${MAX_TEXT} characters`);
    out.push({ Type: t.Type, [member]: { Rewrites: [{ Regex, Replace }] } });
  }
  return out;
}
