/**
 * `docs.migrate` on the in-memory store (issue 38, Migrations): the operations in order, one commit for the
 * type, the checks before any write, a value that cannot be cast named by key and field (never the value),
 * move-type with its index, the trailer history shows, the dry run, and the compare-and-set on the tip read.
 */
import { describe, expect, it } from 'vitest';
import { ConcurrentUpdate, InvalidConfig, InvalidDocument } from '../../src/core/errors.js';
import type { RefStore } from '../../src/core/refstore.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { type MigrationOperation, migrationOf, parseOperation } from '../../src/document/migrate/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

const SECRET = 'sk-live-DO-NOT-PRINT';

async function seeded(n = 8, store: RefStore = new MemoryRefStore()) {
  const docs = new DocumentStore(store);
  await docs.putMany(
    Array.from({ length: n }, (_, i) => ({
      namespace: 'gh',
      type: 'repo',
      id: `r${i}`,
      data: { stars: String(i * 10), old: i, tmp: 'x', ...(i === 0 ? { has: 'kept' } : {}) },
    })),
  );
  await docs.put({ namespace: 'gh', type: 'other', id: 'o', data: { old: 1 } });
  return docs;
}

const ops: MigrationOperation[] = [
  { op: 'rename', from: 'data.old', to: 'data.fresh' },
  { op: 'cast', field: 'data.stars', to: 'number' },
  { op: 'set', field: 'data.has', value: 'new' },
  { op: 'drop', field: 'data.tmp' },
];

describe('docs.migrate', () => {
  it('applies every operation in order to every document of the type, in ONE commit', async () => {
    const docs = await seeded();
    const before = await docs.head();
    const r = await docs.migrate({ namespace: 'gh', type: 'repo', operations: ops });
    expect(r.changed).toBe(true);
    expect(r.previousVersion).toBe(before);
    expect(r.counts).toEqual({ read: 8, changed: 8, unchanged: 0, moved: 0 });
    // One commit: its parent is the tip read.
    const { entries } = await docs.store.commits!({ limit: 2 });
    expect(entries[0]!.version).toBe(r.version);
    expect(entries[1]!.version).toBe(before);
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r3' }))?.data).toEqual({
      stars: 30,
      fresh: 3,
      has: 'new',
    });
    // set writes only where absent.
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r0' }))?.data).toMatchObject({ has: 'kept' });
    // Another type is not touched.
    expect((await docs.get({ namespace: 'gh', doc_type: 'other', id: 'o' }))?.data).toEqual({ old: 1 });
  });

  it('the order matters: a rename then a drop of its target differs from the other order', async () => {
    const docs = await seeded(2);
    await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [
        { op: 'drop', field: 'data.fresh' },
        { op: 'rename', from: 'data.old', to: 'data.fresh' },
      ],
    });
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r1' }))?.data).toMatchObject({ fresh: 1 });
    await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [
        { op: 'rename', from: 'data.fresh', to: 'data.old' },
        { op: 'drop', field: 'data.old' },
      ],
    });
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r1' }))?.data).not.toHaveProperty('old');
  });

  it('a second run of the same migration changes nothing and writes no commit', async () => {
    const docs = await seeded(3);
    await docs.migrate({ namespace: 'gh', type: 'repo', operations: ops });
    const tip = await docs.head();
    const again = await docs.migrate({ namespace: 'gh', type: 'repo', operations: ops });
    expect(again.changed).toBe(false);
    expect(again.counts).toEqual({ read: 3, changed: 0, unchanged: 3, moved: 0 });
    expect(await docs.head()).toBe(tip);
  });

  it('nested fields: set creates the objects on the way, rename moves out of them', async () => {
    const docs = await seeded(1);
    await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [
        { op: 'set', field: 'data.meta.source', value: { kind: 'api' } },
        { op: 'rename', from: 'data.meta.source.kind', to: 'data.kind' },
      ],
    });
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r0' }))?.data).toMatchObject({
      meta: { source: {} },
      kind: 'api',
    });
  });
});

