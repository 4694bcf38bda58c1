/**
 * Value counts (issue 40 item 7, facets): per indexed field, how many rows of its run hold each key —
 * kept next to the run as `_docdb/index/<ns>/<type>/<field dir>/counts.json`, so the facets of a field
 * cost one read at any type size (the run itself is ~95 parts at 100,000 documents). Every docdb writer
 * keeps the file EXACT in the same commit as the run: a build counts the run's rows, an update applies the
 * rows it removes and adds (update.ts knows them), a drop deletes it. See docs/indexes.md "Value counts".
 *
 * A count is of ROWS, so it follows the run's own rules (rows.ts): a scalar is one row, a non-empty array
 * one row per distinct element (counted apart from the same scalar: its filter is `contains`, not `=`),
 * `[]` and a missing field (`{}`) are keys of their own, a long string counts under its cut prefix.
 *
 * Stored form, one compact line:
 *   {"version":1,"field":"data.language","count":5000,"values":[["C",500],["Go",1500],["cli",4000,1]]}
 * `count` is the type's document count (the manifest's), `values` every distinct key in run order
 * (`[key, count]`, or `[key, count, 1]` for an array element) — or `null` past {@link COUNTS_CAP}
 * distinct keys: then no count is kept (a top list kept from a partial count could be wrong after the
 * next write). Read back it is untrusted: shape, order, cap, and sums consistent with `count` are
 * checked, and anything else is `InvalidResponse` naming the file — never a wrong count.
 */
import { fromUtf8, isUtf8 } from '../../core/bytes.js';
import { InvalidResponse } from '../../core/errors.js';
import { array, at, fail, integer, onlyKeys, record, ShapeProblem, string } from './check.js';
import { fieldDir, indexDir } from './paths.js';
import type { Row } from './rows.js';
import { compareStored, isStored, MAX_ARRAY_ELEMENTS, type Stored } from './values.js';

/** Most distinct keys whose counts a field keeps; past it the file says "more than this" and keeps none. */
export const COUNTS_CAP = 1000;

/** One key of a run and how many rows hold it. */
export interface KeyCount {
  key: Stored;
  /** True for an element of an array value (a `contains` filter); false for a whole value. */
  element: boolean;
  count: number;
}

/** One field's value counts. */
export interface ValueCounts {
  field: string;
  /** Documents of the type when the counts were written (the manifest's `count`). */
  count: number;
  /** Every distinct key in run order, or null: more than {@link COUNTS_CAP} distinct keys, none kept. */
  values: KeyCount[] | null;
}

/**
 * Where a field's counts live, beside its run's parts.
 *
 * @example
 * countsPath('github', 'repo', 'data.language'); // '_docdb/index/github/repo/data.language/counts.json'
 */
export function countsPath(namespace: string, type: string, field: string): string {
  return `${indexDir(namespace, type)}${fieldDir(field)}/counts.json`;
}

/** Every counts path of a type's fields (what a drop or a rebuild for other fields deletes). */
export function countsPaths(m: { namespace: string; type: string; fields: readonly string[] }): string[] {
  return m.fields.map((f) => countsPath(m.namespace, m.type, f));
}

const slotOf = (key: Stored, element: boolean) => `${element ? 'e' : 's'}${JSON.stringify(key)}`;

/** Run order of two counted keys: by key, a whole value before the same key as an element. */
function compareCounted(a: KeyCount, b: KeyCount): number {
  return compareStored(a.key, b.key) || Number(a.element) - Number(b.element);
}

/** Counts keyed by slot, from a list (the stored form's `values`). */
function bySlot(values: readonly KeyCount[]): Map<string, KeyCount> {
  return new Map(values.map((v) => [slotOf(v.key, v.element), { ...v }]));
}

/** The counts as stored: the slots in run order, or null past the cap. */
function finish(field: string, count: number, slots: Map<string, KeyCount>): ValueCounts {
  const values = slots.size > COUNTS_CAP ? null : [...slots.values()].sort(compareCounted);
  return { field, count, values };
}

/**
 * The counts of one run's rows (a build: every row of the field, `count` documents).
 *
 * @example
 * countRows('data.l', 2, rows).values; // [{ key: 'Go', element: false, count: 2 }]
 */
