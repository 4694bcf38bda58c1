/**
 * DocumentStore's `expect` option (issue 38) on the memory store: every expectation evaluated on the tip
 * the would-be commit builds on, a failure is ExpectationsFailed naming the tip and nothing is written,
 * and no violation carries a document's value.
 */
import { describe, expect, it, vi } from 'vitest';
import { ExpectationsFailed } from '../../../src/core/errors.js';
import { DocumentStore, PUT_MANY_PART } from '../../../src/document/document-store.js';
import type { Expectations, TypeExpectations } from '../../../src/document/expect/index.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const repo = (id: string, data: Record<string, unknown> = {}) => ({ namespace: 'github', type: 'repo', id, data });
const del = (id: string) => ({ op: 'delete' as const, identity: { namespace: 'github', doc_type: 'repo', id } });
const put = (id: string, data: Record<string, unknown> = {}) => ({ op: 'put' as const, document: repo(id, data) });
const on = (expectations: Expectations, extra: Partial<TypeExpectations> = {}): TypeExpectations[] => [
  { namespace: 'github', type: 'repo', expectations, ...extra },
];

async function seeded(n: number, data: (i: number) => Record<string, unknown> = (i) => ({ i })) {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store);
  if (n > 0) await docs.putMany(Array.from({ length: n }, (_, i) => repo(`o/r${i}`, data(i))));
  return { store, docs };
}

async function failure(p: Promise<unknown>): Promise<ExpectationsFailed> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ExpectationsFailed) return e;
    throw e;
  }
  throw new Error('the write was not refused');
}

describe('max-removed, max-changed and count', () => {
  it('a write removing 60% under max-removed "10%" is refused on the tip it read; 10% passes', async () => {
    const { store, docs } = await seeded(100);
    const tip = await store.head();
    const e = await failure(
      docs.commit(
        Array.from({ length: 60 }, (_, i) => del(`o/r${i}`)),
        { expect: on({ maxRemoved: '10%' }) },
      ),
    );
    expect(e.code).toBe('ExpectationsFailed');
    expect(e.data.version).toBe(tip);
    expect(e.data.count).toBe(1);
    expect(e.data.violations).toEqual([
      {
        expectation: 'max-removed',
        namespace: 'github',
        type: 'repo',
        message: 'the write removes 60 of 100 documents (60%); max-removed allows 10% (10)',
      },
    ]);
    expect(await store.head()).toBe(tip);
    expect((await docs.list({ namespace: 'github', type: 'repo' })).documents).toHaveLength(100);
    const ok = await docs.commit(
      Array.from({ length: 10 }, (_, i) => del(`o/r${i}`)),
      { expect: on({ maxRemoved: '10%' }) },
    );
    expect(ok.changed).toBe(true);
  });

  it('max-changed counts existing documents whose bytes differ (not unchanged puts, not new ones)', async () => {
    const { docs } = await seeded(10);
    const same = Array.from({ length: 10 }, (_, i) => put(`o/r${i}`, { i }));
    await docs.commit([...same, put('o/new', { i: 99 })], { expect: on({ maxChanged: 0 }) });
    const e = await failure(
      docs.commit([put('o/r1', { i: -1 }), put('o/r2', { i: -2 })], { expect: on({ maxChanged: 1 }) }),
    );
    expect(e.data.violations).toEqual([
      {
        expectation: 'max-changed',
        namespace: 'github',
        type: 'repo',
        message: 'the write changes 2 of 11 documents (18.2%); max-changed allows 1',
      },
    ]);
  });

  it('count is the type after the write: min and max', async () => {
    const { docs } = await seeded(3);
    const e = await failure(docs.commit([del('o/r0'), del('o/r1')], { expect: on({ count: { min: 2 } }) }));
    expect(e.data.violations).toEqual([
      {
        expectation: 'count',
        namespace: 'github',
        type: 'repo',
        message: '1 document(s) of the type, fewer than count.min 2',
      },
    ]);
    const f = await failure(docs.putMany([repo('o/x'), repo('o/y')], { expect: on({ count: { max: 4 } }) }));
    expect(f.message).toMatch(
      /^expectations failed on [0-9a-f]{7}, nothing was written: count: 5 document\(s\) of the type/,
    );
  });

  it('a first write (no section yet) reports version null', async () => {
    const { store, docs } = await seeded(0);
    const e = await failure(docs.putMany([repo('o/a')], { expect: on({ count: { min: 2 } }) }));
    expect(e.data.version).toBeNull();
    expect(await store.head()).toBeNull();
  });
});