describe('checked before any write', () => {
  it.each([
    [[], /operations: must be a list of 1 to 100/],
    [[{ op: 'rename', from: 'data.a', to: 'b' }], /operations\[0\]\.to: must be a field of data/],
    [[{ op: 'drop', field: 'data.' }], /operations\[0\]\.field: .*empty segment/],
    [[{ op: 'drop', field: 'data.__proto__' }], /operations\[0\]\.field: .*__proto__/],
    [[{ op: 'cast', field: 'data.a', to: 'date' }], /operations\[0\]\.to: cannot cast to "date"/],
    [[{ op: 'set', field: 'data.a' }], /operations\[0\]\.value: is required/],
    [[{ op: 'set', field: 'data.a', value: Number.NaN }], /operations\[0\]\.value: is not a finite number/],
    [[{ op: 'rename', from: 'data.a', to: 'data.a.b' }], /moves a field into itself/],
    [[{ op: 'move-type', namespace: 'gh', type: 'repo' }], /is the type being migrated/],
    [[{ op: 'move-type', namespace: 'gh', type: 'a/b' }], /operations\[0\]: move-type/],
    [
      [
        { op: 'move-type', namespace: 'gh', type: 'a' },
        { op: 'move-type', namespace: 'gh', type: 'b' },
      ],
      /more than one move-type/,
    ],
    [[{ op: 'upsert', field: 'data.a' }], /operations\[0\]\.op: "upsert" is not an operation.*/],
  ])('%j is refused naming the operation', async (operations, message) => {
    const docs = await seeded(1);
    const tip = await docs.head();
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: operations as MigrationOperation[] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidConfig);
    expect(err.message).toMatch(message);
    expect(err.data.allowed).toBeTruthy();
    expect(await docs.head()).toBe(tip);
  });

  it('the text forms the CLI and the Action take', () => {
    expect(parseOperation('set', 'data.n=3', '--set')).toEqual({ op: 'set', field: 'data.n', value: 3 });
    expect(parseOperation('set', 'data.s="3"', '--set')).toEqual({ op: 'set', field: 'data.s', value: '3' });
    expect(parseOperation('set', 'data.s=a=b', '--set')).toEqual({ op: 'set', field: 'data.s', value: 'a=b' });
    expect(parseOperation('move-type', 'ns/t', '--move-type')).toEqual({ op: 'move-type', namespace: 'ns', type: 't' });
    expect(() => parseOperation('rename', 'data.a', '--rename')).toThrow(/--rename: "data.a" has no "="/);
    expect(() => parseOperation('move-type', 'a/b/c', '--move-type')).toThrow(/--move-type: .* is not NAMESPACE\/TYPE/);
  });
});

describe('a document the operations cannot migrate', () => {
  it('a value that cannot be cast: InvalidDocument naming the key and the field, never the value; nothing written', async () => {
    const docs = await seeded(4);
    await docs.put({ namespace: 'gh', type: 'repo', id: 'r2', data: { stars: SECRET } });
    await docs.put({ namespace: 'gh', type: 'repo', id: 'r3', data: { stars: { n: SECRET } } });
    const tip = await docs.head();
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'cast', field: 'data.stars', to: 'number' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(err.data.field).toBe('data.stars');
    expect(err.data.key).toBe('gh/repo/r2.json');
    expect(err.data.count).toBe(2);
    expect(err.data.problems).toEqual([
      {
        key: 'gh/repo/r2.json',
        operation: 'cast data.stars=number',
        field: 'data.stars',
        rule: 'not-castable',
        found: 'string',
      },
      {
        key: 'gh/repo/r3.json',
        operation: 'cast data.stars=number',
        field: 'data.stars',
        rule: 'not-castable',
        found: 'object',
      },
    ]);
    expect(err.message).toMatch(/gh\/repo\/r2\.json cannot be migrated: cast data\.stars=number found a string/);
    expect(JSON.stringify(err.toJSON())).not.toContain(SECRET);
    expect(await docs.head()).toBe(tip);
  });

  it('a rename onto a field that is already there is refused, not overwritten', async () => {
    const docs = await seeded(2);
    await docs.put({ namespace: 'gh', type: 'repo', id: 'r1', data: { old: 1, fresh: SECRET } });
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'rename', from: 'data.old', to: 'data.fresh' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(err.data).toMatchObject({ key: 'gh/repo/r1.json', field: 'data.fresh', count: 1 });
    expect(err.message).not.toContain(SECRET);
  });
});