export function countRows(field: string, count: number, rows: readonly Row[]): ValueCounts {
  const slots = new Map<string, KeyCount>();
  for (const r of rows) {
    const slot = slotOf(r.key, r.element);
    const seen = slots.get(slot);
    if (seen) seen.count++;
    else slots.set(slot, { key: r.key, element: r.element, count: 1 });
  }
  return finish(field, count, slots);
}

/**
 * The net change of each key's count from rows removed and added (keys whose rows only moved, e.g. a
 * document rewritten with the same value, cancel out); `count` may be negative, zeros are left out.
 *
 * @example
 * keyDelta(rowsOfGo, rowsOfRust); // [{ key: 'Go', element: false, count: -1 }, { key: 'Rust', element: false, count: 1 }]
 */
export function keyDelta(removed: readonly Row[], added: readonly Row[]): KeyCount[] {
  const slots = new Map<string, KeyCount>();
  const add = (r: Row, n: number) => {
    const slot = slotOf(r.key, r.element);
    const seen = slots.get(slot);
    if (seen) seen.count += n;
    else slots.set(slot, { key: r.key, element: r.element, count: n });
  };
  for (const r of removed) add(r, -1);
  for (const r of added) add(r, 1);
  return [...slots.values()].filter((k) => k.count !== 0);
}

/**
 * The counts after a write: `delta` from {@link keyDelta}, `count` the type's new document count. Counts
 * past the cap stay uncounted (only a build counts them again). Throws `InvalidResponse` when a key would
 * fall below zero: the file contradicts the run.
 *
 * @example
 * applyKeyDelta(old, keyDelta(removed, added), 5001, path);
 */
export function applyKeyDelta(old: ValueCounts, delta: readonly KeyCount[], count: number, path: string): ValueCounts {
  if (old.values === null) return { field: old.field, count, values: null };
  const slots = bySlot(old.values);
  for (const d of delta) {
    const slot = slotOf(d.key, d.element);
    const now = (slots.get(slot)?.count ?? 0) + d.count;
    if (now < 0) {
      throw new InvalidResponse(
        `index counts ${path} holds fewer rows of ${JSON.stringify(d.key)} than the write removes; the index must be rebuilt`,
        { key: path },
      );
    }
    if (now === 0) slots.delete(slot);
    else slots.set(slot, { key: d.key, element: d.element, count: now });
  }
  return finish(old.field, count, slots);
}

/** What a write does to one field's counts: nothing when no key's count and not the document count change. */
function touches(delta: readonly KeyCount[], before: number, after: number): boolean {
  return delta.length > 0 || before !== after;
}

/**
 * The counts file of run `fi` a write must read (then rewrite), or undefined when it leaves it alone.
 *
 * @example
 * countsToRead(manifest, 0, keyDelta(removed, added), manifest.count + 1); // '_docdb/index/g/repo/data.l/counts.json'
 */
export function countsToRead(
  m: { namespace: string; type: string; fields: readonly string[]; count: number },
  fi: number,
  delta: readonly KeyCount[],
  count: number,
): string | undefined {
  return touches(delta, m.count, count) ? countsPath(m.namespace, m.type, m.fields[fi]!) : undefined;
}

/**
 * The new bytes of run `fi`'s counts after a write (`m` as before it, `count` after), or undefined when
 * the write leaves them alone — or the index has none (written before counts were kept: index-write.ts
 * then counts the field from one run, `countsFromRun`). `read` answers the file at the tip.
 *
 * @example
 * const next = countsAfter((p) => filesAtTip.get(p), manifest, 0, keyDelta(removed, added), manifest.count + 1);
 */
export function countsAfter(
  read: (path: string) => Uint8Array | undefined,
  m: { namespace: string; type: string; fields: readonly string[]; count: number },
  fi: number,
  delta: readonly KeyCount[],
  count: number,
): { path: string; bytes: Uint8Array } | undefined {
  const path = countsToRead(m, fi, delta, count);
  const bytes = path === undefined ? undefined : read(path);
  if (path === undefined || bytes === undefined) return undefined;
  const old = parseCounts(bytes, m.namespace, m.type, m.fields[fi]!, m.count);
  return { path, bytes: serializeCounts(applyKeyDelta(old, delta, count, path)) };
}

/**
 * The stored bytes of one field's counts (one line).
 *
 * @example
 * serializeCounts({ field: 'data.l', count: 1, values: [{ key: 'Go', element: false, count: 1 }] });
 * // '{"version":1,"field":"data.l","count":1,"values":[["Go",1]]}\n'
 */
