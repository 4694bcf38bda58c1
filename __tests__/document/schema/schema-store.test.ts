/**
 * A schema per type kept by DocumentStore (issue 38), on the memory store: declaring (same commit, same bytes
 * = no commit, documents already breaking it refused unless force, dropped), every write path refusing a
 * document that breaks it with ONE InvalidDocument listing the first 50 violations and the count (never a
 * value), nothing written; a commit in parts checked part by part, refused when the schema changed meanwhile;
 * a damaged declaration read back is InvalidResponse.
 */
import { describe, expect, it } from 'vitest';
import { commitInParts } from '../../../src/core/commit-parts.js';
import { InvalidConfig, InvalidDocument, InvalidResponse } from '../../../src/core/errors.js';
import type { Change } from '../../../src/core/refstore.js';
import { declarationsDerive } from '../../../src/document/declarations.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { PartsCollector } from '../../../src/document/indexed-ops.js';
import { typeDeclarationPath } from '../../../src/document/schema/declaration.js';
import { PartsSchemas } from '../../../src/document/schema/parts.js';
import { storedSchema } from '../../../src/document/schema/read.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const T = { namespace: 'github', type: 'repo' };
const SCHEMA = {
  type: 'object',
  required: ['stars'],
  properties: { stars: { type: 'integer', minimum: 0 }, name: { type: 'string' } },
};
const repo = (id: string, data: unknown) => ({ namespace: 'github', type: 'repo', id, data });
const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

function fresh() {
  const store = new MemoryRefStore();
  return { store, docs: new DocumentStore(store) };
}

async function refused(p: Promise<unknown>): Promise<InvalidDocument> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(InvalidDocument);
  return e as InvalidDocument;
}

