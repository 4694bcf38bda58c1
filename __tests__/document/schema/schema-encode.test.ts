/**
 * A schema declared in the same write is checked as each document is encoded (schema/parts.ts `checkEncoded`,
 * batch.ts), on every DocumentStore write path — commit / putMany up to 1,000 documents, putMany in parts,
 * commitParts — and the derive hook does not check those documents again. Each path still refuses a bad
 * document with ONE InvalidDocument (first 50 violations + the count) and writes nothing, the schema file
 * included; violations found while encoding and those of a type whose schema is the tip's are reported together.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidDocument } from '../../../src/core/errors.js';
import { DocumentStore, PUT_MANY_PART } from '../../../src/document/document-store.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const T = { namespace: 'github', type: 'repo' };
const SCHEMA = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } } };
const schemas = [{ ...T, schema: SCHEMA }];
const repo = (id: string, data: unknown) => ({ namespace: 'github', type: 'repo', id, data });
/** `n` documents, those at `badAt` breaking SCHEMA (stars: -1). */
const repos = (n: number, badAt: readonly number[] = []) =>
  Array.from({ length: n }, (_, i) => repo(`o/r${i}`, { stars: badAt.includes(i) ? -1 : i }));
const puts = (docs: readonly { namespace: string; type: string; id: string; data: unknown }[]) =>
  docs.map((document) => ({ op: 'put' as const, document }));

async function refusedWithNothingWritten(store: MemoryRefStore, write: Promise<unknown>) {
  const head = await store.head();
  const e = await write.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(InvalidDocument);
  expect(await store.head()).toBe(head);
  expect(await store.get('_docdb/types/github/repo.json')).toBeNull();
  return (e as InvalidDocument).data as { field: string; count: number; violations: { key: string; rule: string }[] };
}

function fresh() {
  const store = new MemoryRefStore();
  return { store, docs: new DocumentStore(store) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a schema declared in the same write refuses a bad document on every path', () => {
  it('commit and putMany up to 1,000 documents', async () => {
    const { store, docs } = fresh();
    const c = await refusedWithNothingWritten(store, docs.commit(puts(repos(5, [1, 3])), { schemas }));
    expect(c).toMatchObject({ field: 'data', count: 2 });
    expect(c.violations.map((v) => v.key)).toEqual(['github/repo/o/r1.json', 'github/repo/o/r3.json']);
    const small = await refusedWithNothingWritten(store, docs.putMany(repos(70, [0, 69]), { schemas }));
    expect(small.count).toBe(2);
  });

  it('putMany in parts: every violation of the write at once (first 50 + count)', async () => {
    const { store, docs } = fresh();
    const n = PUT_MANY_PART + 200;
    const bad = Array.from({ length: 60 }, (_, i) => i * 20);
    const e = await refusedWithNothingWritten(store, docs.putMany(repos(n, bad), { schemas }));
    expect(e.count).toBe(60);
    expect(e.violations).toHaveLength(50);
    expect(e.violations.every((v) => v.rule === 'minimum')).toBe(true);
    // The last document of the write, in the last part, is checked too.
    const last = await refusedWithNothingWritten(store, docs.putMany(repos(n, [n - 1]), { schemas }));
    expect(last.violations.map((v) => v.key)).toEqual([`github/repo/o/r${n - 1}.json`]);
  });

  it('commitParts: documents of every part', async () => {
    const { store, docs } = fresh();
    const all = repos(30, [2, 29]);
    const e = await refusedWithNothingWritten(
      store,
      docs.commitParts([puts(all.slice(0, 10)), puts(all.slice(10, 20)), puts(all.slice(20))], { schemas }),
    );
    expect(e.violations.map((v) => v.key)).toEqual(['github/repo/o/r2.json', 'github/repo/o/r29.json']);
  });

  it('put: against the schema that write declared', async () => {
    const { store, docs } = fresh();
    await docs.putMany(repos(3), { schemas });
    const head = await store.head();
    await expect(docs.put(repo('o/r1', { stars: -1 }))).rejects.toMatchObject({ code: 'InvalidDocument' });
    expect(await store.head()).toBe(head);
  });

  it('with a type whose schema is the tip’s: both types’ violations in the one error', async () => {
    const { store, docs } = fresh();
    await docs.declareSchema({ namespace: 'github', type: 'issue' }, { type: 'object', required: ['title'] });
    const issues = [0, 1, 2].map((i) => ({ namespace: 'github', type: 'issue', id: `i${i}`, data: {} }));
    for (const write of [
      () => docs.commit([...puts(repos(4, [0])), ...puts(issues)], { schemas }),
      () => docs.commitParts([puts(repos(4, [0])), puts(issues)], { schemas }),
    ]) {
      const e = await refusedWithNothingWritten(store, write());
      expect(e.count).toBe(4);
      expect(e.violations.map((v) => v.rule).sort()).toEqual(['minimum', 'required', 'required', 'required']);
    }
  });

  it('valid documents land with the schema in one commit', async () => {
    const { store, docs } = fresh();
    const r = await docs.putMany(repos(PUT_MANY_PART + 5), { schemas });
    expect(r.written).toContain('_docdb/types/github/repo.json');
    expect(r.written).toHaveLength(PUT_MANY_PART + 6);
    expect(await docs.schema(T)).toEqual(SCHEMA);
    expect(await store.head()).toBe(r.version);
  });
});

describe('documents checked as they were encoded are not decoded again', () => {
  it('a commitParts declaring its schema parses no envelope back to check it', async () => {
    const { docs } = fresh();
    const parse = vi.spyOn(JSON, 'parse');
    await docs.commitParts([puts(repos(40)), puts(repos(80).slice(40))], { schemas });
    // Without the check at encode time the hook decodes all 80 buffered envelopes (one JSON.parse each).
    expect(parse.mock.calls.length).toBeLessThan(10);
  });
});
