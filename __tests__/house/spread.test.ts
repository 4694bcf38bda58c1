/**
 * No spread of an unbounded array into a call anywhere in src/ (issue 37 item 4): `push(...rows)` or
 * `Math.max(...values)` with ~100,000+ elements throws `RangeError: Maximum call stack size exceeded`. Use
 * `appendAll` / `extent` (src/core/arrays.ts) or a loop. A spread whose length is bounded by construction may
 * stay, listed here with the reason it is bounded.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CallSpread, callSpreads } from './spreads.js';
import { sourceFiles } from './structure.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** `file → start of the spread's text → why its length is bounded`. */
const BOUNDED: Record<string, Record<string, string>> = {
  'src/core/bytes.ts': { 'bytes.subarray(i, i + 3 * 8192)': 'a chunk of 24,576 bytes' },
  'src/stores/git-http/pkt-line.ts': { 'body.subarray(i, i + 4)': '4 bytes' },
  'src/stores/git-http/pack-reader.ts': { 'pack.subarray(0, 4)': '4 bytes' },
  'src/stores/remote-api/tar-stream.ts': {
    'b.subarray(257, 263)': '6 bytes',
    'b.subarray(at, at + len)': 'one field of a 512-byte tar header',
    'body.subarray(at, space)': 'a pax length of at most 20 digits (checked just before)',
  },
  'src/retention/pacer.ts': { 'WINDOWS.map(': 'the fixed list of rate windows' },
  'src/action/summary.ts': {
    'shown.map(': 'at most 100 keys (report.keys.slice(0, 100))',
    '(report.keys.length > shown.length ?': 'at most one line',
  },
  'src/cli/commands/doc-query.ts': { more: 'the fixed usage checks of the command' },
  'src/emulator/export.ts': { "ref.split('/')": 'the segments of one ref name' },
  'src/export/real-path.ts': { 'missing.reverse()': 'the segments of one path' },
  'src/export/write-export.ts': { "e.key.split('/')": 'the segments of one key' },
  'src/viewer/search/merge.ts': { 'page.hits': 'one page of search hits (limit ≤ 100, MAX_SEARCH_LIMIT)' },
};

/**
 * Spreads of child nodes into DOM calls (`h(tag, attrs, ...children)`, `append`, `replaceChildren`) in the
 * viewer and playground: each draws one page of a paged list (or a fixed set of controls).
 */
const VIEW_PAGES = /^src\/(viewer|playground)\//;
const DOM_CALL = /^(h|s|el|[\w.]+\.(append|replaceChildren))$/;
const listed = (s: CallSpread) =>
  (VIEW_PAGES.test(s.file) && DOM_CALL.test(s.callee)) ||
  Object.keys(BOUNDED[s.file] ?? {}).some((start) => s.spread.startsWith(start));

describe('no spread of an unbounded array into a call (src/)', () => {
  const found = sourceFiles(`${ROOT}/src`).flatMap((f) => callSpreads(f, ROOT));

  it('every call spread is listed as bounded, with its reason', () => {
    const unlisted = found.filter((s) => !listed(s)).map((s) => `${s.file}:${s.line} ...${s.spread}`);
    expect(unlisted).toEqual([]);
  });

  it('the allow-list names only spreads that exist', () => {
    const entries = Object.entries(BOUNDED).flatMap(([file, spreads]) =>
      Object.keys(spreads).map((s) => `${file} ${s}`),
    );
    const present = found.map((s) => `${s.file} ${s.spread}`);
    expect(entries.filter((l) => !present.some((p) => p.startsWith(l)))).toEqual([]);
  });

  it('sees what it guards against: rows.push(...batch), Math.max(...v), new Set(...x), not [...x] or { ...o }', () => {
    const fixture = resolve(import.meta.dirname, 'fixtures/spreads.ts');
    expect(callSpreads(fixture, ROOT).map((s) => s.spread)).toEqual(['batch', 'values', 'x']);
  });
});