describe('declaring a schema', () => {
  it('writes _docdb/types/<ns>/<type>.json in one commit; the same schema again writes nothing; null drops it', async () => {
    const { store, docs } = fresh();
    await docs.put(repo('o/a', { stars: 1 }));
    const r = await docs.declareSchema(T, SCHEMA);
    expect(r.changed).toBe(true);
    expect(r.written).toEqual([typeDeclarationPath('github', 'repo')]);
    expect(text((await store.get('_docdb/types/github/repo.json'))?.value)).toBe(
      `{\n  "version": 1,\n  "schema": ${JSON.stringify(
        {
          properties: { name: { type: 'string' }, stars: { minimum: 0, type: 'integer' } },
          required: ['stars'],
          type: 'object',
        },
        null,
        2,
      ).replaceAll('\n', '\n  ')}\n}\n`,
    );
    expect(await docs.schema(T)).toEqual(SCHEMA);
    // Keys in another order are the same schema: same bytes, no commit.
    const again = await docs.declareSchema(T, { properties: SCHEMA.properties, required: ['stars'], type: 'object' });
    expect(again.changed).toBe(false);
    expect(again.version).toBe(r.version);
    const dropped = await docs.declareSchema(T, null);
    expect(dropped.changed).toBe(true);
    expect(await store.get('_docdb/types/github/repo.json')).toBeNull();
    expect(await docs.schema(T)).toBeNull();
    expect(await docs.schema(T, { version: r.version as string })).toEqual(SCHEMA);
    expect((await docs.declareSchema(T, null)).changed).toBe(false);
  });

  it('a schema that is not valid JSON Schema, or not an object, is refused before any write', async () => {
    const { store, docs } = fresh();
    await expect(docs.declareSchema(T, { type: 'integr' })).rejects.toThrow(InvalidConfig);
    await expect(docs.declareSchema(T, 'object' as never)).rejects.toMatchObject({ data: { field: 'schema' } });
    await expect(docs.declareSchema({ namespace: 'github', type: '' }, SCHEMA)).rejects.toMatchObject({
      code: 'InvalidIdentity',
      data: { field: 'doc_type' },
    });
    await expect(docs.declareSchema({ namespace: '_docdb', type: 'repo' }, SCHEMA)).rejects.toMatchObject({
      code: 'InvalidIdentity',
      data: { field: 'namespace' },
    });
    await expect(
      docs.commit([], {
        schemas: [
          { ...T, schema: SCHEMA },
          { ...T, schema: null },
        ],
      }),
    ).rejects.toMatchObject({ data: { field: 'schemas[1]' } });
    expect(await store.head()).toBeNull();
  });

  it('documents already breaking it: refused listing them (≤ 50, with the count); force declares it anyway', async () => {
    const { store, docs } = fresh();
    await docs.putMany(Array.from({ length: 60 }, (_, i) => repo(`o/r${i}`, { stars: i % 2 ? -1 : 'many' })));
    await docs.put({ namespace: 'github', type: 'issue', id: 'x', data: { stars: 'other type, not checked' } });
    const head = await store.head();
    const e = await docs.declareSchema(T, SCHEMA).catch((x: InvalidConfig) => x);
    expect(e).toBeInstanceOf(InvalidConfig);
    const data = (e as InvalidConfig).data as { field: string; count: number; violations: { key: string }[] };
    expect(data.field).toBe('schema');
    expect(data.count).toBe(60);
    expect(data.violations).toHaveLength(50);
    expect((e as Error).message).toMatch(/github\/repo\/o\/r0\.json \/data\/stars breaks "type" \(found string/);
    expect((e as Error).message).not.toContain('many');
    expect(await store.head()).toBe(head);
    const forced = await docs.declareSchema(T, SCHEMA, { force: true });
    expect(forced.changed).toBe(true);
  });
});

describe('every write path refuses a document that breaks its type schema; nothing is written', () => {
  async function declared() {
    const f = fresh();
    await f.docs.declareSchema(T, SCHEMA);
    return { ...f, head: await f.store.head() };
  }

  it('put: InvalidDocument naming key, pointer, rule and the type found — never the value', async () => {
    const { store, docs, head } = await declared();
    const e = await refused(docs.put(repo('o/a', { stars: 'secret-token-value', name: 7 })));
    const data = e.data as { field: string; count: number; violations: { pointer: string }[] };
    expect({ ...data, violations: [...data.violations].sort((a, b) => a.pointer.localeCompare(b.pointer)) }).toEqual({
      field: 'data',
      count: 2,
      violations: [
        { key: 'github/repo/o/a.json', pointer: '/data/name', rule: 'type', expected: 'string', found: 'integer' },
        { key: 'github/repo/o/a.json', pointer: '/data/stars', rule: 'type', expected: 'integer', found: 'string' },
      ],
    });
    expect(e.message).toMatch(/github\/repo\/o\/a\.json \/data\/(stars|name) breaks "type" \(found (string|integer)/);
    expect(e.message).toMatch(/2 violations/);
    expect(JSON.stringify(e.data) + e.message).not.toContain('secret-token-value');
    expect(await store.head()).toBe(head);
    expect((await docs.put(repo('o/a', { stars: 3 }))).changed).toBe(true);
    await refused(docs.put(repo('o/b', 'not an object')));
  });

  it('commit, putMany (small and in parts), commitParts: every violation of the write at once (first 50 + count)', async () => {
    const { store, docs, head } = await declared();
    const bad = (n: number, from = 0) => Array.from({ length: n }, (_, i) => repo(`o/r${from + i}`, { stars: -1 }));
    const ok = { namespace: 'github', type: 'issue', id: 'fine', data: { anything: true } };
    const c = await refused(
      docs.commit([{ op: 'put', document: ok }, ...bad(3).map((document) => ({ op: 'put' as const, document }))]),
    );
    expect(c.data).toMatchObject({ count: 3 });
    const many = await refused(docs.putMany(bad(70)));
    expect(many.data).toMatchObject({ count: 70 });
    expect((many.data as { violations: unknown[] }).violations).toHaveLength(50);
    const parts = await refused(docs.putMany(bad(1200)));
    expect(parts.data).toMatchObject({ count: 1200 });
    const streamed = await refused(
      docs.commitParts([
        bad(2).map((document) => ({ op: 'put', document })),
        bad(2, 5).map((document) => ({ op: 'put', document })),
      ]),
    );
    expect(streamed.data).toMatchObject({ count: 4 });
    expect(await store.head()).toBe(head);
  });

  it('deletes and documents of other types are not checked', async () => {
    const { docs } = await declared();
    await docs.put(repo('o/a', { stars: 1 }));
    expect((await docs.delete({ namespace: 'github', doc_type: 'repo', id: 'o/a' })).changed).toBe(true);
    expect((await docs.put({ namespace: 'github', type: 'issue', id: 'x', data: 'anything' })).changed).toBe(true);
  });

  it('a schema declared in the same commit applies to that commit; its documents need not be read', async () => {
    const { store, docs } = fresh();
    await docs.put(repo('o/old', { stars: 'broken' }));
    const head = await store.head();
    const e = await refused(docs.putMany([repo('o/a', { stars: 'x' })], { schemas: [{ ...T, schema: SCHEMA }] }));
    expect(e.data).toMatchObject({ count: 1 });
    // The write replaces the broken document: the declaration passes, in ONE commit with the documents.
    const r = await docs.putMany([repo('o/old', { stars: 2 }), repo('o/a', { stars: 1 })], {
      schemas: [{ ...T, schema: SCHEMA }],
    });
    expect(r.written.sort()).toEqual([
      '_docdb/types/github/repo.json',
      'github/repo/o/a.json',
      'github/repo/o/old.json',
    ]);
    expect(r.previousVersion).toBe(head);
    // A document already there that the write does not replace breaks a NEW schema: refused, unless force.
    await docs.declareSchema(T, null);
    await docs.put(repo('o/left', { stars: 'broken' }));
    const strict = { ...SCHEMA, required: ['stars', 'name'] };
    const before = await store.head();
    await expect(
      docs.putMany([repo('o/new', { stars: 1, name: 'n' })], { schemas: [{ ...T, schema: strict }] }),
    ).rejects.toMatchObject({ code: 'InvalidConfig', data: { field: 'schemas[0].schema', count: 4 } });
    expect(await store.head()).toBe(before);
    const forced = await docs.putMany([repo('o/new', { stars: 1, name: 'n' })], {
      schemas: [{ ...T, schema: strict, force: true }],
    });
    expect(forced.written).toContain('_docdb/types/github/repo.json');
    // Dropping it in a write lets that write through.
    expect(
      (await docs.commit([{ op: 'put', document: repo('o/z', 'x') }], { schemas: [{ ...T, schema: null }] })).changed,
    ).toBe(true);
  });

  it('a declaration read back that is not { version: 1, schema } is InvalidResponse naming the key and field', async () => {
    const { store, docs } = fresh();
    await store.put('_docdb/types/github/repo.json', '{"version":1,"schema":{},"search":[]}\n');
    await expect(docs.put(repo('o/a', { stars: 1 }))).rejects.toMatchObject({
      code: 'InvalidResponse',
      data: { key: '_docdb/types/github/repo.json', field: 'search' },
    });
    await store.put('_docdb/types/github/repo.json', 'not json');
    await expect(docs.schema(T)).rejects.toThrow(InvalidResponse);
  });
});

describe('a commit in parts past its buffer checks each part as it arrives', () => {
  const part = (from: number, n: number, stars: unknown): Change[] =>
    Array.from({ length: n }, (_, i) => ({
      op: 'put',
      key: `github/repo/o/r${from + i}.json`,
      value: new TextEncoder().encode(
        `${JSON.stringify({ namespace: 'github', type: 'repo', id: `o/r${from + i}`, data: { stars } }, null, 2)}\n`,
      ),
    }));

  function collector(store: MemoryRefStore) {
    const checks = new PartsSchemas((namespace, type) => storedSchema(store, { namespace, type }));
    const seen = new PartsCollector(async () => ({ version: 1, indexes: [] }), undefined, 10, checks);
    const derive = declarationsDerive({ store, ops: () => seen.ops, parts: checks });
    return { checks, seen, derive };
  }

  it('keeps no data past the buffer, still counts every violation', async () => {
    const { store, docs } = fresh();
    await docs.declareSchema(T, SCHEMA);
    const head = await store.head();
    const { seen, derive } = collector(store);
    await expect(
      commitInParts(store, seen.collect([part(0, 2, 'x'), part(2, 2, 1), part(4, 3, -5)]), { derive }),
    ).rejects.toMatchObject({ code: 'InvalidDocument', data: { count: 5 } });
    expect(seen.ops.every((o) => o.after && !('bytes' in o.after) && !('data' in o.after))).toBe(true);
    expect(await store.head()).toBe(head);
  });

  it('a schema that changed while the parts streamed refuses the write', async () => {
    const { store, docs } = fresh();
    await docs.declareSchema(T, SCHEMA);
    const { seen, derive } = collector(store);
    const parts = seen.collect([part(0, 2, 1), part(2, 2, 5)]);
    const first = await parts.next();
    await docs.declareSchema(T, { ...SCHEMA, required: [] });
    const head = await store.head();
    async function* rest() {
      yield first.value as never;
      yield* parts;
    }
    await expect(commitInParts(store, rest(), { derive })).rejects.toThrow(
      /schema of github\/repo changed while this write/,
    );
    expect(await store.head()).toBe(head);
  });
});
