/**
 * `applyPatch` (src/core/patch-apply.ts): GitHub's compare `files[].patch` applied to the text it was made from.
 * Checked against real `git diff` output (fast-check: random texts, their diff by git, applied back), and fed the
 * things it must refuse: context that does not match, counts that do not add up, hunks out of order, garbage.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/core/patch-apply.js';
import { tempDir } from '../git/helpers.js';

const tmp = tempDir('docdb-patch-');
afterAll(() => tmp.cleanup());

/** The patch GitHub's compare would carry for old → new: git's hunks, without the header lines or a final newline. */
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

const doc = (stars: number, topics: string[]) =>
  `${JSON.stringify({ data: { name: 'hello', owner: { login: 'octo' }, stars, topics }, id: 'octo/hello', namespace: 'github', type: 'repo' }, null, 2)}\n`;

describe('applyPatch', () => {
  it('applies git’s patch of a document edit (two hunks) and of a new file', () => {
    const before = doc(1, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
    const after = doc(2, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'j']);
    const patch = gitPatch(before, after);
    expect(patch.match(/^@@ /gm)).toHaveLength(2);
    expect(applyPatch(before, patch)).toBe(after);
    expect(applyPatch('', gitPatch('', after))).toBe(after);
  });

  it('a missing final newline on either side (git’s "\\ No newline at end of file")', () => {
    for (const [a, b] of [
      ['x\ny', 'x\ny\n'],
      ['x\ny\n', 'x\ny'],
      ['x\ny', 'x\nz'],
      ['', 'z'],
    ] as const) {
      expect(applyPatch(a, gitPatch(a, b)), JSON.stringify([a, b])).toBe(b);
    }
  });

  it('random texts: git’s diff applied back gives the new text (fast-check)', () => {
    const line = fc.constantFrom('a', 'b', 'c', '', '  "x": 1,', '}', ' ', '\\ not a marker', '@@ -1 +1 @@');
    const text = fc
      .tuple(fc.array(line, { maxLength: 25 }), fc.boolean())
      .map(([lines, nl]) => lines.join('\n') + (nl && lines.length > 0 ? '\n' : ''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        fc.pre(before !== after);
        expect(applyPatch(before, gitPatch(before, after))).toBe(after);
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a patch that does not fit the text: undefined, never a guess', () => {
    const before = 'a\nb\nc\nd\n';
    const patch = gitPatch(before, 'a\nB\nc\nd\n'); // @@ -1,4 +1,4 @@
    expect(applyPatch(before, patch)).toBe('a\nB\nc\nd\n');
    expect(applyPatch('a\nx\nc\nd\n', patch)).toBeUndefined(); // the removed line differs
    expect(applyPatch('A\nb\nc\nd\n', patch)).toBeUndefined(); // a context line differs
    expect(applyPatch('a\nb\n', patch)).toBeUndefined(); // the text is shorter than the hunk
    expect(applyPatch(before, patch.replace('@@ -1,4', '@@ -1,5'))).toBeUndefined(); // counts do not add up
    expect(applyPatch(before, patch.replace('+B', 'B'))).toBeUndefined(); // a row without + - or space
    expect(applyPatch(before, '')).toBeUndefined();
    expect(applyPatch(before, 'not a patch')).toBeUndefined();
    // Hunks out of order (the second starts before the first ends).
    expect(applyPatch('a\nb\n', '@@ -2 +2 @@\n-b\n+B\n@@ -1 +1 @@\n-a\n+A')).toBeUndefined();
    expect(applyPatch('a\nb\n', '@@ -1 +1 @@\n-a\n+A\n@@ -2 +2 @@\n-b\n+B')).toBe('A\nB\n');
    // A line without a newline may only be the last.
    expect(applyPatch('a\nb\n', '@@ -1 +1 @@\n-a\n+A\n\\ No newline at end of file')).toBeUndefined();
  });
});