describe('not-null and accepted-values: keys and field names, never values', () => {
  const SECRET = 'ghp_SECRETsecretSECRETsecret0123456789';

  it('a secret-looking value in a failing document appears nowhere in the error', async () => {
    const { docs } = await seeded(0);
    const e = await failure(
      docs.putMany(
        [
          repo('o/a', { state: SECRET, title: null }),
          repo('o/b', { state: 'open', title: 'fine' }),
          repo('o/c', { state: ['open'] }),
        ],
        { expect: on({ notNull: ['data.title'], acceptedValues: { 'data.state': ['open', 'closed'] } }) },
      ),
    );
    expect(e.data.violations).toEqual([
      { expectation: 'not-null', field: 'data.title', key: 'github/repo/o/a.json', message: 'data.title is null' },
      {
        expectation: 'accepted-values',
        field: 'data.state',
        key: 'github/repo/o/a.json',
        message: 'data.state holds a string that is not one of the 2 accepted values',
      },
      { expectation: 'not-null', field: 'data.title', key: 'github/repo/o/c.json', message: 'data.title is absent' },
      {
        expectation: 'accepted-values',
        field: 'data.state',
        key: 'github/repo/o/c.json',
        message: 'data.state holds a array that is not one of the 2 accepted values',
      },
    ]);
    const everything = JSON.stringify({ json: e.toJSON(), message: e.message, stack: e.stack });
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain('SECRETsecret');
  });

  it('at most 50 violations are carried, with the count of all', async () => {
    const { docs } = await seeded(0);
    const many = Array.from({ length: 120 }, (_, i) => repo(`o/n${i}`, {}));
    const e = await failure(docs.putMany(many, { expect: on({ notNull: ['data.title'] }) }));
    expect(e.data.violations).toHaveLength(50);
    expect(e.data.count).toBe(120);
    expect(e.message).toContain('(and 119 more)');
  });
});

describe('unique', () => {
  it('within the write, and against untouched documents read from the type (no index)', async () => {
    const { docs } = await seeded(5, (i) => ({ slug: `s${i}` }));
    const within = await failure(
      docs.putMany([repo('o/x', { slug: 'new' }), repo('o/y', { slug: 'new' })], {
        expect: on({ unique: ['data.slug'] }),
      }),
    );
    expect(within.data.violations).toEqual([
      {
        expectation: 'unique',
        field: 'data.slug',
        key: 'github/repo/o/y.json',
        message: 'data.slug holds the same value as github/repo/o/x.json',
      },
    ]);
    const other = await failure(docs.putMany([repo('o/z', { slug: 's4' })], { expect: on({ unique: ['data.slug'] }) }));
    expect(other.data.violations).toEqual([
      {
        expectation: 'unique',
        field: 'data.slug',
        key: 'github/repo/o/z.json',
        message: 'data.slug holds the same value as github/repo/o/r4.json',
      },
    ]);
    // Rewriting a document with its own value, or moving a value from a document the write changes, is fine.
    await docs.putMany([repo('o/r4', { slug: 's4' }), repo('o/r0', { slug: 'moved' }), repo('o/w', { slug: 's0' })], {
      expect: on({ unique: ['data.slug'] }),
    });
  });

  it('against the index when the type indexes the field: the documents are not read', async () => {
    const { store, docs } = await seeded(0);
    await docs.putMany(
      Array.from({ length: 30 }, (_, i) => repo(`o/r${i}`, { slug: `s${i}` })),
      { indexes: [{ namespace: 'github', type: 'repo', fields: ['data.slug'] }] },
    );
    const get = vi.spyOn(store, 'get');
    const e = await failure(docs.putMany([repo('o/new', { slug: 's7' })], { expect: on({ unique: ['data.slug'] }) }));
    expect(e.data.violations).toEqual([
      {
        expectation: 'unique',
        field: 'data.slug',
        key: 'github/repo/o/new.json',
        message: 'data.slug holds the same value as github/repo/o/r7.json',
      },
    ]);
    expect(get.mock.calls.filter(([k]) => /^github\/repo\/o\/r/.test(String(k)))).toEqual([]);
  });
});

