/**
 * The export/query text formats (src/export/formats.ts): CSV quoting per RFC 4180, read back by an
 * independent RFC 4180 reader on random values (fast-check); JSON as one array that parses; JSON Lines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, formatItems, valueAt } from '../../src/export/formats.js';

/** A plain RFC 4180 reader (the test's oracle, written from the RFC's grammar, not from the writer). */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        field += c;
        i++;
      }
    } else if (c === '"' && field === '') {
      quoted = true;
      i++;
    } else if (c === ',') {
      record.push(field);
      field = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || record.length > 0) throw new Error(`unterminated record: ${JSON.stringify(text)}`);
  return records;
}

const collect = async (chunks: AsyncIterable<string>) => {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
};

describe('CSV', () => {
  it('quotes a field with a comma, a quote or a line break, and only those', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r')).toBe('"cr\r"');
    expect(csvField(undefined)).toBe('');
    expect(csvField(null)).toBe('null');
    expect(csvField(42)).toBe('42');
    expect(csvField(false)).toBe('false');
    expect(csvField(['a', 'b'])).toBe('"[""a"",""b""]"');
    expect(csvRecord(['id', 1])).toBe('id,1\r\n');
  });

  it('every record reads back field for field (strings as they are, the rest as JSON)', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()));
    fc.assert(
      fc.property(fc.array(fc.array(value, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (rows) => {
        const width = rows[0]!.length;
        const table = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
        const back = readCsv(table.map((r) => csvRecord(r)).join(''));
        expect(back).toEqual(table.map((r) => r.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))));
      }),
      { numRuns: 500 },
    );
  });

  it('formatItems writes the header, then the value at each column path', async () => {
    const items = [
      { id: 'a', data: { stars: 3, owner: { login: 'x,y' }, topics: ['cli'] } },
      { id: 'b', data: {} },
    ];
    const text = await collect(
      formatItems(items, 'csv', { columns: ['id', 'data.stars', 'data.owner.login', 'data.topics'] }),
    );
    expect(readCsv(text)).toEqual([
      ['id', 'data.stars', 'data.owner.login', 'data.topics'],
      ['a', '3', 'x,y', '["cli"]'],
      ['b', '', '', ''],
    ]);
  });
});

describe('JSON and JSON Lines', () => {
  it('json is one array, empty or not; jsonl one value per line', async () => {
    const items = [{ a: 1 }, { b: 'two\nlines' }];
    expect(JSON.parse(await collect(formatItems(items, 'json')))).toEqual(items);
    expect(JSON.parse(await collect(formatItems([], 'json')))).toEqual([]);
    const lines = (await collect(formatItems(items, 'jsonl'))).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).map((l) => JSON.parse(l))).toEqual(items);
  });

  it('valueAt walks own keys only', () => {
    expect(valueAt({ data: { a: { b: 0 } } }, 'data.a.b')).toBe(0);
    expect(valueAt({ data: { a: 1 } }, 'data.a.b')).toBeUndefined();
    expect(valueAt({ data: {} }, 'data.constructor')).toBeUndefined();
  });
});
