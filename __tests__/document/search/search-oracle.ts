/**
 * What a search must answer, recomputed from the documents alone (issue 42: "tested against a brute-force
 * scan"): per declared type, the search core builds a fresh index of the type's documents in memory and
 * ranks the words on it — so a section whose stored search drifted from its documents (a write that missed a
 * change, a stale posting, a freed ordinal reused wrongly) answers differently. On top, the matching set is
 * checked against a plain scan of the tokens (every word equal to a token, the last one a prefix, a word of
 * 5+ characters at one edit keeping its first two), which owes nothing to the core's index. And the section
 * holds exactly the files each manifest lists: none left behind by a rebuild or a drop.
 */
import { expect } from 'vitest';
import { InvalidConfig } from '../../../src/core/errors.js';
import type { RefStore } from '../../../src/core/refstore.js';
import type { DocumentStore } from '../../../src/document/document-store.js';
import {
  buildSearch,
  fieldText,
  idsOf,
  parseSearchText,
  rankSearch,
  SEARCH_ROOT,
  type SearchDoc,
  searchFilesOf,
  searchManifestPath,
  type TypeSearch,
  tokenize,
} from '../../../src/document/search/index.js';

export interface ExpectedHit {
  type: string;
  id: string;
  score: number;
}

/** The documents of one type at the tip, as the search core takes them. */
async function documentsOf(docs: DocumentStore, t: TypeSearch): Promise<SearchDoc[]> {
  const out: SearchDoc[] = [];
  for await (const d of docs.stream({ namespace: t.namespace, type: t.type, withData: true })) {
    out.push({ id: d.id, data: d.document!.data });
  }
  return out;
}

/** Levenshtein distance ≤ 1. */
function oneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const [ra, rb] = [a.slice(i), b.slice(i)];
  return ra.slice(1) === rb.slice(1) || ra.slice(1) === rb || ra === rb.slice(1);
}

/** The plain scan: does `doc` hold every word of `words` under the matching rules? */
export function scanMatches(t: TypeSearch, doc: SearchDoc, words: readonly string[]): boolean {
  const tokens = new Set(t.fields.flatMap((f) => tokenize(fieldText(doc, f))));
  return words.every((w, i) => {
    for (const tok of tokens) {
      if (tok === w) return true;
      if (i === words.length - 1 && tok.startsWith(w)) return true;
      if ([...w].length >= 5 && tok.slice(0, 2) === w.slice(0, 2) && oneEdit(w, tok)) return true;
    }
    return false;
  });
}

/**
 * The hits `docs.search(text, { namespace, type })` must return (all of them, best first, ties by type then
 * id), or 'not-declared' when no type searched has search declared.
 */
export async function expectedSearch(
  docs: DocumentStore,
  text: string,
  q: { namespace: string; type?: string },
): Promise<ExpectedHit[] | 'not-declared'> {
  const declared = (await docs.searchDeclaration()).search.filter(
    (t) => t.namespace === q.namespace && (q.type === undefined || t.type === q.type),
  );
  if (declared.length === 0) return 'not-declared';
  const parsed = parseSearchText(text);
  const out: ExpectedHit[] = [];
  for (const t of declared) {
    const all = await documentsOf(docs, t);
    const files = buildSearch(t, all, { maxShardBytes: 1 << 20 });
    const read = (p: string) => files.get(p) ?? null;
    const ranked = rankSearch(t, parsed, read);
    const ids = idsOf(
      t,
      ranked.hits.map((h) => h.ordinal),
      read,
    );
    const found = ranked.hits.map((h) => ({ type: t.type, id: ids.get(h.ordinal)!, score: h.score }));
    const scanned = all.filter((d) => scanMatches(t, d, parsed.words)).map((d) => d.id);
    expect(found.map((h) => h.id).sort(), `plain scan of ${t.type} for ${JSON.stringify(text)}`).toEqual(
      scanned.sort(),
    );
    out.push(...found);
  }
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return out.sort((a, b) => b.score - a.score || cmp(a.type, b.type) || cmp(a.id, b.id));
}

/** Assert `docs.search` answers what {@link expectedSearch} recomputes (every page of `limit`). */
export async function assertSearchExact(
  docs: DocumentStore,
  text: string,
  q: { namespace: string; type?: string },
  limit = 100,
): Promise<void> {
  const expected = await expectedSearch(docs, text, q);
  if (expected === 'not-declared') {
    await expect(docs.search(text, { ...q, limit })).rejects.toThrow(InvalidConfig);
    return;
  }
  const got: ExpectedHit[] = [];
  let cursor: string | undefined;
  do {
    const page = await docs.search(text, { ...q, limit, ...(cursor ? { cursor } : {}) });
    expect(page.total).toBe(expected.length);
    got.push(...page.hits.map((h) => ({ type: h.type, id: h.id, score: h.score })));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const what = `search ${JSON.stringify(text)} in ${q.namespace}/${q.type ?? '*'}`;
  expect(
    got.map((h) => `${h.type}:${h.id}`),
    what,
  ).toEqual(expected.map((h) => `${h.type}:${h.id}`));
  for (const [i, h] of got.entries()) expect(Math.abs(h.score - expected[i]!.score), what).toBeLessThan(1e-9);
}

/**
 * The section holds exactly the search files its manifests list: each declared type's, and nothing under
 * `_docdb/search/` for a type without a declaration.
 */
export async function assertNoStrayFiles(store: RefStore, declared: readonly TypeSearch[]): Promise<void> {
  const listed = (await store.list({ prefix: SEARCH_ROOT })).entries.map((e) => e.key);
  const expected: string[] = [];
  for (const t of declared) {
    const m = await store.get(searchManifestPath(t.namespace, t.type));
    expect(m, `manifest of ${t.namespace}/${t.type}`).not.toBeNull();
    expected.push(...searchFilesOf(t, m!.value));
  }
  expect(listed.sort()).toEqual([...new Set(expected)].sort());
}
