/**
 * A modified document's two versions rebuilt from the compare's patch alone — no read (issue 40 item 4: an
 * anonymous section diff of 50 documents in a few requests). A stored document is canonical JSON, one field a
 * line (canonical-json.ts), so a patch with git's 3 lines of context shows only the lines around each change;
 * but the lines a patch does not show are often fixed by the envelope's shape, known from the key alone:
 *
 *   {                                  line 0, always
 *     "data": {                        line 1 when the data is an object (a guess: the SHA decides)
 *       … the data's fields …          only the patch can show these
 *     },                               the end of the data: the line before "id"
 *     "id": "octo/hello",              the last four lines, from the identity
 *     "namespace": "github",
 *     "type": "repo"
 *   }
 *
 * The old text is the patch's old lines with that frame around them; it is kept only when EVERY line is known
 * and it hashes to the old blob SHA, and the new text (the patch applied to it) only when it hashes to the new
 * one. A guess that is wrong, a line nobody knows, a damaged patch: undefined, and the caller reads the
 * document as before. Never a wrong version.
 */
import { utf8 } from '../core/bytes.js';
import { blobShaAsync } from '../core/git/objects.js';
import { applyPatch, oldLinesShown } from '../core/patch-apply.js';
import type { VersionId } from '../core/version.js';
import type { ChangedDocument } from './document-types.js';
import { decodeEnvelope, type Envelope, envelopeMatches, envelopeText } from './envelope.js';
import type { Identity } from './identity.js';

/** The two versions of a modified document. */
export interface RebuiltVersions {
  before: Envelope;
  after: Envelope;
}

/**
 * `d`'s envelopes at `from` and at `to`, rebuilt from `d.patch` and proven by both blob SHAs; undefined when the
 * patch does not show enough of the old text (or anything does not check out): read the document then.
 *
 * @example
 * const changes = await docs.changes({ from, to, withPatches: true });
 * const pair = await rebuiltVersions(changes.modified[0], from, changes.to); // { before, after } | undefined
 */
export async function rebuiltVersions(
  d: ChangedDocument,
  from: VersionId,
  to: VersionId,
): Promise<RebuiltVersions | undefined> {
  if (d.patch === undefined || d.blobSha === undefined || d.previousBlobSha === undefined) return undefined;
  const shown = oldLinesShown(d.patch);
  const oldText = shown && framedText(shown, d);
  if (oldText === undefined || (await shaOf(oldText)) !== d.previousBlobSha) return undefined;
  const newText = applyPatch(oldText, d.patch);
  if (newText === undefined || (await shaOf(newText)) !== d.blobSha) return undefined;
  const before = envelopeOf(oldText, from, d);
  const after = envelopeOf(newText, to, d);
  return before && after ? { before, after } : undefined;
}

/** The whole old text: the patch's lines, the envelope's frame where it shows none; undefined if a line is unknown. */
function framedText(shown: Map<number, string>, d: ChangedDocument): string | undefined {
  const tail = [
    `  "id": ${JSON.stringify(d.id)},\n`,
    `  "namespace": ${JSON.stringify(d.namespace)},\n`,
    `  "type": ${JSON.stringify(d.doc_type)}\n`,
    '}\n',
  ];
  const idLine = idLineIn(shown, tail[0] as string);
  if (idLine === undefined) return undefined;
  const frame = new Map<number, string>([
    [0, '{\n'],
    [1, '  "data": {\n'],
  ]);
  for (const [i, line] of tail.entries()) frame.set(idLine + i, line);
  const lines: string[] = [];
  for (let i = 0; i < idLine + tail.length; i++) {
    // What the patch shows wins over the frame's guess (data that is an array opens with "[").
    const line = shown.get(i) ?? frame.get(i);
    if (line === undefined) return undefined;
    lines.push(line);
  }
  // A patch line past the envelope's end: not this document's patch.
  for (const at of shown.keys()) if (at >= lines.length) return undefined;
  return lines.join('');
}

/**
 * Where the old text's `"id"` line is: shown by the patch, or right after the data's closing line (the only
 * line indented two spaces that closes something: the envelope's other fields are strings).
 */
