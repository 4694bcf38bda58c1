/**
 * Test helpers for the search core: an in-memory section of files, the NeedFiles loop a store runs
 * (counting rounds and paths fetched), and a brute-force oracle that ranks documents straight from
 * their text — written apart from src/document/search (its own matching and its own BM25), sharing
 * only the tokenizer, the field text and the norm quantization the contract fixes.
 */
import { normLength, normOf } from '../../../src/document/search/codec.js';
import {
  fieldText,
  idsOf,
  NeedFiles,
  parseSearchText,
  rankSearch,
  type SearchChange,
  type SearchDoc,
  type SearchOptions,
  type SearchRead,
  type TypeSearch,
  tokenize,
  updateSearch,
} from '../../../src/document/search/index.js';

export type Files = Map<string, Uint8Array>;

export interface Fetched<T> {
  value: T;
  rounds: string[][];
}

/** Run a pure step the way a store does: fetch what NeedFiles names, call again. */
export function withFetches<T>(files: Files, step: (read: SearchRead) => T): Fetched<T> {
  const have = new Set<string>();
  const rounds: string[][] = [];
  for (;;) {
    try {
      const value = step((p) => (have.has(p) ? (files.get(p) ?? null) : undefined));
      return { value, rounds };
    } catch (e) {
      if (!(e instanceof NeedFiles)) throw e;
      if (e.paths.some((p) => have.has(p))) throw new Error(`asked again for ${e.paths.join(', ')}`);
      rounds.push(e.paths);
      for (const p of e.paths) have.add(p);
    }
  }
}

/** Apply an update's writes and deletes to the files. */
export function applyUpdate(files: Files, t: TypeSearch, changes: SearchChange[], o?: SearchOptions) {
  const r = withFetches(files, (read) => updateSearch(t, read, changes, o));
  for (const [p, b] of r.value.writes) files.set(p, b);
  for (const p of r.value.deletes) files.delete(p);
  return r;
}

/**
 * `base` after three updates of 20 documents each (`docs[100…160)`, new words `alpha<w>`/`delta<w>`): with
 * 512-byte shards each fills delta.txt (128 bytes), which is emptied into delta parts — a section that has some.
 */
export function withDeltaParts(
  base: Files,
  t: TypeSearch,
  docs: readonly { id: string; data: unknown }[],
  o: SearchOptions,
): Files {
  const parted = new Map(base);
  for (let w = 0; w < 3; w++) {
    const changes = docs.slice(100 + w * 20, 120 + w * 20).map((d) => ({
      id: d.id,
      before: d.data,
      after: { title: `common alpha${w}`, body: `delta${w} ${(d.data as { body: string }).body}` },
    }));
    applyUpdate(parted, t, changes, o);
  }
  return parted;
}

export interface Hit {
  id: string;
  score: number;
  fields: string[];
}

/** The index's answer: ranked hits with ids, ties by id. */
export function searchIndex(files: Files, t: TypeSearch, text: string): Hit[] {
  const q = parseSearchText(text);
  const { value } = withFetches(files, (read) => {
    const ranked = rankSearch(t, q, read);
    const ids = idsOf(
      t,
      ranked.hits.map((h) => h.ordinal),
      read,
    );
    return ranked.hits.map((h) => ({ id: ids.get(h.ordinal)!, score: h.score, fields: h.fields }));
  });
  return value.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function edits1(a: string[], b: string[]): boolean {
  // Plain dynamic-programming Levenshtein, bounded to the answer the oracle needs.
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...b.map((_, j) => (i === 0 ? j + 1 : 0))]);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return d[a.length]![b.length]! <= 1;
}

function weight(word: string, term: string, last: boolean): number {
  if (word === term) return 1;
  let w = 0;
  if (last && term.startsWith(word)) w = 0.5;
  const a = [...word];
  const b = [...term];
  if (w === 0 && a.length >= 5 && b.length >= 2 && a[0] === b[0] && a[1] === b[1] && edits1(a, b)) w = 0.45;
  return w;
}

/** Brute force: rank `docs` for `text` from their text alone. */
export function oracle(t: TypeSearch, docs: readonly SearchDoc[], text: string): Hit[] {
  const words = tokenize(text);
  const F = t.fields.length;
  const stats = docs.map((doc) => {
    const tf = new Map<string, number[]>();
    const len = t.fields.map((field, f) => {
      const tokens = tokenize(fieldText(doc, field));
      for (const tok of tokens) {
        if (!tf.has(tok)) tf.set(tok, new Array(F).fill(0));
        tf.get(tok)![f]!++;
      }
      return tokens.length;
    });
    return { doc, tf, len };
  });
  const N = t.fields.map((_, f) => stats.filter((s) => s.len[f]! > 0).length);
  const avg = t.fields.map((_, f) => stats.reduce((a, s) => a + s.len[f]!, 0) / N[f]!);
  const df = (term: string, f: number) => stats.filter((s) => (s.tf.get(term)?.[f] ?? 0) > 0).length;
  const hits: Hit[] = [];
  for (const s of stats) {
    let score = 0;
    const fields = new Set<number>();
    let all = true;
    words.forEach((word, i) => {
      const matched = [...s.tf.keys()].map((term) => ({ term, w: weight(word, term, i === words.length - 1) }));
      const best = Math.max(0, ...matched.map((m) => m.w));
      if (best === 0) {
        all = false;
        return;
      }
      let sum = 0;
      for (const { term } of matched.filter((m) => m.w === best).sort((a, b) => (a.term < b.term ? -1 : 1))) {
        for (let f = 0; f < F; f++) {
          const tf = s.tf.get(term)![f]!;
          if (tf === 0) continue;
          fields.add(f);
          const idf = Math.log(1 + (N[f]! - df(term, f) + 0.5) / (df(term, f) + 0.5));
          const dl = normLength(normOf(s.len[f]!));
          sum += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * dl) / avg[f]!));
        }
      }
      score += best * sum;
    });
    if (all) hits.push({ id: s.doc.id, score, fields: t.fields.filter((_, f) => fields.has(f)) });
  }
  return hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The same ids in the same order, scores within 1e-9 and the same matched fields. */
export function sameHits(got: Hit[], want: Hit[]): string | null {
  if (got.map((h) => h.id).join('|') !== want.map((h) => h.id).join('|')) {
    return `ids ${JSON.stringify(got.map((h) => h.id))} != ${JSON.stringify(want.map((h) => h.id))}`;
  }
  for (const [i, h] of got.entries()) {
    if (Math.abs(h.score - want[i]!.score) > 1e-9) return `score of ${h.id}: ${h.score} != ${want[i]!.score}`;
    if (h.fields.join() !== want[i]!.fields.join()) return `fields of ${h.id}: ${h.fields} != ${want[i]!.fields}`;
  }
  return null;
}