describe('index lookups across parts', () => {
  it('unique finds every holder of a value whose rows span several index parts; references finds ids in any part', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store, { index: { maxPartBytes: 400 } });
    await docs.putMany(
      Array.from({ length: 60 }, (_, i) =>
        repo(`o/r${String(i).padStart(2, '0')}`, { slug: i < 30 ? 'dup' : `s${i}` }),
      ),
      { indexes: [{ namespace: 'github', type: 'repo', fields: ['id', 'data.slug'] }] },
    );
    const parts = (await store.list({ prefix: '_docdb/index/github/repo/data.slug/' })).entries;
    expect(parts.length).toBeGreaterThan(3);
    const e = await failure(docs.putMany([repo('o/new', { slug: 'dup' })], { expect: on({ unique: ['data.slug'] }) }));
    expect(e.data.count).toBe(30);
    expect(e.data.violations.map((v) => v.message)).toEqual(
      Array.from(
        { length: 30 },
        (_, i) => `data.slug holds the same value as github/repo/o/r${String(i).padStart(2, '0')}.json`,
      ),
    );
    const issue = (id: string, r: string) => ({ namespace: 'github', type: 'issue', id, data: { repo: r } });
    const refs = [{ namespace: 'github', type: 'issue', expectations: { references: { 'data.repo': 'github/repo' } } }];
    await docs.putMany([issue('1', 'o/r00'), issue('2', 'o/r31'), issue('3', 'o/r59')], { expect: refs });
    const missing = await failure(docs.putMany([issue('4', 'o/r60'), issue('5', 'o/r05')], { expect: refs }));
    expect(missing.data.violations.map((v) => v.key)).toEqual(['github/issue/4.json']);
  });
});

describe('references', () => {
  const refs = (expectations: Expectations): TypeExpectations[] => [
    { namespace: 'github', type: 'issue', expectations },
  ];
  const issue = (id: string, repoId: unknown) => ({ namespace: 'github', type: 'issue', id, data: { repo: repoId } });

  it('from the key listing: a missing id fails, one put or kept by the same write passes, one it deletes fails', async () => {
    const { store, docs } = await seeded(3);
    const get = vi.spyOn(store, 'get');
    const e = await failure(
      docs.putMany([issue('1', 'o/r1'), issue('2', 'o/nope'), issue('3', ['o/r2', 'x/y'])], {
        expect: refs({ references: { 'data.repo': 'github/repo' } }),
      }),
    );
    expect(e.data.violations.map((v) => v.key)).toEqual(['github/issue/2.json', 'github/issue/3.json']);
    expect(e.data.violations[0]).toEqual({
      expectation: 'references',
      field: 'data.repo',
      key: 'github/issue/2.json',
      message: 'data.repo names no document of github/repo',
    });
    // The referenced documents were never read.
    expect(get.mock.calls.filter(([k]) => String(k).startsWith('github/repo/'))).toEqual([]);
    await docs.commit([{ op: 'put', document: issue('4', 'o/new') }, put('o/new')], {
      expect: refs({ references: { 'data.repo': 'github/repo' } }),
    });
    const gone = await failure(
      docs.commit([{ op: 'put', document: issue('5', 'o/r0') }, del('o/r0')], {
        expect: refs({ references: { 'data.repo': 'github/repo' } }),
      }),
    );
    expect(gone.data.violations.map((v) => v.key)).toEqual(['github/issue/5.json']);
  });

  it("from the referenced type's id index when it has one (no listing of that type)", async () => {
    const { store, docs } = await seeded(0);
    await docs.putMany(
      Array.from({ length: 40 }, (_, i) => repo(`o/r${i}`)),
      { indexes: [{ namespace: 'github', type: 'repo', fields: ['id'] }] },
    );
    const list = vi.spyOn(store, 'list');
    const e = await failure(
      docs.putMany([issue('1', 'o/r39'), issue('2', 'o/r40')], {
        expect: refs({ references: { 'data.repo': 'github/repo' } }),
      }),
    );
    expect(e.data.violations.map((v) => v.key)).toEqual(['github/issue/2.json']);
    expect(list.mock.calls.filter(([o]) => o?.prefix?.startsWith('github/repo'))).toEqual([]);
  });
});