export function serializeCounts(c: ValueCounts): Uint8Array {
  const values = c.values?.map((v) => (v.element ? [v.key, v.count, 1] : [v.key, v.count])) ?? null;
  return new TextEncoder().encode(`${JSON.stringify({ version: 1, field: c.field, count: c.count, values })}\n`);
}

function keyCountOf(v: unknown, field: string): KeyCount {
  const a = array(v, field, 3, 'must be [key, count] or [key, count, 1]');
  if (a.length < 2) fail(field, 'must be [key, count] or [key, count, 1]');
  const key = a[0];
  const element = a.length === 3;
  // A run's keys: a whole value is a scalar, `[]` or missing; an element is a scalar (rows.ts).
  if (!isStored(key) || (Array.isArray(key) && key.length > 0) || (element && !isScalarKey(key)))
    fail(at(field, 0), 'must be a key of the run (an element: a scalar)');
  const count = integer(a[1], at(field, 1), 1);
  if (element && a[2] !== 1) fail(at(field, 2), 'must be 1 (an array element) or left out');
  return { key, element, count };
}

/** An element key is a scalar or a cut string: never an array or the missing marker. */
function isScalarKey(v: Stored): boolean {
  return !Array.isArray(v) && !(typeof v === 'object' && v !== null && !('cut' in v));
}

function countsOf(v: unknown): ValueCounts {
  const o = record(v, '');
  if (o.version !== 1) fail('version', 'must be 1');
  const field = string(o.field, 'field', 1);
  const count = integer(o.count, 'count', 0);
  const values =
    o.values === null ? null : array(o.values, 'values', COUNTS_CAP, `must list at most ${COUNTS_CAP} values`);
  onlyKeys(o, '', ['version', 'field', 'count', 'values']);
  return { field, count, values: values?.map((x, i) => keyCountOf(x, at('values', i))) ?? null };
}

/**
 * Whether the sums fit `count` documents: each document is one whole-value row, or 1 to
 * {@link MAX_ARRAY_ELEMENTS} element rows — so a changed count shows unless another count changed with it.
 */
function sumsFit(c: ValueCounts): boolean {
  if (c.values === null) return true;
  let whole = 0;
  let elements = 0;
  for (const v of c.values) {
    if (v.element) elements += v.count;
    else whole += v.count;
  }
  const arrays = c.count - whole; // documents whose value is a non-empty array
  return arrays >= 0 && elements >= arrays && elements <= arrays * MAX_ARRAY_ELEMENTS;
}

function badCounts(key: string, why: string): never {
  throw new InvalidResponse(`index counts ${key} ${why}; the index must be rebuilt`, { key });
}

/**
 * Parse a field's counts read back from the section (untrusted) and check them against the type's
 * manifest count: a wrong shape, keys out of run order, more than the cap, sums that do not fit the
 * documents, or a count other than the manifest's (a writer that does not keep counts wrote the type
 * since) are `InvalidResponse` naming the file.
 *
 * @example
 * parseCounts(bytes, 'github', 'repo', 'data.language', manifest.count); // ValueCounts, or throws
 */
export function parseCounts(
  bytes: Uint8Array,
  namespace: string,
  type: string,
  field: string,
  documents: number,
): ValueCounts {
  const key = countsPath(namespace, type, field);
  let json: unknown;
  try {
    if (!isUtf8(bytes)) throw new Error('not UTF-8');
    json = JSON.parse(fromUtf8(bytes));
  } catch {
    badCounts(key, 'is not JSON');
  }
  let c: ValueCounts;
  try {
    c = countsOf(json);
  } catch (e) {
    if (!(e instanceof ShapeProblem)) throw e;
    badCounts(key, `does not have the counts' shape (${e.field || 'the file'} ${e.problem})`);
  }
  if (c.field !== field) badCounts(key, `names the field ${JSON.stringify(c.field)}`);
  if (c.count !== documents)
    badCounts(
      key,
      `counts ${c.count} documents where the manifest has ${documents} (written by a writer that does not keep counts?)`,
    );
  if (c.values?.some((v, i) => i > 0 && compareCounted(c.values![i - 1]!, v) >= 0))
    badCounts(key, 'lists values out of order or twice');
  if (!sumsFit(c)) badCounts(key, `has counts that do not add up to its ${c.count} documents`);
  return c;
}
