/**
 * The stored form of one `(namespace, type)`'s index: its manifest and its parts.
 *
 * The manifest lists, per declared field, the run's parts in order with each part's lower separator
 * `[key, id]` (the first part's is `null`: from the start). A separator is a bound, not the part's
 * first row: deleting a part's first row leaves it valid, so separators — and the manifest — change
 * only when a part splits or merges, or when the document count changes (an insert or a delete; an
 * update of a document in place leaves the manifest byte-identical). `next` numbers new part names.
 *
 * Both are read back from the section and untrusted: `parseManifest` and `parsePart` check shape,
 * order and bounds, and give `InvalidResponse` (naming the key) rather than a wrong answer.
 */
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { array, at, fail, integer, onlyKeys, record, shapedJson, string } from './check.js';
import { manifestPath, partPath } from './paths.js';
import {
  compareRows,
  compareToSeparator,
  decodeRow,
  decodeRowV1,
  type Row,
  type Separator,
  storedLine,
} from './rows.js';
import { isStored, type Stored } from './values.js';
import { indexWork } from './work.js';

export interface PartRef {
  /** Decimal part number, unique within the run. */
  name: string;
  lower: Separator | null;
}

export interface Run {
  field: string;
  next: number;
  parts: PartRef[];
}

/**
 * The stored format a writer writes: 2 (front-coded ids, base64url SHAs; rows.ts). Format 1 is still read,
 * so queries answer from an index written before; the next write of the type rewrites it in format 2.
 */
export const FORMAT_VERSION = 2;

export interface Manifest {
  /** 1 or 2: how the parts' rows are spelled (the manifest itself is the same). */
  version: 1 | 2;
  namespace: string;
  type: string;
  fields: string[];
  /** Documents of this type. */
  count: number;
  runs: Run[];
}

/** A part's lower bound: `null` (from the start of the run) or `[key, id]` with a stored key and an id. */
function lowerOf(v: unknown, field: string): Separator | null {
  if (v === null) return null;
  const pair = array(v, field, 2, 'must be null or a [key, id] separator');
  if (pair.length !== 2) fail(field, 'must be null or a [key, id] separator');
  const [key, id] = pair;
  if (!isStored(key)) fail(at(field, 0), 'must be a stored index value');
  return [key, string(id, at(field, 1), 1)];
}

function partRefOf(v: unknown, field: string): PartRef {
  const o = record(v, field);
  const name = string(o.name, at(field, 'name'));
  if (!/^[0-9]{1,9}$/.test(name)) fail(at(field, 'name'), 'must be a part number of 1 to 9 decimal digits');
  const lower = lowerOf(o.lower, at(field, 'lower'));
  onlyKeys(o, field, ['name', 'lower']);
  return { name, lower };
}

function runOf(v: unknown, field: string): Run {
  const o = record(v, field);
  const name = string(o.field, at(field, 'field'));
  const next = integer(o.next, at(field, 'next'), 0);
  const parts = array(o.parts, at(field, 'parts')).map((p, i) => partRefOf(p, at(at(field, 'parts'), i)));
  if (parts.length === 0) fail(at(field, 'parts'), 'must list at least one part');
  onlyKeys(o, field, ['field', 'next', 'parts']);
  return { field: name, next, parts };
}

/** The manifest's shape, in a fresh object; its order and consistency are checked by checkRuns. */
function manifestOf(v: unknown): Manifest {
  const o = record(v, '');
  if (o.version !== 1 && o.version !== FORMAT_VERSION) fail('version', `must be 1 or ${FORMAT_VERSION}`);
  const namespace = string(o.namespace, 'namespace');
  const type = string(o.type, 'type');
  const fields = array(o.fields, 'fields').map((f, i) => string(f, at('fields', i)));
  if (fields.length === 0) fail('fields', 'must list at least one field');
  const count = integer(o.count, 'count', 0);
  const runs = array(o.runs, 'runs').map((r, i) => runOf(r, at('runs', i)));
  onlyKeys(o, '', ['version', 'namespace', 'type', 'fields', 'count', 'runs']);
  return { version: o.version as 1 | 2, namespace, type, fields, count, runs };
}