function idLineIn(shown: Map<number, string>, idLine: string): number | undefined {
  for (const [at, line] of shown) {
    if (line === idLine) return at;
    if (line === '  },\n' || line === '  ],\n') return at + 1;
  }
  return undefined;
}

function shaOf(text: string): Promise<string> {
  return blobShaAsync(utf8(text));
}

/** The envelope in `text` read at `version`, if it is `d`'s (the SHA proved the bytes; this proves the shape). */
function envelopeOf(text: string, version: VersionId, d: ChangedDocument): Envelope | undefined {
  try {
    const envelope = decodeEnvelope(utf8(text), version);
    return envelopeMatches(envelope, d) ? envelope : undefined;
  } catch {
    return undefined;
  }
}

/** What {@link changedVersions} reads from: a DocumentStore, or the browser client. */
export interface VersionReader {
  getMany(identities: readonly Identity[], options: { version: VersionId }): Promise<(Envelope | null)[]>;
}

/** A modified document's two versions as {@link changedVersions} gives them (null: not there, as `get` says). */
export type VersionPair = { before: Envelope | null; after: Envelope | null };

/**
 * Both versions of each modified document at the fewest reads: those `changes({ withDocuments })` rebuilt cost
 * nothing; one with a patch costs its `from` version (the patch applied to its stored text gives `to`, kept when
 * it hashes to `blobSha`); any other both versions. In `docs` order.
 *
 * @example
 * const c = await docs.changes({ from, withDocuments: true });
 * const pairs = await changedVersions(docs, c.modified, c.from, c.to); // [{ before, after }, …]
 */
export async function changedVersions(
  reader: VersionReader,
  docs: readonly ChangedDocument[],
  from: VersionId,
  to: VersionId,
): Promise<VersionPair[]> {
  const out: (VersionPair | undefined)[] = docs.map((d) =>
    d.before && d.after ? { before: d.before, after: d.after } : undefined,
  );
  const unread = (i: number) => out[i] === undefined;
  const olds = await readAt(reader, docs, indexesWhere(docs, unread), from);
  for (const [i, before] of olds) {
    const after = before && (await patchedForward(before, docs[i] as ChangedDocument, to));
    if (after) out[i] = { before, after };
  }
  const news = await readAt(reader, docs, indexesWhere(docs, unread), to);
  for (const [i, after] of news) out[i] = { before: olds.get(i) ?? null, after };
  return out as VersionPair[];
}

/** Which `docs` (by index) `keep` says. */
function indexesWhere(docs: readonly ChangedDocument[], keep: (i: number) => boolean): number[] {
  return docs.map((_d, i) => i).filter(keep);
}

/** The envelopes of `docs[i]` for each index, read at `version` in one bulk read (none: no read). */
async function readAt(
  reader: VersionReader,
  docs: readonly ChangedDocument[],
  indexes: number[],
  version: VersionId,
): Promise<Map<number, Envelope | null>> {
  if (indexes.length === 0) return new Map();
  const ids = indexes
    .map((i) => docs[i] as ChangedDocument)
    .map(({ namespace, doc_type, id }) => ({ namespace, doc_type, id }));
  const got = await reader.getMany(ids, { version });
  return new Map(indexes.map((i, j) => [i, got[j] ?? null]));
}

/**
 * `d`'s envelope at `to` from its envelope at `from` and its patch: the stored text is the envelope's canonical
 * JSON (checked against `previousBlobSha`: a document not written canonically is read instead), the patch applied
 * to it must hash to `blobSha`.
 */
async function patchedForward(before: Envelope, d: ChangedDocument, to: VersionId): Promise<Envelope | undefined> {
  if (d.patch === undefined || d.blobSha === undefined) return undefined;
  let oldText: string;
  try {
    oldText = envelopeText({ namespace: before.namespace, type: before.type, id: before.id, data: before.data });
  } catch {
    return undefined;
  }
  if ((await shaOf(oldText)) !== d.previousBlobSha) return undefined;
  const newText = applyPatch(oldText, d.patch);
  if (newText === undefined || (await shaOf(newText)) !== d.blobSha) return undefined;
  return envelopeOf(newText, to, d);
}
