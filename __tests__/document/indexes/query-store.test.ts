/**
 * DocumentStore.query (issue 28 item 3) on the memory store: answers from the index equal the answers
 * computed from the documents; pages, versions, fields-only rows, the fallback and its refusal, and
 * index files read back damaged (a typed error, never a wrong row).
 */
import { describe, expect, it } from 'vitest';
import { InvalidConfig, InvalidResponse } from '../../../src/core/errors.js';
import { DocumentStore } from '../../../src/document/document-store.js';
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
    await store.put(part.key, text.replace(/"[0-9a-f]{40}"/, `"${'0'.repeat(40)}"`));
    await expect(docs.query(q)).rejects.toBeInstanceOf(InvalidResponse);
    await store.put(part.key, 'garbage\n');
    await expect(docs.query({ ...q, fields: ['data.stars'] })).rejects.toBeInstanceOf(InvalidResponse);
    await store.put('_docdb/index/github/repo/manifest.json', '{');
    await expect(docs.query(q)).rejects.toBeInstanceOf(InvalidResponse);
  });
});