describe('check and the paths of a write', () => {
  it("runCheck gets the type's written documents and removed ids; its problems fail the write", async () => {
    const { store, docs } = await seeded(2);
    const tip = await store.head();
    const runCheck = vi.fn(async (documents: { id: string }[]) =>
      documents
        .filter((d) => d.id === 'o/bad')
        .map((d) => ({ expectation: 'check', key: `github/repo/${d.id}.json`, message: 'bad one' })),
    );
    const e = await failure(
      docs.commit([put('o/bad', { x: 1 }), put('o/good'), del('o/r0')], {
        expect: on({ check: { module: './c.mjs' } }, { runCheck }),
      }),
    );
    expect(runCheck).toHaveBeenCalledWith(
      [
        { namespace: 'github', type: 'repo', id: 'o/bad', data: { x: 1 } },
        { namespace: 'github', type: 'repo', id: 'o/good', data: {} },
      ],
      { namespace: 'github', type: 'repo', removed: ['o/r0'], version: tip },
    );
    expect(e.data.violations).toEqual([{ expectation: 'check', key: 'github/repo/o/bad.json', message: 'bad one' }]);
  });

  it('commitParts and a putMany in parts collect their documents as they stream', async () => {
    const { store, docs } = await seeded(0);
    const n = PUT_MANY_PART + 5;
    const e = await failure(
      docs.putMany(
        Array.from({ length: n }, (_, i) => repo(`o/p${i}`, i === 1003 ? {} : { title: 't' })),
        { expect: on({ notNull: ['data.title'], count: { max: n } }) },
      ),
    );
    expect(e.data.violations.map((v) => v.key)).toEqual(['github/repo/o/p1003.json']);
    expect(await store.head()).toBeNull();
    const parts = [[put('o/a', { title: 't' })], [put('o/b', {})]];
    const f = await failure(docs.commitParts(parts, { expect: on({ notNull: ['data.title'] }) }));
    expect(f.data.violations.map((v) => v.key)).toEqual(['github/repo/o/b.json']);
    expect(await store.head()).toBeNull();
  });

  it("the caller's guard runs first, then the expectations, on the same tip", async () => {
    const { store, docs } = await seeded(1);
    const seen: string[] = [];
    const guard = async (base: { version: string | null }) => {
      seen.push(`guard ${base.version}`);
    };
    const runCheck = async (_d: unknown, c: { version: string | null }) => {
      seen.push(`check ${c.version}`);
      return [];
    };
    await docs.commit([put('o/z')], { guard, expect: on({ check: { module: './c.mjs' } }, { runCheck }) });
    const tip = (await store.commits!({ limit: 2 })).entries[1]!.version;
    expect(seen).toEqual([`guard ${tip}`, `check ${tip}`]);
  });

  it('a lost race evaluates again on the new tip: a write that fit the old tip is refused on the new one', async () => {
    const { store, docs } = await seeded(3);
    const other = new DocumentStore(store);
    let attempts = 0;
    // The caller's guard runs first on each attempt: on the first, another writer adds a document meanwhile.
    const guard = async () => {
      if (attempts++ === 0) await other.put(repo('o/meanwhile'));
    };
    const e = await failure(docs.commit([put('o/mine')], { guard, expect: on({ count: { max: 4 } }) }));
    expect(attempts).toBe(2);
    expect(e.data.version).toBe(await store.head());
    expect(e.data.violations).toEqual([
      {
        expectation: 'count',
        namespace: 'github',
        type: 'repo',
        message: '5 document(s) of the type, more than count.max 4',
      },
    ]);
    expect(await docs.get({ namespace: 'github', doc_type: 'repo', id: 'o/mine' })).toBeNull();
  });
});
