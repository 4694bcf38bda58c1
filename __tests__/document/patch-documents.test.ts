/**
 * A modified document's two versions rebuilt from its patch alone (src/document/patch-documents.ts): exact when
 * the patch and the envelope's frame show every line, and nothing — never a wrong version — when a line is
 * unknown, a guess is wrong, the patch is damaged or the SHAs do not match. Patches come from the emulator's
 * unified diff (git's hunks with 3 lines of context, as GitHub's compare hands them over).
 */
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { blobSha } from '../../src/core/git/objects.js';
import type { ChangedDocument } from '../../src/document/document-types.js';
import { envelopeText } from '../../src/document/envelope.js';
import { rebuiltVersions } from '../../src/document/patch-documents.js';
import { unifiedDiff } from '../../src/emulator/unified-diff.js';

const FROM = 'a'.repeat(40);
const TO = 'b'.repeat(40);
const ID = { namespace: 'github', type: 'repo', id: 'octo/hello' };

/** The changed document `changes({ withPatches })` reports for these two data values. */
function changed(before: unknown, after: unknown): ChangedDocument & { patch: string } {
  const a = envelopeText({ ...ID, data: before });
  const b = envelopeText({ ...ID, data: after });
  return {
    namespace: ID.namespace,
    doc_type: ID.type,
    id: ID.id,
    key: 'github/repo/octo/hello.json',
    blobSha: blobSha(utf8(b)),
    previousBlobSha: blobSha(utf8(a)),
    patch: unifiedDiff(utf8(a), utf8(b)) as string,
  };
}

const repo = (stars: number, issues: number) => ({
  archived: false,
  description: 'A widget',
  language: 'Go',
  open_issues: issues,
  stars,
});

describe('rebuiltVersions', () => {
  it('rebuilds both envelopes when the patch and the frame show every line (the demo: stars and issues move)', async () => {
    const d = changed(repo(4, 16), repo(13, 17));
    expect(await rebuiltVersions(d, FROM, TO)).toEqual({
      before: { ...ID, version: FROM, data: repo(4, 16) },
      after: { ...ID, version: TO, data: repo(13, 17) },
    });
  });

  it('rebuilds a small document whose patch shows all of it, and data that is an array (the patch shows "[")', async () => {
    expect((await rebuiltVersions(changed({ n: 1 }, { n: 2 }), FROM, TO))?.after.data).toEqual({ n: 2 });
    expect((await rebuiltVersions(changed([1, 2], [1, 3]), FROM, TO))?.before.data).toEqual([1, 2]);
  });

  it('gives up when a line is in neither the patch nor the frame (only stars moved: "archived" is unseen)', async () => {
    const d = changed(repo(4, 16), repo(13, 16));
    expect(d.patch.startsWith('@@ -4,')).toBe(true);
    expect(await rebuiltVersions(d, FROM, TO)).toBeUndefined();
  });

  it('gives up when many lines are unseen (40 fields, the last changed: only the tail is shown)', async () => {
    const many = (last: number) =>
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${String(i).padStart(2, '0')}`, i === 39 ? last : i]));
    expect(await rebuiltVersions(changed(many(0), many(1)), FROM, TO)).toBeUndefined();
  });

  it('gives up when the frame guessed wrong: array data under a patch that does not show its "[" line', async () => {
    const d = changed([1, 2], [1, 3]);
    // The same change with one line of context (git diff -U1): line 2 ("data": [) is not shown, the frame guesses
    // "data": { there, and the old blob SHA refuses the guess.
    const narrow = '@@ -3,3 +3,3 @@\n     1,\n-    2\n+    3\n   ],';
    expect(await rebuiltVersions({ ...d, patch: narrow }, FROM, TO)).toBeUndefined();
    // With the guess right (object data, same narrow context), the same shape of patch rebuilds.
    const o = changed({ a: 1, b: 2 }, { a: 1, b: 3 });
    const narrowObject = '@@ -3,3 +3,3 @@\n     "a": 1,\n-    "b": 2\n+    "b": 3\n   },';
    expect((await rebuiltVersions({ ...o, patch: narrowObject }, FROM, TO))?.after.data).toEqual({ a: 1, b: 3 });
  });

  it('refuses a patch that does not hash to the blob SHAs: a damaged patch, or SHAs of other bytes', async () => {
    const d = changed({ n: 1 }, { n: 2 });
    expect(
      await rebuiltVersions({ ...d, patch: d.patch.replace('+    "n": 2', '+    "n": 3') }, FROM, TO),
    ).toBeUndefined();
    expect(await rebuiltVersions({ ...d, previousBlobSha: 'c'.repeat(40) }, FROM, TO)).toBeUndefined();
    expect(await rebuiltVersions({ ...d, blobSha: 'c'.repeat(40) }, FROM, TO)).toBeUndefined();
    expect(await rebuiltVersions({ ...d, patch: 'not a patch' }, FROM, TO)).toBeUndefined();
  });

  it("refuses bytes that hash right but are another document's (the identity decides the frame and is checked)", async () => {
    const d = changed({ n: 1 }, { n: 2 });
    // The frame is built from the identity: another id gives other tail lines, which no SHA matches.
    expect(await rebuiltVersions({ ...d, id: 'octo/other' }, FROM, TO)).toBeUndefined();
  });

  it('needs a patch and both SHAs', async () => {
    const d = changed({ n: 1 }, { n: 2 });
    const { patch: _p, ...noPatch } = d;
    expect(await rebuiltVersions(noPatch, FROM, TO)).toBeUndefined();
    expect(await rebuiltVersions({ ...d, previousBlobSha: undefined }, FROM, TO)).toBeUndefined();
  });
});
