/**
 * In-order queries read a part at a time (src/document/indexes/page-reads.ts): the first page of a sorted
 * type reads the manifest and the first part(s) only — what lets the viewer's table open a 10,000-document
 * type anonymously in 3 requests — and every page still equals the answer computed from the documents:
 * ascending, descending, by id, with filters, arrays, long (cut) strings and cursors.
 */
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/document/document-store.js';
import type { WhereClause } from '../../../src/document/indexes/query.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const N = 300;
const LANGS = ['TypeScript', 'Go', 'Rust', 'C'];
/** Every 5th name is longer than an index keeps (stored cut): only the document decides its order. */
const name = (i: number) => (i % 5 === 0 ? `${'n'.repeat(400)}${String(i % 17).padStart(3, '0')}` : `repo-${i % 41}`);
const data = (i: number) => ({
  language: LANGS[i % 4],
  stars: (i * 37) % 101,
  topics: i % 3 === 0 ? ['cli', `t${i % 5}`] : [],
  name: name(i),
});
const docsOf = () => Array.from({ length: N }, (_, i) => ({ id: `o/r${String(i).padStart(3, '0')}`, ...data(i) }));

async function seeded() {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store, { index: { maxPartBytes: 2000 } });
  await docs.declareIndexes([
    { namespace: 'g', type: 'repo', fields: ['id', 'data.language', 'data.stars', 'data.topics', 'data.name'] },
  ]);
  await docs.putMany(docsOf().map(({ id, ...d }) => ({ namespace: 'g', type: 'repo', id, data: d })));
  const partReads: string[] = [];
  const get = store.get.bind(store);
  store.get = (async (key: string, options?: { version?: string }) => {
    if (/^_docdb\/index\/.*\.jsonl$/.test(key)) partReads.push(key);
    return get(key, options);
  }) as typeof store.get;
  return {
    docs,
    partReads,
    parts: (await store.list({ prefix: '_docdb/index/g/repo/data.stars/' })).entries.length - 0,
  };
}

type Doc = ReturnType<typeof docsOf>[number];
const cmp = (a: unknown, b: unknown) => (a === b ? 0 : (a as never) < (b as never) ? -1 : 1);

/** The expected ids: filter and sort the documents themselves (arrays sort by min asc / max desc). */
function expected(filter: (d: Doc) => boolean, field: keyof Doc | undefined, desc: boolean): string[] {
  const key = (d: Doc) => {
    const v = field === undefined ? null : d[field];
    if (!Array.isArray(v)) return v;
    if (v.length === 0) return v;
    return [...v].sort(cmp)[desc ? v.length - 1 : 0];
  };
  const rank = (v: unknown) => (Array.isArray(v) ? 1 : typeof v === 'number' ? 4 : 6);
  return docsOf()
    .filter(filter)
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      const c = rank(ka) - rank(kb) || cmp(ka, kb);
      return (desc ? -1 : 1) * (c || cmp(a.id, b.id));
    })
    .map((d) => d.id);
}