describe('move-type', () => {
  it('deletes the old keys, writes the new ones; the index moves and answers queries on the new type', async () => {
    const docs = await seeded(6);
    await docs.declareIndexes([{ namespace: 'gh', type: 'repo', fields: ['data.old'] }]);
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [
        { op: 'rename', from: 'data.old', to: 'data.rank' },
        { op: 'move-type', namespace: 'hub', type: 'project' },
      ],
    });
    expect(r.counts).toEqual({ read: 6, changed: 6, unchanged: 0, moved: 6 });
    expect((await docs.list({ namespace: 'gh', type: 'repo' })).documents).toEqual([]);
    expect((await docs.list({ namespace: 'hub', type: 'project' })).documents.map((d) => d.id)).toEqual([
      'r0',
      'r1',
      'r2',
      'r3',
      'r4',
      'r5',
    ]);
    // The declaration followed the rename and the move; the old type's index is gone.
    expect((await docs.indexes()).indexes).toEqual([{ namespace: 'hub', type: 'project', fields: ['data.rank'] }]);
    const keys = (await docs.store.list({ prefix: '_docdb/index/' })).entries.map((e) => e.key);
    expect(keys.some((k) => k.startsWith('_docdb/index/gh/repo/'))).toBe(false);
    const q = await docs.query({
      namespace: 'hub',
      type: 'project',
      where: [{ field: 'data.rank', op: '>=', value: 4 }],
      requireIndex: true,
    });
    expect(q.answeredBy).toBe('index');
    expect(q.rows.map((row) => row.id)).toEqual(['r4', 'r5']);
  });

  it('never overwrites a document already at the new key', async () => {
    const docs = await seeded(3);
    await docs.put({ namespace: 'hub', type: 'project', id: 'r1', data: { mine: true } });
    const tip = await docs.head();
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'move-type', namespace: 'hub', type: 'project' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(err.data.problems).toEqual([
      { key: 'gh/repo/r1.json', operation: 'move-type hub/project', field: 'id', rule: 'taken', found: 'document' },
    ]);
    expect(await docs.head()).toBe(tip);
  });
});

describe('the commit records the operations', () => {
  it('a Docdb-Migration trailer that docs.history shows and migrationOf reads back', async () => {
    const docs = await seeded(2);
    await docs.migrate({ namespace: 'gh', type: 'repo', operations: ops });
    const { entries } = await docs.history({ namespace: 'gh', doc_type: 'repo', id: 'r1' });
    const message = entries[0]!.message;
    expect(message.split('\n')[0]).toBe(
      'migrate gh/repo: rename data.old=data.fresh, cast data.stars=number, set data.has="new", drop data.tmp',
    );
    expect(message).toContain(`\n\nDocdb-Migration: ${JSON.stringify(ops)}`);
    expect(migrationOf(message)).toEqual(ops);
    expect(migrationOf(entries[1]!.message)).toBeUndefined();
  });
});

describe('dry run', () => {
  it('counts and the first 5 changed documents by key, before and after; writes nothing', async () => {
    const docs = await seeded(8);
    await docs.put({ namespace: 'gh', type: 'repo', id: 'r1', data: { fresh: 1 } }); // nothing to change
    const tip = await docs.head();
    const r = await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'rename', from: 'data.old', to: 'data.fresh' }],
      dryRun: true,
    });
    expect(r).toMatchObject({ dryRun: true, changed: false, version: tip, previousVersion: tip });
    expect(r.counts).toEqual({ read: 8, changed: 7, unchanged: 1, moved: 0 });
    expect(r.samples.map((s) => s.key)).toEqual([
      'gh/repo/r0.json',
      'gh/repo/r2.json',
      'gh/repo/r3.json',
      'gh/repo/r4.json',
      'gh/repo/r5.json',
    ]);
    expect(r.samples[1]).toEqual({
      key: 'gh/repo/r2.json',
      before: { stars: '20', old: 2, tmp: 'x' },
      after: { stars: '20', fresh: 2, tmp: 'x' },
    });
    expect(await docs.head()).toBe(tip);
  });

  it('reports the problems a real run would meet', async () => {
    const docs = await seeded(2);
    await docs.put({ namespace: 'gh', type: 'repo', id: 'r1', data: { stars: 'many' } });
    const err = await docs
      .migrate({
        namespace: 'gh',
        type: 'repo',
        operations: [{ op: 'cast', field: 'data.stars', to: 'number' }],
        dryRun: true,
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
  });
});

