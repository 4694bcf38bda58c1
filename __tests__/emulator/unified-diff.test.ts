/**
 * The emulator's compare `patch` (src/emulator/unified-diff.ts) has the shape GitHub's has — git's hunks: checked
 * byte for byte against `git diff` on document edits (fast-check) and on the cases git prints specially (function
 * context, a missing final newline, counts of 0 and 1), and round-tripped through `applyPatch` on random texts.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/core/patch-apply.js';
import { MAX_EDIT, unifiedDiff } from '../../src/emulator/unified-diff.js';
import { tempDir } from '../git/helpers.js';

const tmp = tempDir('docdb-udiff-');
afterAll(() => tmp.cleanup());
const enc = (s: string) => new TextEncoder().encode(s);

/** What git prints for before → after, from the first hunk on, without the final newline (GitHub's `patch`). */
function gitPatch(before: string, after: string): string {
  const a = join(tmp.dir, 'a');
  const b = join(tmp.dir, 'b');
  writeFileSync(a, before);
  writeFileSync(b, after);
  const r = spawnSync('git', ['diff', '--no-index', '--no-color', '-U3', a, b], { encoding: 'utf8' });
  if (r.status !== 1) throw new Error(`git diff: status ${r.status}: ${r.stderr}`);
  const rows = r.stdout.split('\n');
  return rows
    .slice(rows.findIndex((l) => l.startsWith('@@')))
    .join('\n')
    .replace(/\n$/, '');
}

const same = (before: string, after: string) =>
  expect(unifiedDiff(enc(before), enc(after))).toBe(gitPatch(before, after));

/** A document as docdb stores it (canonical JSON), with `n` readings. */
const doc = (values: readonly number[]) =>
  `${JSON.stringify(
    {
      data: { description: 'station', readings: values.map((v, i) => ({ at: i, v })), rev: values.length },
      id: 'c1',
      namespace: 'city',
      type: 'weather',
    },
    null,
    2,
  )}\n`;

describe('unifiedDiff (the emulator’s compare patch)', () => {
  it('document edits: exactly git’s hunks (fast-check)', () => {
    const values = fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(
        values,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 10, max: 99 })), { maxLength: 4 }),
        (v, edits) => {
          const after = [...v];
          for (const [at, value] of edits) after[at % after.length] = value;
          fc.pre(doc(v) !== doc(after));
          same(doc(v), doc(after));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('git’s special cases: function context, no final newline, added and removed files, counts of 1', () => {
    same('fn a\n1\n2\n3\n4\n5\n6\n7\n', 'fn a\n1\n2\n3\n4\n5\nX\n7\n'); // "@@ -4,5 +4,5 @@ fn a"
    same('a\nb', 'a\nb\n');
    same('a\nb\n', 'a\nc');
    same('', 'x\ny\n');
    same('x\ny\n', '');
    same('only\n', 'other\n'); // "@@ -1 +1 @@"
    same('1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n', '1\nB\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\nN\n15\n');
    same('1\n2\n3\n4\n5\n6\n7\n8\n9\n', '1\nB\n3\n4\n5\n6\n7\n8\nI\n'); // six lines apart: one hunk
  });

  it('random texts: the patch applies back to the new text (fast-check)', () => {
    const line = fc.constantFrom('a', 'b', '', ' x', '}', 'fn f', '\\ y');
    const text = fc
      .tuple(fc.array(line, { maxLength: 40 }), fc.boolean())
      .map(([lines, nl]) => lines.join('\n') + (nl && lines.length > 0 ? '\n' : ''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const patch = unifiedDiff(enc(before), enc(after));
        if (before === after) expect(patch).toBeUndefined();
        else expect(applyPatch(before, patch as string)).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it('no patch for binary content or an edit too large, as GitHub omits them', () => {
    expect(unifiedDiff(enc('a\n'), new Uint8Array([97, 0, 10]))).toBeUndefined();
    const many = (p: string) => Array.from({ length: MAX_EDIT + 1 }, (_, i) => `${p}${i}\n`).join('');
    expect(unifiedDiff(enc(many('a')), enc(many('b')))).toBeUndefined();
    expect(unifiedDiff(enc(many('a')), enc(`${many('a')}z\n`))).toMatch(/^@@ /);
  });
});
