/**
 * DocumentStore.query (issue 28 item 3) on the memory store: answers from the index equal the answers
 * computed from the documents; pages, versions, fields-only rows, the fallback and its refusal, and
 * index files read back damaged (a typed error, never a wrong row).
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
import { shaToText } from '../../../src/document/indexes/sha-text.js';
import { MemoryRefStore } from '../../../src/stores/memory/index.js';

const LANGS = ['TypeScript', 'Go', 'Rust', 'C'];
const data = (i: number) => ({
  language: LANGS[i % 4],
  stars: (i * 37) % 101,
  topics: i % 3 === 0 ? ['cli', `t${i % 5}`] : [],
  ...(i % 7 === 0 ? {} : { archived: i % 2 === 0 }),
  name: `repo-${i}`,
});

async function seeded(n = 120) {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store, { index: { maxPartBytes: 600 } });
  await docs.declareIndexes([
    { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars', 'data.topics', 'data.archived'] },
  ]);
  await docs.putMany(
    Array.from({ length: n }, (_, i) => ({ namespace: 'github', type: 'repo', id: `o/r${i}`, data: data(i) })),
  );
  return { store, docs, n };
}

const ids = (r: { rows: { id: string }[] }) => r.rows.map((x) => x.id);

describe('DocumentStore.query', () => {
  it('where + orderBy desc + limit pages through the same answer the documents give', async () => {
    const { docs, n } = await seeded();
    const expected = Array.from({ length: n }, (_, i) => ({ id: `o/r${i}`, ...data(i) }))
      .filter((d) => d.language === 'TypeScript' && d.stars >= 10)
      .sort((a, b) => b.stars - a.stars || (a.id < b.id ? -1 : 1))
      .map((d) => d.id);
    const q = {
      namespace: 'github',
      type: 'repo',
      where: [
        { field: 'data.language', op: '=' as const, value: 'TypeScript' },
        { field: 'data.stars', op: '>=' as const, value: 10 },
      ],
      orderBy: { field: 'data.stars', direction: 'desc' as const },
      limit: 7,
      fields: ['data.stars'],
    };
    const got: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await docs.query({ ...q, ...(cursor ? { cursor } : {}) });
      expect(page.answeredBy).toBe('index');
      expect(page.documents).toBeUndefined();
      got.push(...ids(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(got).toEqual(expected);
  });

  it('without fields the matching documents come in row order; contains, exists and in work', async () => {
    const { docs } = await seeded();
    const r = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.topics', op: 'contains', value: 'cli' }],
      limit: 5,
    });
    expect(r.documents!.map((d) => d.id)).toEqual(ids(r));
    expect(r.documents!.every((d) => (d.data as { topics: string[] }).topics.includes('cli'))).toBe(true);
    const absent = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.archived', op: 'exists', value: false }],
      fields: ['data.archived'],
    });
    expect(ids(absent).sort()).toEqual(
      Array.from({ length: 120 }, (_, i) => i)
        .filter((i) => i % 7 === 0)
        .map((i) => `o/r${i}`)
        .sort(),
    );
    expect(absent.rows[0]!.values).toEqual({});
    const inq = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.language', op: 'in', value: ['Go', 'C'] }],
      fields: ['data.language'],
    });
    expect(inq.rows.every((x) => ['Go', 'C'].includes(x.values['data.language'] as string))).toBe(true);
    expect(inq.rows).toHaveLength(60);
  });

  it('an unindexed field falls back to the documents and says so; requireIndex refuses', async () => {
    const { docs } = await seeded(30);
    const r = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.name', op: '=', value: 'repo-4' }],
    });
    expect(r.answeredBy).toBe('documents');
    expect(r.fallbackReason).toMatch(/data\.name/);
    expect(ids(r)).toEqual(['o/r4']);
    await expect(
      docs.query({
        namespace: 'github',
        type: 'repo',
        where: [{ field: 'data.name', op: '=', value: 'repo-4' }],
        requireIndex: true,
      }),
    ).rejects.toBeInstanceOf(InvalidConfig);
    await expect(
      docs.query({ namespace: 'github', type: 'repo', where: [{ field: 'data.stars', op: '~' as never, value: 1 }] }),
    ).rejects.toThrow(/where\[0\]\.op/);
  });

  it('a version pins the query; a number never matches a string', async () => {
    const { docs } = await seeded(10);
    const old = await docs.head();
    await docs.put({ namespace: 'github', type: 'repo', id: 'o/new', data: { language: 'TypeScript', stars: '12' } });
    const now = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.language', op: '=', value: 'TypeScript' }],
      fields: ['data.stars'],
    });
    const then = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.language', op: '=', value: 'TypeScript' }],
      fields: ['data.stars'],
      version: old!,
    });
    expect(ids(now)).toContain('o/new');
    expect(ids(then)).not.toContain('o/new');
    const numeric = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.stars', op: '>=', value: 10 }],
      fields: ['data.stars'],
    });
    expect(ids(numeric)).not.toContain('o/new');
  });

  it('index files read back damaged give InvalidResponse, never a wrong answer', async () => {
    const { store, docs } = await seeded(20);
    const q = { namespace: 'github', type: 'repo', where: [{ field: 'data.stars', op: '>=' as const, value: 0 }] };
    // A row naming a blob that is not the document's: caught when the documents are read.
    const part = (await store.list({ prefix: '_docdb/index/github/repo/data.stars/' })).entries[0]!;
    const text = new TextDecoder().decode((await store.get(part.key))!.value);
    await store.put(part.key, text.replace(/"[A-Za-z0-9_-]{27}"/, `"${shaToText('0'.repeat(40))}"`));
    await expect(docs.query(q)).rejects.toBeInstanceOf(InvalidResponse);
    await store.put(part.key, 'garbage\n');
    await expect(docs.query({ ...q, fields: ['data.stars'] })).rejects.toBeInstanceOf(InvalidResponse);
    await store.put('_docdb/index/github/repo/manifest.json', '{');
    await expect(docs.query(q)).rejects.toBeInstanceOf(InvalidResponse);
  });
});

/** A section built through the library, then changed with raw RefStore writes (which bypass indexes). */
async function tampered() {
  const { store, docs } = await seeded(40);
  const text = async (key: string) => new TextDecoder().decode((await store.get(key))!.value);
  const starsParts = (await store.list({ prefix: '_docdb/index/github/repo/data.stars/' })).entries
    .map((e) => e.key)
    .filter((k) => k.endsWith('.jsonl'));
  /** Put a document's data raw, then point its rows in every part at the new blob (a stale index). */
  const restate = async (id: string, data: unknown) => {
    const key = `github/repo/${id}.json`;
    const old = (await store.get(key))!;
    const env = JSON.parse(new TextDecoder().decode(old.value));
    await store.put(key, JSON.stringify({ ...env, data }));
    const fresh = (await store.get(key))!.blobSha;
    const all = (await store.list({ prefix: '_docdb/index/github/repo/' })).entries.map((e) => e.key);
    for (const p of all.filter((k) => k.endsWith('.jsonl'))) {
      const t = await text(p);
      const [was, now] = [shaToText(old.blobSha), shaToText(fresh)]; // as rows spell a SHA (format 2)
      if (t.includes(was)) await store.put(p, t.split(was).join(now));
    }
  };
  return { store, docs, text, starsParts, restate };
}

