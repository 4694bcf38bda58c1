/**
 * Keep an index exact across a write (issue 28: "a write of k documents rewrites only the parts that
 * hold them"). Pure: the caller reads files at the tip through `read` and commits `writes`/`deletes`
 * in the same commit as the documents. Only the parts whose range holds a changed row are read and
 * rewritten — a 1-document put touches, per field, the part of its old row and the part of its new row
 * (the same part unless that field's value moved), so at most 2 parts per field — plus a neighbour
 * when a part shrinks below 1/8 of the bound and is merged. The manifest is rewritten only when the
 * document count changes or a part splits or merges.
 */

import { appendAll } from '../../core/arrays.js';
import { InvalidConfig, InvalidResponse } from '../../core/errors.js';
import { chunkRows, fillBytes, type IndexOptions, partBound, separatorOf } from './build.js';
import { countsAfter, countsToRead, keyDelta } from './counts.js';
import type { IndexDeclaration, TypeIndex } from './declaration.js';
import {
  encodePart,
  FORMAT_VERSION,
  type Manifest,
  type PartRef,
  parseManifest,
  parsePart,
  partFor,
  serializeManifest,
} from './format.js';
import { manifestPath, partPath } from './paths.js';
import { compareRows, encodeRow, type Row, rowBytes, rowsOf } from './rows.js';
import { type Stored, storedValues } from './values.js';

/** A document's state: its data, or the stored values an index row holds (declaration order). */
export type DocumentState = { blobSha: string; data: unknown } | { blobSha: string; values: Stored[] };

/** One document's change: `before` absent = created, `after` absent = deleted. */
export interface IndexChange {
  namespace: string;
  type: string;
  id: string;
  before?: DocumentState;
  after?: DocumentState;
}

export interface IndexUpdate {
  writes: Map<string, Uint8Array>;
  deletes: string[];
  /** Every path `read` was asked for, in order (what the caller must fetch at the tip). */
  readPaths: string[];
  /** Declared types with no manifest, one for other fields or in an older format: build them with `buildTypeIndex`. */
  rebuild: TypeIndex[];
}

export type ReadFile = (path: string) => Uint8Array | undefined;

interface Ctx {
  read: (path: string) => Uint8Array;
  max: number;
  out: IndexUpdate;
}

/** Rows removed and added in one run, with rows that did not change (same line) cancelled out. */
function runDelta(fi: number, t: TypeIndex, changes: readonly IndexChange[]): { removed: Row[]; added: Row[] } {
  const removed: Row[] = [];
  const added: Row[] = [];
  for (const c of changes) {
    const rowsFor = (s: DocumentState | undefined) =>
      s ? rowsOf(fi, c.id, s.blobSha, 'values' in s ? s.values : storedValues(t.fields, { id: c.id, ...s })) : [];
    const before = rowsFor(c.before);
    const after = rowsFor(c.after);
    const kept = new Set(after.map(encodeRow));
    const same = new Set(before.map(encodeRow).filter((l) => kept.has(l)));
    appendAll(
      removed,
      before.filter((r) => !same.has(encodeRow(r))),
    );
    appendAll(
      added,
      after.filter((r) => !same.has(encodeRow(r))),
    );
  }
  return { removed, added };
}

/** Where `r` is, or would go, in sorted `rows` (binary search: the part is already in order). */
function seek(rows: readonly Row[], r: Row): { at: number; found: boolean } {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const c = compareRows(rows[mid]!, r);
    if (c === 0) return { at: mid, found: true };
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return { at: lo, found: false };
}

/**
 * Apply removals and additions to the sorted rows of one part: each found or placed by binary search, so
 * the work is the change's, not a sort of the part. A removed row that is not there, or an added row that
 * already is, means the stored index contradicts the documents: InvalidResponse (the write rebuilds it).
 */
function applyToPart(rows: readonly Row[], removed: readonly Row[], added: readonly Row[], path: string): Row[] {
  const out = rows.slice();
  for (const r of removed) {
    const { at, found } = seek(out, r);
    if (!found) {
      throw new InvalidResponse(
        `index part ${path} does not hold the row of ${JSON.stringify(r.id)} that the document's previous state implies; the index must be rebuilt`,
        { key: path, id: r.id },
      );
    }
    out.splice(at, 1);
  }
  for (const r of added) {
    const { at, found } = seek(out, r);
    if (found) {
      throw new InvalidResponse(
        `index part ${path} already holds a row of ${JSON.stringify(r.id)} that the write adds; the index must be rebuilt`,
        { key: path, id: r.id },
      );
    }
    out.splice(at, 0, r);
  }
  return out;
}

const sizeOf = (rows: readonly Row[]) => rows.reduce((n, r) => n + rowBytes(r), 0);

/** Split an oversized part into near-equal chunks, each within the fill size. */
function split(rows: Row[], max: number): Row[][] {
  const size = sizeOf(rows);
  if (size <= max) return [rows];
  const k = Math.ceil(size / fillBytes(max));
  return chunkRows(rows, Math.ceil(size / k));
}

