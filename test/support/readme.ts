/**
 * The README as the tests read it: a section by its heading, and the shell commands of its code
 * blocks, so that a test runs what the README tells an operator to run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The text under `## <title>` (or `### <title>`), up to the next heading of the same level or higher. */
export function readmeSection(title: string): string {
  const lines = README.split('\n');
  // Heading levels by line, 0 for lines that are not headings (a `# comment` in a code block is not).
  let fenced = false;
  const levels = lines.map((l) => {
    if (l.startsWith('```')) fenced = !fenced;
    return !fenced && /^#+ /.test(l) ? l.indexOf(' ') : 0;
  });
  const start = lines.findIndex((l, i) => levels[i]! >= 2 && l.replace(/^#+ /, '') === title);
  if (start < 0) throw new Error(`README has no section "${title}"`);
  const end = levels.findIndex((level, i) => i > start && level > 0 && level <= levels[start]!);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The contents of the fenced code blocks in `text`. */
export function codeBlocks(text: string): string[] {
  return [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The code lines of `text`'s code blocks that start with `prefix` (continuation lines joined). */
export function commands(text: string, prefix: string): string[] {
  return codeBlocks(text)
    .flatMap((block) => block.replace(/\\\n\s*/g, '').split('\n'))
    .map((l) => l.trim())
    .filter((l) => l.startsWith(prefix));
}