describe('a query checks what it read against the documents (issue 37 item 5)', () => {
  const base = { namespace: 'github', type: 'repo' };

  it('a row whose document does not match the where clause is InvalidResponse, never a wrong row', async () => {
    const { docs, restate } = await tampered();
    const q = { ...base, where: [{ field: 'data.stars', op: '>=' as const, value: 90 }] };
    const before = await docs.query(q);
    const victim = before.rows[0]!.id;
    await restate(victim, { ...data(Number(victim.slice(3))), stars: 1 });
    await expect(docs.query(q)).rejects.toThrow(
      new RegExp(`returned "${victim}", whose document does not match data.stars >= 90; the index must be rebuilt`),
    );
    // With fields only, the index's word is the answer (no document is read): SECURITY.md says so.
    expect(ids(await docs.query({ ...q, fields: ['data.stars'] }))).toContain(victim);
  });

  it('a row out of order by its document is InvalidResponse', async () => {
    const { docs, restate } = await tampered();
    const q = { ...base, orderBy: { field: 'data.stars', direction: 'desc' as const }, limit: 5 };
    const before = await docs.query(q);
    const first = before.rows[0]!.id;
    await restate(first, { ...data(Number(first.slice(3))), stars: -5 });
    // The next row sorts after -5 by its document: the page is refused, naming it.
    await expect(docs.query(q)).rejects.toThrow(/returned "o\/r\d+" out of order \(its document sorts before/);
  });

  it('a manifest whose count disagrees with the rows of a whole run is InvalidResponse', async () => {
    const { store, docs, text, starsParts } = await tampered();
    const lines = (await text(starsParts[0]!)).split('\n');
    await store.put(starsParts[0]!, [...lines.slice(0, -2), ''].join('\n')); // one row fewer (the last)
    const q = { ...base, where: [{ field: 'data.stars', op: '>=' as const, value: 0 }], fields: ['data.stars'] };
    await expect(docs.query(q)).rejects.toThrow(/counts 40 documents, but its rows name 39/);
  });
});

describe('a manifest listing thousands of tiny parts (issue 37 item 6)', () => {
  it('stops the query after a few part reads, with InvalidResponse', async () => {
    const { store, text, starsParts } = await tampered();
    const mkey = '_docdb/index/github/repo/manifest.json';
    const m = JSON.parse(await text(mkey));
    const fi = m.fields.indexOf('data.stars');
    const rows: string[] = [];
    for (const p of starsParts) {
      // Each row standing alone (its id no longer front-coded on the row before): one row per part below.
      let prev = '';
      for (const l of (await text(p)).split('\n').filter((x) => x !== '')) {
        const [k, suffix, ...rest] = JSON.parse(l);
        prev = prev.slice(0, k) + suffix;
        rows.push(JSON.stringify([0, prev, ...rest]));
      }
    }
    rows.sort((a, b) => {
      const [x, y] = [JSON.parse(a), JSON.parse(b)];
      return x[3 + fi] - y[3 + fi] || (x[1] < y[1] ? -1 : 1);
    });
    // One row per part, then 2,000 empty parts (keys past every row): every part valid on its own.
    const parts = [];
    const changes: { op: 'put'; key: string; value: string }[] = [];
    for (let i = 0; i < rows.length + 2000; i++) {
      const row = rows[i] === undefined ? undefined : JSON.parse(rows[i]!);
      const lower = i === 0 ? null : row ? [row[3 + fi], row[1]] : [1000 + i, 'pad'];
      changes.push({
        op: 'put',
        key: `_docdb/index/github/repo/data.stars/${i}.jsonl`,
        value: row ? `${rows[i]}\n` : '',
      });
      parts.push({ name: String(i), lower });
    }
    await store.commit(changes);
    m.runs[fi] = { field: 'data.stars', next: parts.length, parts };
    await store.put(mkey, JSON.stringify(m));
    const partReads: string[] = [];
    const get = store.get.bind(store);
    store.get = (async (key: string, o?: { version?: string }) => {
      if (key.endsWith('.jsonl')) partReads.push(key);
      return get(key, o);
    }) as typeof store.get;
    // A reader with the default part bound (128 KiB), as the CLI, the Action and the viewer are.
    const reader = new DocumentStore(store);
    const q = { namespace: 'github', type: 'repo', where: [{ field: 'data.stars', op: '>=' as const, value: 0 }] };
    await expect(reader.query({ ...q, fields: ['data.stars'] })).rejects.toThrow(
      /lists 2040 parts for this query, and the \d+ read hold only \d+ bytes/,
    );
    expect(partReads.length).toBeLessThanOrEqual(10);
    partReads.length = 0;
    // In order, a page at a time: the same stop.
    await expect(reader.query({ ...q, where: [], orderBy: { field: 'data.stars' }, limit: 100 })).rejects.toThrow(
      InvalidResponse,
    );
    expect(partReads.length).toBeLessThanOrEqual(10);
  });
});
