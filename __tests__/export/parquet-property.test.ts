/**
 * Random documents (fast-check) through `exportParquet`, read back by DuckDB: every column's type is the one its
 * values call for (worked out here, independently of src/export/parquet/kinds.ts), and every cell and `data`
 * hold the document's values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo } from '../remote-api/helpers.js';
import { columnTypes, rowsById, runParquet } from './parquet-fixture.js';
import { blob, commitDocs } from './sqlite-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(async () => {
  em = await emulator();
  tmp = tempDir('docdb-parquet-prop-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const scalar = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 }),
  fc.constant(2 ** 60),
  fc.boolean(),
  fc.string({ maxLength: 6, unit: 'grapheme' }),
  fc.constant(null),
);
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('x', 'y'), scalar, { maxKeys: 2 }) },
);
/** A few field names, so that columns repeat across documents (and `id`/`data` collide with fixed columns). */
const data = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'id', 'data', '_version', 'B'), value, { maxKeys: 5 });
/** Per field, documents that share a kind (so typed columns happen) or not. */
const docs = fc.uniqueArray(fc.record({ id: fc.stringMatching(/^[a-z0-9]{1,6}$/), data }), {
  minLength: 1,
  maxLength: 30,
  selector: (d) => d.id,
});

/** The DuckDB type a column of these values should have (the mapping in docs/export.md). */
function expectedType(values: unknown[]): string {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return 'VARCHAR';
  if (present.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) return 'BIGINT';
  if (present.every((v) => typeof v === 'number')) return 'DOUBLE';
  if (present.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  if (present.every((v) => typeof v === 'string')) return 'VARCHAR';
  if (present.every((v) => typeof v === 'object')) return 'JSON';
  return 'VARCHAR (mixed)';
}

function at(data: unknown, field: string): unknown {
  let here = data;
  for (const s of field.split('.').slice(1)) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, s)) return undefined;
    here = (here as Record<string, unknown>)[s];
  }
  return here;
}

/** A cell as DuckDB gives it (JSON rows: BIGINT as text, JSON and mixed as JSON text), checked against `v`. */
function checkCell(type: string, cell: unknown, v: unknown): void {
  if (v === null || v === undefined) return void expect(cell).toBeNull();
  if (type === 'BIGINT') return void expect(cell).toBe(String(v));
  if (type === 'JSON' || type === 'VARCHAR (mixed)') return void expect(JSON.parse(String(cell))).toEqual(v);
  expect(cell).toEqual(v);
}

describe('exportParquet: random documents', () => {
  it('DuckDB reads each column with the type its values call for, and every value', async () => {
    await fc.assert(
      fc.asyncProperty(docs, async (list) => {
        const repo = freshRepo(em);
        const files: Record<string, string | null> = { 'README.md': null };
        for (const d of list) files[`r/t/${d.id}.json`] = blob('r', 't', d.id, d.data);
        commitDocs(em, repo, files);
        const dir = join(tmp.dir, `run-${++n}`);
        await runParquet(em, repo, dir);
        const file = join(dir, 'r_t.parquet');
        const stored = new Map(list.map((d) => [d.id, JSON.parse(JSON.stringify(d.data)) as unknown]));
        const meta = JSON.parse(readFileSync(join(dir, '_docdb.json'), 'utf8'));
        const fields = (meta.files[0].columns as { name: string; field?: string }[]).filter((c) => c.field);
        const types = new Map(await columnTypes(file));
        const rows = await rowsById(file);
        expect(rows.size).toBe(list.length);
        for (const c of fields) {
          const want = expectedType([...stored.values()].map((d) => at(d, c.field as string)));
          expect([c.name, types.get(c.name)]).toEqual([c.name, want.replace(' (mixed)', '')]);
          for (const [id, d] of stored) checkCell(want, rows.get(id)?.[c.name], at(d, c.field as string));
        }
        for (const [id, d] of stored) expect(JSON.parse(String(rows.get(id)?.data))).toEqual(d);
      }),
      { numRuns: 8, seed: 41 },
    );
  }, 120_000);
});