/** The manifest's bytes (one compact line: it is read on every query, so size counts more than diffs). */
export function serializeManifest(m: Manifest): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(m)}\n`);
}

function badManifest(key: string, why: string): never {
  throw new InvalidResponse(`index manifest ${key} ${why}; the index must be rebuilt`, { key });
}

function checkRuns(m: Manifest, key: string): void {
  if (m.runs.length !== m.fields.length || m.runs.some((r, i) => r.field !== m.fields[i])) {
    badManifest(key, 'does not list one run per field, in order');
  }
  for (const run of m.runs) {
    const names = new Set(run.parts.map((p) => p.name));
    if (names.size !== run.parts.length || run.parts.some((p) => Number(p.name) >= run.next)) {
      badManifest(key, `has duplicate or unnumbered part names in the run of ${run.field}`);
    }
    run.parts.forEach((p, i) => {
      if ((i === 0) !== (p.lower === null))
        badManifest(key, `has a misplaced null separator in the run of ${run.field}`);
      const prev = run.parts[i - 1]?.lower;
      if (i > 1 && p.lower && prev && compareToSeparator({ key: p.lower[0], id: p.lower[1] }, prev) <= 0) {
        badManifest(key, `has separators out of order in the run of ${run.field}`);
      }
    });
  }
}

/**
 * Parse a manifest read back from the section at `key` for `(namespace, type)`.
 *
 * @example
 * parseManifest(bytes, 'github', 'repo'); // Manifest, or throws InvalidResponse
 */
export function parseManifest(bytes: Uint8Array, namespace: string, type: string): Manifest {
  const key = manifestPath(namespace, type);
  indexWork.manifestsParsed++;
  const m: Manifest = shapedJson(bytes, manifestOf, (why) => badManifest(key, why));
  if (m.namespace !== namespace || m.type !== type) badManifest(key, `names ${m.namespace}/${m.type}`);
  checkRuns(m, key);
  return m;
}

/**
 * Most bytes of one part a reader accepts. A writer splits a part above `maxPartBytes` (128 KiB by default,
 * under 1 MiB by contract) and one row is at most ~80 KB (8 fields of 32 elements of 256 bytes), so no part
 * a docdb writer writes comes near 2 MiB — and since a row takes at least 51 bytes, this also bounds a part
 * to ~41,000 rows: a crafted part of 400,000 rows is refused before one line is parsed.
 */
export const MAX_READ_PART_BYTES = 2 * 1024 * 1024;

/** A part's bytes in the current format: one row per line, each id front-coded on the one before it. */
export function encodePart(rows: readonly Row[]): Uint8Array {
  const lines: string[] = new Array(rows.length + 1);
  let prev = '';
  for (const [i, r] of rows.entries()) {
    lines[i] = storedLine(r, prev);
    prev = r.id;
  }
  lines[rows.length] = ''; // the last newline
  // One join (a flat string) rather than a chain of concatenations the encoder must flatten first.
  return new TextEncoder().encode(rows.length === 0 ? '' : lines.join('\n'));
}

/** The path of part `i` of the run of `fields[fi]`. */
export function pathOfPart(m: Manifest, fi: number, i: number): string {
  return partPath(m.namespace, m.type, m.fields[fi]!, m.runs[fi]!.parts[i]!.name);
}

/**
 * Parse part `i` of the run of `m.fields[fi]` (untrusted): every line a row, rows strictly increasing,
 * all within the part's separators. Anything else is `InvalidResponse`, never a silently wrong answer.
 *
 * @example
 * const rows = parsePart(manifest, 0, 2, bytes);
 */
export function parsePart(m: Manifest, fi: number, i: number, bytes: Uint8Array): Row[] {
  const path = pathOfPart(m, fi, i);
  indexWork.partsParsed++;
  if (bytes.length > MAX_READ_PART_BYTES) {
    throw new InvalidResponse(
      `index part ${path} holds ${bytes.length} bytes, more than a docdb writer writes (at most ${MAX_READ_PART_BYTES}); the index must be rebuilt`,
      { key: path, bytes: bytes.length, allowed: MAX_READ_PART_BYTES },
    );
  }
  if (!isUtf8(bytes))
    throw new InvalidResponse(`index part ${path} is not UTF-8; the index must be rebuilt`, { key: path });
  const text = fromUtf8(bytes);
  if (text !== '' && !text.endsWith('\n')) {
    throw new InvalidResponse(`index part ${path} does not end with a newline; the index must be rebuilt`, {
      key: path,
    });
  }
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const n = m.fields.length;
  const ascii = text.length === bytes.length;
  const rows: Row[] = [];
  for (const [k, l] of lines.entries()) {
    rows.push(
      m.version === 1 ? decodeRowV1(l, n, fi, path, k + 1) : decodeRow(l, n, fi, path, k + 1, rows[k - 1]?.id, ascii),
    );
  }
  const { lower } = m.runs[fi]!.parts[i]!;
  const upper = m.runs[fi]!.parts[i + 1]?.lower;
  rows.forEach((r, n) => {
    const ordered = n === 0 ? !lower || compareToSeparator(r, lower) >= 0 : compareRows(rows[n - 1]!, r) < 0;
    if (!ordered || (upper && compareToSeparator(r, upper) >= 0)) {
      throw new InvalidResponse(
        `index part ${path} line ${n + 1} is out of order or outside its part; the index must be rebuilt`,
        {
          key: path,
          line: n + 1,
        },
      );
    }
  });
  return rows;
}

/** Index of the part of `run` whose range holds `r` (binary search over separators). */
export function partFor(run: Run, r: { key: Stored; id: string }): number {
  let lo = 0;
  let hi = run.parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (compareToSeparator(r, run.parts[mid]!.lower!) >= 0) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
