import { validation } from '../errors.js';

/**
 * What ALB's rule regexes refuse (listener rules: "do not support lookaheads, lookbehinds,
 * backreferences, atomic groups, possessive quantifiers, subroutines, recursion, and Unicode
 * character classes"), checked on the pattern text before it is compiled to catch bad syntax.
 */
const UNSUPPORTED: readonly (readonly [RegExp, string])[] = [
  // First: `\p{L}+` would otherwise read as the possessive quantifier `}+`.
  [/\\[pP]\{/, 'Unicode character classes'],
  [/\(\?<?[=!]/, 'lookaheads and lookbehinds'],
  [/\\[1-9]|\\k</, 'backreferences'],
  [/\(\?>/, 'atomic groups'],
  [/(?:[*+?}])\+/, 'possessive quantifiers'],
  [/\(\?(?:R|[+-]?\d+|&\w+|P>\w+)\)/, 'subroutines and recursion'],
];

export function checkRegex(value: string, what: string, max: number): void {
  if (value.length < 1 || value.length > max)
    throw validation(`The ${what} '${value}' must be between 1 and ${max} characters`);
  for (const [pattern, feature] of UNSUPPORTED) {
    if (pattern.test(value))
      throw validation(`The ${what} '${value}' uses ${feature}, which are not supported`);
  }
  try {
    new RegExp(value);
  } catch {
    throw validation(`The ${what} '${value}' is not a valid regular expression`);
  }
}
