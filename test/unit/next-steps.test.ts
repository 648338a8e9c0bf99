/**
 * Every Warning reason the code can produce has a next step for the operator (what the steps say
 * and how one is chosen: reconcile-next-steps.test.ts). The reasons are read
 * from lib/ itself: InvalidObjectError reasons (literal or constant, InvalidSpec when left out),
 * the `'Warning', '<Reason>'` Events of the reconcilers, and the providers' `Replacing<Resource>`
 * announcements for every resource a plan can replace.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, NEXT_STEPS, nextStep } from '../../lib/reconcile/next-steps.js';

const LIB = resolve(import.meta.dirname, '../../lib');

function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'generated' ? [] : sources(path);
    return e.name.endsWith('.ts') ? [{ file: path, text: readFileSync(path, 'utf8') }] : [];
  });
}

/** The text of the call that starts at `start` (just after its opening parenthesis). */
function callText(text: string, start: number): string {
  let depth = 1;
  let i = start;
  while (i < text.length && depth > 0) {
    if (text[i] === '(') depth++;
    if (text[i] === ')') depth--;
    i++;
  }
  return text.slice(start, i);
}

function warningReasons(): Map<string, string> {
  const files = sources(LIB);
  const constants = new Map<string, string>();
  for (const { text } of files)
    for (const m of text.matchAll(/\bconst ([A-Z][A-Z_]+) = '([A-Z][A-Za-z]+)'/g))
      constants.set(m[1]!, m[2]!);
  const found = new Map<string, string>();
  for (const { file, text } of files) {
    const where = file.slice(LIB.length + 1);
    // Both are reported on the object under their reason (lifecycle.ts `refuse`).
    for (const m of text.matchAll(/new (InvalidObjectError|OwnershipConflictError)\(/g)) {
      const call = callText(text, m.index + m[0].length);
      const reason = /reason: (?:'([A-Za-z]+)'|([A-Z][A-Z_]+))/.exec(call);
      const fallback = m[1] === 'InvalidObjectError' ? 'InvalidSpec' : 'OwnershipConflict';
      const name = reason ? (reason[1] ?? constants.get(reason[2]!)) : fallback;
      expect(name, `${where}: reason constant ${reason?.[2]} not found`).toBeDefined();
      found.set(name!, where);
    }
    for (const m of text.matchAll(/'Warning',\s*'([A-Za-z]+)'/g)) found.set(m[1]!, where);
    // A provider's announcement under a reason of its own (ProviderContext.announce: a Warning),
    // made directly or through lib/provider/announce.ts.
    const announced = [
      ...text.matchAll(/announce\?\.\(\s*(?:'([A-Za-z]+)'|([A-Z][A-Z_]+)),/g),
      ...text.matchAll(
        /announceBestEffort\([^,]+,\s*'[^']*',\s*\{\s*reason: (?:'([A-Za-z]+)'|([A-Z][A-Z_]+)),/g,
      ),
    ];
    for (const m of announced) {
      const name = m[1] ?? constants.get(m[2]!);
      expect(name, `${where}: reason constant ${m[2]} not found`).toBeDefined();
      found.set(name!, where);
    }
    // Model warnings (lib/providers/aws/model/types.ts ModelWarning) become Warning Events too.
    if (/\bModelWarning\b/.test(text)) {
      // A constant may be read through a namespace import (`routing.UNUSED_ROUTING_ANNOTATION`).
      for (const m of text.matchAll(/reason: (?:'([A-Za-z]+)'|(?:\w+\.)?([A-Z][A-Z_]+)),\s*message:/g)) {
        const name = m[1] ?? constants.get(m[2]!);
        expect(name, `${where}: reason constant ${m[2]} not found`).toBeDefined();
        found.set(name!, where);
      }
    }
    if (/announce\?\.\(`Replacing\$\{op\.resource\}`|reason: `Replacing\$\{op\.resource\}`/.test(text)) {
      for (const { file: f, text: t } of files)
        for (const r of t.matchAll(/op: 'replace',\s*resource: '([A-Za-z]+)'/g))
          found.set(`Replacing${r[1]}`, f.slice(LIB.length + 1));
    }
  }
  return found;
}

describe('next steps', () => {
  const reasons = warningReasons();

  it('finds the reasons in lib/ (the scan itself works)', () => {
    expect([...reasons.keys()]).toEqual(
      expect.arrayContaining([
        'InvalidSpec',
        'InvalidAnnotation',
        'LimitExceeded',
        'ServiceNotFound',
        'SyncLoadBalancerFailed',
        'DeleteLoadBalancerFailed',
        'ReplacingLoadBalancer',
        'ReplacingTargetGroup',
        'UnsupportedAnnotation',
      ]),
    );
  });

  it('has a next step for every Warning reason in lib/, and none for reasons that no longer exist', () => {
    const covered = new Set([...Object.keys(NEXT_STEPS), ...FAILURE_REASONS]);
    const missing = [...reasons].filter(([r]) => !covered.has(r)).map(([r, f]) => `${r} (${f})`);
    expect(missing).toEqual([]);
    expect([...covered].filter((r) => !reasons.has(r))).toEqual([]);
  });
});

/** The text of every string and template literal of a source file, as the program sees it. */
function literals(file: string, text: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node))
      out.push(node.head.text + node.templateSpans.map((s) => `\${…}${s.literal.text}`).join(''));
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
  return out;
}

describe('the words of messages', () => {
  it('use apostrophes, never a backtick, for the possessive (code spans keep theirs, in pairs)', () => {
    const bad = sources(LIB).flatMap(({ file, text }) =>
      literals(file, text)
        .filter((s) => /[A-Za-z]`[A-Za-z]/.test(s) || (s.match(/`/g) ?? []).length % 2 === 1)
        .map((s) => `${file.slice(LIB.length + 1)}: ${s.slice(0, 80)}`),
    );
    expect(bad).toEqual([]);
    // and every step the reconcilers word, whatever its cause, reads so too
    for (const step of [...Object.values(NEXT_STEPS), ...FAILURE_REASONS.map((r) => nextStep(r))])
      expect(step).not.toMatch(/[A-Za-z]`[A-Za-z]/);
  });
});