/** Rewrite the touched parts of run `fi`; returns whether its part list changed. */
function updateRun(ctx: Ctx, m: Manifest, fi: number, delta: { removed: Row[]; added: Row[] }): boolean {
  const run = m.runs[fi]!;
  const path = (name: string) => partPath(m.namespace, m.type, run.field, name);
  const byPart = new Map<number, { removed: Row[]; added: Row[] }>();
  const slot = (i: number) => byPart.get(i) ?? byPart.set(i, { removed: [], added: [] }).get(i)!;
  for (const r of delta.removed) slot(partFor(run, r)).removed.push(r);
  for (const r of delta.added) slot(partFor(run, r)).added.push(r);
  if (byPart.size === 0) return false;
  const rowsOfPart = new Map<number, Row[] | null>();
  const load = (i: number): Row[] => {
    const have = rowsOfPart.get(i);
    if (have) return have;
    const rows = parsePart(m, fi, i, ctx.read(path(run.parts[i]!.name)));
    rowsOfPart.set(i, rows);
    return rows;
  };
  for (const [i, d] of [...byPart].sort((a, b) => a[0] - b[0])) {
    rowsOfPart.set(i, applyToPart(load(i), d.removed, d.added, path(run.parts[i]!.name)));
  }
  mergeSmall(ctx, run.parts.length, rowsOfPart, load);
  return rewriteRun(ctx, m, fi, rowsOfPart, path);
}

/** The nearest part on side `step` (±1) of `i` that is not already merged away, or -1. */
function neighbour(i: number, step: number, parts: number, rowsOfPart: Map<number, Row[] | null>): number {
  let j = i + step;
  while (j >= 0 && j < parts && rowsOfPart.get(j) === null) j += step;
  return j >= 0 && j < parts ? j : -1;
}

/**
 * Merge each touched part under 1/8 of the bound into its right or else left neighbour, when the
 * merged part stays within the bound (a built part holds at most 3/4, so it nearly always does); an
 * empty part is deleted. Only then is a neighbour read.
 */
function mergeSmall(ctx: Ctx, parts: number, rowsOfPart: Map<number, Row[] | null>, load: (i: number) => Row[]): void {
  for (const i of [...rowsOfPart.keys()].sort((a, b) => a - b)) {
    const rows = rowsOfPart.get(i);
    if (!rows || sizeOf(rows) >= ctx.max / 8) continue;
    const sides = [neighbour(i, 1, parts, rowsOfPart), neighbour(i, -1, parts, rowsOfPart)].filter((j) => j >= 0);
    if (sides.length > 0 && rows.length === 0) {
      rowsOfPart.set(i, null);
      continue;
    }
    const j = sides.find((k) => sizeOf(load(k)) + sizeOf(rows) <= ctx.max);
    if (j === undefined) continue;
    const [lo, hi] = i < j ? [i, j] : [j, i];
    rowsOfPart.set(lo, i < j ? rows.concat(load(j)) : load(j).concat(rows));
    rowsOfPart.set(hi, null);
  }
}

/** Write the new contents of the touched parts, splitting and deleting; update the run's part list. */
function rewriteRun(
  ctx: Ctx,
  m: Manifest,
  fi: number,
  rowsOfPart: Map<number, Row[] | null>,
  path: (name: string) => string,
): boolean {
  const run = m.runs[fi]!;
  const parts: PartRef[] = [];
  let changed = false;
  for (const [i, p] of run.parts.entries()) {
    const rows = rowsOfPart.get(i);
    if (rows === undefined) {
      parts.push(p);
      continue;
    }
    if (rows === null) {
      ctx.out.deletes.push(path(p.name));
      changed = true;
      continue;
    }
    split(rows, ctx.max).forEach((chunk, k) => {
      const name = k === 0 ? p.name : String(run.next++);
      ctx.out.writes.set(path(name), encodePart(chunk));
      parts.push({ name, lower: k === 0 ? p.lower : separatorOf(chunk) });
      if (k > 0) changed = true;
    });
  }
  if (parts[0]!.lower !== null) parts[0] = { ...parts[0]!, lower: null };
  run.parts = parts;
  return changed;
}

/**
 * Manifests the caller has already parsed, by path: a write parses its type's manifest once, not once more
 * for the plan and once more for the update (the manifest grows with the type; the change does not).
 */
export type ParsedManifests = ReadonlyMap<string, Manifest>;

/** The manifest at the tip: the caller's parse (copied: an update edits its runs) or the bytes parsed now. */
function manifestAt(read: ReadFile, t: TypeIndex, parsed: ParsedManifests): Manifest | undefined {
  const path = manifestPath(t.namespace, t.type);
  const bytes = read(path);
  if (bytes === undefined) return undefined;
  const known = parsed.get(path);
  if (!known) return parseManifest(bytes, t.namespace, t.type);
  return { ...known, fields: [...known.fields], runs: known.runs.map((r) => ({ ...r, parts: [...r.parts] })) };
}

