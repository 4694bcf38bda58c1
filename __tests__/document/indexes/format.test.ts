/** Index files are read back from the section: every damage gives InvalidResponse naming the key. */
import { describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../../src/core/errors.js';
import { assertValidKey } from '../../../src/core/keys.js';
import { buildIndex } from '../../../src/document/indexes/build.js';
import { parseManifest, parsePart, partFor, serializeManifest } from '../../../src/document/indexes/format.js';
import { fieldDir, partPath } from '../../../src/document/indexes/paths.js';
import { shaToText } from '../../../src/document/indexes/sha-text.js';
import { doc, enc, manifestOf } from './helpers.js';

const decl = { version: 1 as const, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.n', 'data.tags'] }] };
const docs = Array.from({ length: 40 }, (_, i) =>
  doc('g', 'repo', `r${String(i).padStart(2, '0')}`, { n: i, tags: ['x', `t${i % 3}`] }),
);
const files = buildIndex(decl, docs, { maxPartBytes: 1024 });
const m = manifestOf(files, 'g', 'repo');
const SHA = 'a'.repeat(40);
/** SHA as a format-2 row spells it (base64url). */
const SHA64 = shaToText(SHA);

function damage(fn: () => unknown, text: RegExp | string): InvalidResponse {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidResponse);
    expect((e as Error).message).toMatch(text);
    return e as InvalidResponse;
  }
  throw new Error('accepted');
}

describe('index paths', () => {
  it('encodes field names into plain key segments, whatever the field', () => {
    expect(fieldDir('data.größe~1')).toBe('data.gr%C3%B6%C3%9Fe%7E1');
    for (const f of ['id', 'data.a b', 'data.git~1', 'data.\\x', 'data.😀', 'data..git']) {
      assertValidKey(partPath('g', 'repo', f, '12'));
    }
  });
});

describe('manifest and parts, read back', () => {
  it('round-trips and splits runs into several parts', () => {
    expect(parseManifest(serializeManifest(m), 'g', 'repo')).toEqual(m);
    expect(m.runs[0]!.parts.length).toBeGreaterThan(2);
    expect(m.count).toBe(40);
    const rows = m.runs[0]!.parts.flatMap((p, i) =>
      parsePart(m, 0, i, files.get(partPath('g', 'repo', 'data.n', p.name))!),
    );
    expect(rows.map((r) => r.key)).toEqual(docs.map((_, i) => i));
    // element rows: one per distinct tag
    const tags = m.runs[1]!.parts.flatMap((p, i) =>
      parsePart(m, 1, i, files.get(partPath('g', 'repo', 'data.tags', p.name))!),
    );
    expect(tags.length).toBe(80);
  });

  it('finds the part whose range holds a row', () => {
    const run = m.runs[0]!;
    const last = run.parts.length - 1;
    expect(partFor(run, { key: -1, id: 'x' })).toBe(0);
    expect(partFor(run, { key: 1e9, id: 'x' })).toBe(last);
    const sep = run.parts[1]!.lower!;
    expect(partFor(run, { key: sep[0], id: sep[1] })).toBe(1);
  });

  it.each([
    ['not JSON', enc.encode('{'), /is not JSON/],
    ['another shape', enc.encode('{"version":1}'), /shape/],
    ['another type', serializeManifest({ ...m, type: 'issue' }), /names g\/issue/],
    ['runs out of step with fields', serializeManifest({ ...m, fields: ['data.tags', 'data.n'] }), /one run per field/],
    [
      'separators out of order',
      serializeManifest({ ...m, runs: [{ ...m.runs[0]!, parts: [...m.runs[0]!.parts].reverse() }, m.runs[1]!] }),
      /null separator|out of order/,
    ],
    [
      'a part named twice',
      serializeManifest({
        ...m,
        runs: [{ ...m.runs[0]!, parts: [m.runs[0]!.parts[0]!, { name: '0', lower: [99, 'z'] }] }, m.runs[1]!],
      }),
      /duplicate/,
    ],
  ])('refuses a manifest that is %s', (_, bytes, text) => {
    expect(damage(() => parseManifest(bytes, 'g', 'repo'), text).data.key).toBe('_docdb/index/g/repo/manifest.json');
  });

  const part0 = (text: string) => () => parsePart(m, 0, 0, enc.encode(text));
  it.each([
    ['not JSON', '{\n', /line 1 is not JSON/],
    ['a row of another length', '[0,"a","x",1]\n', /is not a row/],
    ['no blob SHA', `[0,"a","xyz",1,["x"]]\n`, /no blob SHA \(27 base64url characters\)/],
    ['a hex blob SHA (format 1 spelling)', `[0,"a","${SHA}",1,["x"]]\n`, /no blob SHA/],
    ['a SHA of a non-canonical spelling', `[0,"a","${SHA64.slice(0, 26)}B",1,[]]\n`, /no blob SHA/],
    ['a value of no stored kind', `[0,"a","${SHA64}",{"a":1},[]]\n`, /not a stored index value/],
    ['rows out of order', `[0,"b","${SHA64}",1,[]]\n[0,"a","${SHA64}",1,[]]\n`, /line 2 is out of order/],
    ['a row beyond its part', `[0,"z","${SHA64}",1000000,[]]\n`, /outside its part/],
    ['no final newline', `[0,"a","${SHA64}",1,[]]`, /newline/],
    ['an element not in its array', `[0,"a","${SHA64}",["x"],[],"y"]\n`, /not in its array/],
    ['a first row continuing an id', `[1,"a","${SHA64}",1,[]]\n`, /line 1 has a shared id prefix that is not 0 to 0/],
    [
      'a prefix longer than the id before',
      `[0,"a","${SHA64}",1,[]]\n[2,"b","${SHA64}",1,[]]\n`,
      /line 2 has a shared id prefix/,
    ],
    [
      'a prefix that is not a count',
      `[0,"a","${SHA64}",1,[]]\n[0.5,"b","${SHA64}",1,[]]\n`,
      /line 2 has a shared id prefix/,
    ],
    ['an empty id', `["","","${SHA64}",1,[]]\n`, /shared id prefix|no id/],
  ])('refuses a part that has %s', (_, text, re) => {
    const e = damage(part0(text), re);
    expect(e.data.key).toBe('_docdb/index/g/repo/data.n/0.jsonl');
  });
});

describe('a part larger than a docdb writer writes (issue 37 item 4)', () => {
  it('is InvalidResponse naming its path, before a line is parsed (a crafted part of 400,000 rows)', () => {
    const row = `["r00","${SHA}",0,[],"x"]\n`;
    const huge = new TextEncoder().encode(row.repeat(400_000));
    const e = damage(
      () => parsePart(m, 0, 0, huge),
      /index part _docdb\/index\/g\/repo\/data\.n\/0\.jsonl holds \d+ bytes, more than a docdb writer writes \(at most 2097152\)/,
    );
    expect(e.data.key).toBe(partPath('g', 'repo', 'data.n', m.runs[0]!.parts[0]!.name));
  });

  it('a writer never writes one: maxPartBytes above 1 MiB (or not a byte count) is refused', () => {
    for (const bad of [2 * 1024 * 1024, 0, 1.5, Number.NaN]) {
      expect(() => buildIndex(decl, docs, { maxPartBytes: bad })).toThrow(
        /index\.maxPartBytes must be a whole number of bytes from 64 to 1048576/,
      );
    }
    expect(buildIndex(decl, docs, { maxPartBytes: 1024 * 1024 }).size).toBeGreaterThan(0);
  });
});