describe('compare-and-set on the tip read', () => {
  it('a write that lands after the migration read refuses the commit: nothing of the migration lands', async () => {
    const store = new MemoryRefStore();
    const docs = await seeded(3, store);
    // Another writer moves the tip right after the migration listed the type (its values are read at that listing's version).
    const inner = docs.list.bind(docs);
    let pages = 0;
    docs.list = async (o) => {
      const page = await inner(o);
      if (o?.type === 'repo' && ++pages === 1)
        await new DocumentStore(store).put({ namespace: 'gh', type: 'other', id: 'z', data: {} });
      return page;
    };
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'drop', field: 'data.tmp' }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConcurrentUpdate);
    expect(err.code).toBe('ConcurrentUpdate');
    expect(err.message).toMatch(
      /moved from [0-9a-f]{40} to [0-9a-f]{40} after the migration read it; nothing was written/,
    );
    expect((await docs.get({ namespace: 'gh', doc_type: 'repo', id: 'r0' }))?.data).toHaveProperty('tmp');
  });
});

describe('schema in the same commit', () => {
  const STARS = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer' } } } as const;
  const STARGAZERS = {
    type: 'object',
    required: ['stargazers'],
    properties: { stargazers: { type: 'integer' } },
  } as const;

  it('a rename that breaks the declared schema is refused; with the new schema it lands in ONE commit', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.putMany([
      { namespace: 'gh', type: 'repo', id: 'a', data: { stars: 1 } },
      { namespace: 'gh', type: 'repo', id: 'b', data: { stars: 2 } },
    ]);
    await docs.declareSchema({ namespace: 'gh', type: 'repo' }, STARS);
    const tip = await docs.head();
    const operations: MigrationOperation[] = [{ op: 'rename', from: 'data.stars', to: 'data.stargazers' }];
    const refused = await docs.migrate({ namespace: 'gh', type: 'repo', operations }).catch((e) => e);
    expect(refused).toBeInstanceOf(InvalidDocument);
    expect(refused.data.violations[0]).toMatchObject({ key: 'gh/repo/a.json', rule: 'required' });
    expect(await docs.head()).toBe(tip);
    const r = await docs.migrate({ namespace: 'gh', type: 'repo', operations, schema: STARGAZERS });
    const { entries } = await docs.store.commits!({ limit: 1 });
    expect(entries[0]!.version).toBe(r.version);
    expect(await docs.schema({ namespace: 'gh', type: 'repo' })).toEqual(STARGAZERS);
    // The new schema holds from then on.
    await expect(docs.put({ namespace: 'gh', type: 'repo', id: 'c', data: { stars: 3 } })).rejects.toThrow(
      InvalidDocument,
    );
  });

  it('a migration whose result breaks the schema it declares writes nothing', async () => {
    const docs = await seeded(2);
    const tip = await docs.head();
    const err = await docs
      .migrate({ namespace: 'gh', type: 'repo', operations: [{ op: 'drop', field: 'data.tmp' }], schema: STARGAZERS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(InvalidDocument);
    expect(await docs.head()).toBe(tip);
    expect(await docs.schema({ namespace: 'gh', type: 'repo' })).toBeNull();
  });

  it('move-type takes the old type schema to the new type, as it takes the index', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    await docs.put({ namespace: 'gh', type: 'repo', id: 'a', data: { stars: 1 } });
    await docs.declareSchema({ namespace: 'gh', type: 'repo' }, STARS);
    await docs.migrate({
      namespace: 'gh',
      type: 'repo',
      operations: [{ op: 'move-type', namespace: 'hub', type: 'project' }],
    });
    expect(await docs.schema({ namespace: 'hub', type: 'project' })).toEqual(STARS);
    expect(await docs.schema({ namespace: 'gh', type: 'repo' })).toBeNull();
  });
});
