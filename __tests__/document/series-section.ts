/**
 * A section built version by version as the library writes it (documents and index files), then committed
 * onto the emulator one commit per step with `em.state.commitFiles` — so readers (the store's
 * `readVersions`, `typeSeries`, the viewer's charts) meet real history: unchanged files keep their blob SHAs.
 */
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';

/** One step: any writes through a DocumentStore (on an in-memory section). */
export type SeriesStep = (docs: DocumentStore) => Promise<unknown>;

/**
 * Apply `steps` in order and commit each step's changed files to `ref` of `fullName`; the commit SHAs, oldest first.
 *
 * @example
 * const versions = await mirrorSteps(em, 'octo/data', [(d) => d.put({ namespace: 'n', type: 't', id: 'a', data: { v: 1 } })]);
 */
export async function mirrorSteps(
  em: EmulatorHandle,
  fullName: string,
  steps: readonly SeriesStep[],
  ref = 'refs/docdb/documents',
): Promise<string[]> {
  const memory = new MemoryRefStore({ ref });
  const docs = new DocumentStore(memory);
  let before = new Map<string, string>();
  const shas: string[] = [];
  for (const [i, step] of steps.entries()) {
    await step(docs);
    const now = new Map((await memory.list()).entries.map((e) => [e.key, e.blobSha]));
    const files: Record<string, Uint8Array | null> = {};
    for (const [key, sha] of now) {
      if (before.get(key) !== sha) files[key] = (await memory.get(key))?.value ?? null;
    }
    for (const key of before.keys()) if (!now.has(key)) files[key] = null;
    if (Object.keys(files).length === 0) throw new Error(`step ${i} changed nothing: the fixture would hide a version`);
    shas.push(em.state.commitFiles(fullName, { branch: ref, orphan: i === 0, files, message: `step ${i}` }));
    before = now;
  }
  return shas;
}

/** `n` steps of one document whose `data.stars` is `value(i)` (undefined: the document is deleted at that step). */
export function starSteps(n: number, value: (i: number) => unknown): SeriesStep[] {
  const identity = { namespace: 'github', type: 'repo', id: 'octo/hello' };
  return Array.from({ length: n }, (_, i) => async (docs: DocumentStore) => {
    const v = value(i);
    if (v === undefined) return docs.delete({ namespace: 'github', doc_type: 'repo', id: 'octo/hello' });
    return docs.put({ ...identity, data: { stars: v, step: i } });
  });
}

const repo = (id: string, data: Record<string, unknown>) => ({ namespace: 'github', type: 'repo', id, data });

/**
 * `n` (≥ 4) versions of the type github/repo: no index at first, then `data.stars` and `data.language`
 * indexed; documents added, edited (a string and an array of stars among them) and deleted, so counts,
 * sums and means move and some index parts stay unchanged between versions.
 */
export function typeSteps(n: number): SeriesStep[] {
  const steps: SeriesStep[] = [
    (d) => d.putMany([repo('octo/a', { stars: 5, language: 'Go' }), repo('octo/b', { stars: 7, language: 'C' })]),
    (d) =>
      d.putMany([repo('octo/c', { stars: 11, language: 'Go' })], {
        indexes: [{ namespace: 'github', type: 'repo', fields: ['data.stars', 'data.language'] }],
      }),
    (d) => d.put(repo('octo/d', { stars: 'many', language: 'Go' })),
    (d) => d.put(repo('octo/e', { stars: [1, 2], language: 'Rust' })),
  ];
  for (let i = steps.length; i < n; i++) {
    steps.push((d) =>
      i % 5 === 0
        ? d.delete({ namespace: 'github', doc_type: 'repo', id: `octo/n${i - 1}` })
        : d.put(repo(`octo/n${i}`, { stars: i * 2, language: i % 2 ? 'Go' : 'C' })),
    );
  }
  return steps.slice(0, n);
}

/**
 * What the library's query says at each version: the documents of github/repo (count) and the sum, mean, min and max
 * of the numbers among their `data.stars` — null where no index answers (before the index was declared).
 *
 * @example
 * const expected = await seriesByQuery(new DocumentStore(store), versions);
 */
export async function seriesByQuery(
  docs: DocumentStore,
  versions: readonly string[],
): Promise<
  { count: number | null; sum: number | null; mean: number | null; min: number | null; max: number | null }[]
> {
  const out = [];
  for (const version of versions) {
    const r = await docs.query({ namespace: 'github', type: 'repo', fields: ['data.stars'], limit: 10_000, version });
    if (r.answeredBy !== 'index') {
      out.push({ count: null, sum: null, mean: null, min: null, max: null });
      continue;
    }
    const numbers = r.rows.map((row) => row.values['data.stars']).filter((v): v is number => typeof v === 'number');
    const sum = numbers.reduce((a, b) => a + b, 0);
    const some = numbers.length > 0;
    out.push({
      count: r.rows.length,
      sum,
      mean: some ? sum / numbers.length : null,
      min: some ? Math.min(...numbers) : null,
      max: some ? Math.max(...numbers) : null,
    });
  }
  return out;
}