async function allPages(docs: DocumentStore, q: Parameters<DocumentStore['query']>[0]) {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await docs.query({ ...q, ...(cursor ? { cursor } : {}) });
    expect(page.answeredBy).toBe('index');
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('in-order queries read a part at a time', () => {
  it('the first page of a sorted type reads one part of its run, not the whole run', async () => {
    const { docs, partReads, parts } = await seeded();
    expect(parts).toBeGreaterThan(4);
    const r = await docs.query({
      namespace: 'g',
      type: 'repo',
      orderBy: { field: 'data.stars' },
      limit: 5,
      fields: ['data.stars'],
    });
    expect(r.rows.map((x) => x.id)).toEqual(expected(() => true, 'stars', false).slice(0, 5));
    expect(r.nextCursor).not.toBeNull();
    expect(partReads).toEqual(['_docdb/index/g/repo/data.stars/0.jsonl']);
    partReads.length = 0;
    const d = await docs.query({
      namespace: 'g',
      type: 'repo',
      orderBy: { field: 'data.stars', direction: 'desc' },
      limit: 5,
      fields: ['data.stars'],
    });
    expect(d.rows.map((x) => x.id)).toEqual(expected(() => true, 'stars', true).slice(0, 5));
    // Descending starts at the last part (the run's smallest when it holds few rows: then 1 + 2 parts).
    expect(partReads.length).toBeLessThan(parts);
    expect(partReads).not.toContain('_docdb/index/g/repo/data.stars/0.jsonl');
  });

  it('a later page starts at the part its cursor is in', async () => {
    const { docs, partReads } = await seeded();
    const q = {
      namespace: 'g',
      type: 'repo',
      orderBy: { field: 'data.stars' as const },
      limit: 5,
      fields: ['data.stars'],
    };
    let page = await docs.query(q);
    for (let i = 0; i < 40 && page.nextCursor; i++) page = await docs.query({ ...q, cursor: page.nextCursor });
    partReads.length = 0;
    await docs.query({ ...q, cursor: page.nextCursor as string });
    expect(partReads.length).toBeGreaterThan(0);
    expect(partReads).not.toContain('_docdb/index/g/repo/data.stars/0.jsonl');
  });

  const cases: {
    what: string;
    where: WhereClause[];
    filter: (d: Doc) => boolean;
    field?: 'stars' | 'name' | 'topics' | 'language';
    desc?: boolean;
  }[] = [
    { what: 'stars ascending', where: [], filter: () => true, field: 'stars' },
    {
      what: 'stars descending, Go only',
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
      filter: (d) => d.language === 'Go',
      field: 'stars',
      desc: true,
    },
    {
      what: 'by id (no orderBy), stars >= 50',
      where: [{ field: 'data.stars', op: '>=', value: 50 }],
      filter: (d) => d.stars >= 50,
    },
    { what: 'names with cut values, ascending', where: [], filter: () => true, field: 'name' },
    { what: 'names with cut values, descending', where: [], filter: () => true, field: 'name', desc: true },
    { what: 'arrays ascending (smallest element)', where: [], filter: () => true, field: 'topics' },
    { what: 'arrays descending (largest element)', where: [], filter: () => true, field: 'topics', desc: true },
    {
      what: 'arrays descending, contains cli',
      where: [{ field: 'data.topics', op: 'contains', value: 'cli' }],
      filter: (d) => d.topics.includes('cli'),
      field: 'topics',
      desc: true,
    },
  ];
  for (const c of cases) {
    it(`every page equals the documents' answer: ${c.what}`, async () => {
      const { docs } = await seeded();
      for (const limit of [1, 7, 64]) {
        const ids = await allPages(docs, {
          namespace: 'g',
          type: 'repo',
          where: c.where,
          ...(c.field ? { orderBy: { field: `data.${c.field}`, direction: c.desc ? 'desc' : 'asc' } } : {}),
          limit,
          fields: ['data.stars'],
        });
        expect(ids).toEqual(expected(c.filter, c.field, c.desc === true));
      }
    }, 60_000);
  }
});

describe('an ordered, limited query over a batch of many rows (issue 37 item 4)', () => {
  it('appends the batch without spreading it into a call (500,000 rows: once a RangeError)', async () => {
    const { buildIndex } = await import('../../../src/document/indexes/build.js');
    const { parseManifest } = await import('../../../src/document/indexes/format.js');
    const { planQuery } = await import('../../../src/document/indexes/plan.js');
    const { plannedRows } = await import('../../../src/document/indexes/page-reads.js');
    const decl = { version: 1 as const, indexes: [{ namespace: 'g', type: 'repo', fields: ['data.name'] }] };
    const docs = Array.from({ length: 200 }, (_, i) => ({
      namespace: 'g',
      type: 'repo',
      id: `r${String(i).padStart(3, '0')}`,
      blobSha: 'a'.repeat(40),
      data: { name: `${'n'.repeat(300)}${i}` },
    }));
    const files = buildIndex(decl, docs, { maxPartBytes: 4096 });
    const m = parseManifest(files.get('_docdb/index/g/repo/manifest.json')!, 'g', 'repo');
    const q = { namespace: 'g', type: 'repo', orderBy: { field: 'data.name' }, limit: 10 };
    const plan = planQuery(m, q);
    if (plan.kind !== 'index' || !plan.inOrder) throw new Error('expected an in-order plan');
    expect(plan.parts.length).toBeGreaterThan(2);
    // Every row's sort value is cut (only its document orders it): the page never settles, so the reader
    // reads the whole run in doubling batches; the last batches hold hundreds of thousands of rows.
    const row = {
      key: { cut: 'n'.repeat(10) } as never,
      id: 'x',
      blobSha: 'a'.repeat(40),
      values: [{ cut: 'n' } as never],
      element: false,
    };
    const rows = await plannedRows(
      m,
      plan,
      q,
      async (parts) => ({ rows: Array(parts.length * 100_000).fill(row), bytes: parts.length * 3000 }),
      4096,
    );
    expect(rows.rows.length).toBe(plan.parts.length * 100_000);
  });
});