function updateType(ctx: Ctx, read: ReadFile, t: TypeIndex, changes: readonly IndexChange[], parsed: ParsedManifests) {
  const m = manifestAt(read, t, parsed);
  // No manifest, or one of an older format (rewritten whole in the current one): the caller builds the type.
  if (m === undefined || m.version !== FORMAT_VERSION) return void ctx.out.rebuild.push(t);
  if (m.fields.join('\n') !== t.fields.join('\n')) return void ctx.out.rebuild.push(t);
  const ids = new Set<string>();
  let delta = 0;
  for (const c of changes) {
    if (ids.has(c.id))
      throw new InvalidConfig(
        'changes',
        `changes list ${t.namespace}/${t.type} ${JSON.stringify(c.id)} twice; give one change per document`,
      );
    ids.add(c.id);
    delta += (c.after ? 1 : 0) - (c.before ? 1 : 0);
  }
  let changed = delta !== 0;
  t.fields.forEach((_, fi) => {
    const rows = runDelta(fi, t, changes);
    // The field's value counts (counts.ts), from the same rows, before m.count moves.
    const counts = countsAfter(read, m, fi, keyDelta(rows.removed, rows.added), m.count + delta);
    if (counts) ctx.out.writes.set(counts.path, counts.bytes);
    if (updateRun(ctx, m, fi, rows)) changed = true;
  });
  if (changed) {
    m.count += delta;
    if (m.count < 0)
      throw new InvalidResponse(
        `index manifest ${manifestPath(t.namespace, t.type)} counts fewer documents than were deleted`,
        {},
      );
    ctx.out.writes.set(manifestPath(t.namespace, t.type), serializeManifest(m));
  }
}

/**
 * The index files a write changes. `read(path)` returns a file at the tip the write builds on.
 * Changes to undeclared types are ignored. Throws `InvalidDocument` for an unindexable value (the write
 * must then fail as a whole) and `InvalidResponse` when the stored index contradicts `before`.
 *
 * @example
 * const { writes, deletes, readPaths } = updateIndex(declaration, (p) => filesAtTip.get(p), [
 *   { namespace: 'g', type: 'repo', id: 'a', before: { blobSha: old, data: { stars: 1 } }, after: { blobSha: neu, data: { stars: 2 } } },
 * ]);
 */
export function updateIndex(
  declaration: IndexDeclaration,
  read: ReadFile,
  changes: readonly IndexChange[],
  options: IndexOptions = {},
  parsed: ParsedManifests = new Map(),
): IndexUpdate {
  const out: IndexUpdate = { writes: new Map(), deletes: [], readPaths: [], rebuild: [] };
  const readLogged = (p: string) => {
    out.readPaths.push(p);
    return read(p);
  };
  const ctx: Ctx = {
    max: partBound(options),
    out,
    read: (p) => {
      const b = readLogged(p);
      if (!b)
        throw new InvalidResponse(`index part ${p} is listed in its manifest but missing; the index must be rebuilt`, {
          key: p,
        });
      return b;
    },
  };
  for (const t of declaration.indexes) {
    const mine = changes.filter((c) => c.namespace === t.namespace && c.type === t.type);
    if (mine.length > 0) updateType(ctx, readLogged, t, mine, parsed);
  }
  return out;
}

/**
 * The parts `updateIndex` will read for `changes`, and the value counts files it rewrites (counts.ts),
 * from the manifests alone — so a store can fetch them in one batch (one GraphQL request, or parallel
 * contents reads) before calling `updateIndex` with a synchronous `read`. `read` needs to answer only
 * the manifests. A part merged with a neighbour needs that neighbour too: `updateIndex` then throws
 * `InvalidResponse` ("listed in its manifest but missing") when `read` lacks it, and lists it in
 * `readPaths`; fetch it and call again.
 *
 * @example
 * const paths = partsToRead(declaration, (p) => manifests.get(p), changes); // fetch these, then updateIndex
 */
export function partsToRead(
  declaration: IndexDeclaration,
  read: ReadFile,
  changes: readonly IndexChange[],
  parsed: ParsedManifests = new Map(),
): string[] {
  const out = new Set<string>();
  for (const t of declaration.indexes) {
    const mine = changes.filter((c) => c.namespace === t.namespace && c.type === t.type);
    const m = mine.length > 0 ? manifestAt(read, t, parsed) : undefined;
    if (!m || m.version !== FORMAT_VERSION || m.fields.join('\n') !== t.fields.join('\n')) continue;
    const count = mine.reduce((n, c) => n + (c.after ? 1 : 0) - (c.before ? 1 : 0), m.count);
    t.fields.forEach((field, fi) => {
      const { removed, added } = runDelta(fi, t, mine);
      for (const r of [...removed, ...added]) {
        out.add(partPath(t.namespace, t.type, field, m.runs[fi]!.parts[partFor(m.runs[fi]!, r)]!.name));
      }
      const counts = countsToRead(m, fi, keyDelta(removed, added), count);
      if (counts) out.add(counts);
    });
  }
  return [...out];
}
