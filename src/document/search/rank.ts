/**
 * Ranking a query over one type's index: BM25 per field (k1 = 1.2, b = 0.75), each word scored by its
 * best-weighted matching terms (match.ts), every word required. Pure; reads the manifest, then exactly
 * the shards covering the words' term ranges (NeedFiles protocol).
 *
 * Per document d and word w: among the terms matching w that d holds, those of the highest weight W
 * count: score_w(d) = W · Σ_terms Σ_fields BM25_f(term, d), where BM25_f uses N_f (documents with the
 * field non-empty) and df_f (documents holding the term in the field) from the index, avgdl_f from the
 * manifest, and d's field length from its norm symbol. score(d) = Σ_w score_w(d).
 */
import { InvalidConfig, InvalidResponse } from '../../core/errors.js';
import { normLength } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { type Delta, deltaTerms, parseDelta, withDelta } from './delta.js';
import { deltaPartPathOf, loadDeltaPart, overlay, partsForRange } from './delta-parts.js';
import { parseSearchManifest, type SearchManifest, shardPathOf, shardsForRange } from './manifest.js';
import { termWeight, wordRange } from './match.js';
import { readAll, type SearchRead } from './need.js';
import { deltaPath, searchManifestPath } from './paths.js';
import { type Line, loadShard, type Posting } from './shard.js';
import { readManifest } from './table.js';
import { tokenize } from './text.js';

export const K1 = 1.2;
export const B = 0.75;
/** Most words of one query: each is a range of shards to read. */
export const MAX_QUERY_WORDS = 32;

export interface ParsedSearch {
  words: string[];
}

export interface RankedHit {
  ordinal: number;
  score: number;
  /** Declared fields holding a term the document was found for, in declaration order. */
  fields: string[];
  /** terms[i]: the index terms word i matched in this document (its best-weighted ones). */
  terms: string[][];
}

/**
 * The words of a query, tokenized as documents are. Not a string, no words, or more than 32 words is
 * `InvalidConfig` naming `q`.
 *
 * @example
 * parseSearchText('Crème brû'); // { words: ['creme', 'bru'] }
 */
export function parseSearchText(text: unknown): ParsedSearch {
  if (typeof text !== 'string') throw new InvalidConfig('q', `search text must be a string, got ${typeof text}`);
  const words = tokenize(text);
  if (words.length === 0) {
    throw new InvalidConfig('q', 'search text has no words (letters or digits); give at least one word');
  }
  if (words.length > MAX_QUERY_WORDS) {
    throw new InvalidConfig('q', `search text has ${words.length} words; at most ${MAX_QUERY_WORDS} are allowed`);
  }
  return { words };
}

/** Shard indexes each word's range covers. */
function wordShards(m: SearchManifest, q: ParsedSearch): number[][] {
  return q.words.map((w, i) => {
    const r = wordRange(w, i === q.words.length - 1);
    return shardsForRange(m, r.prefix, r.exact);
  });
}

/**
 * Every file a query reads after the manifest (its words' shards, delta.txt and the delta parts of
 * their ranges), from the manifest's bytes, so a caller fetches them in one round.
 *
 * @example
 * rankFirstPaths(t, parseSearchText('docdb'), manifestBytes); // ['_docdb/search/github/repo/terms/3.txt']
 */
export function rankFirstPaths(t: TypeSearch, q: ParsedSearch, manifest: Uint8Array): string[] {
  return queryPaths(parseSearchManifest(t, manifest), q).paths;
}

/** Delta part indexes the words' ranges cover. */
function wordParts(m: SearchManifest, q: ParsedSearch): number[] {
  const all = q.words.flatMap((w, i) => {
    const r = wordRange(w, i === q.words.length - 1);
    return partsForRange(m, r.prefix, r.exact);
  });
  return [...new Set(all)].sort((a, b) => a - b);
}

/** What a query reads in one round: its shards, delta.txt, then the delta parts of its words' ranges. */
function queryPaths(m: SearchManifest, q: ParsedSearch) {
  const shardsOf = wordShards(m, q);
  const shards = [...new Set(shardsOf.flat())].sort((a, b) => a - b);
  const parts = wordParts(m, q);
  const paths = [
    ...shards.map((i) => shardPathOf(m, i)),
    deltaPath(m.namespace, m.type),
    ...parts.map((i) => deltaPartPathOf(m, i)),
  ];
  return { shardsOf, shards, parts, paths };
}

interface Candidate {
  term: string;
  weight: number;
  postings: Posting[];
}

/**
 * Matching terms of word i from its shards (a term split over shards joined back) and from the delta
 * (entries override the shards' postings), in term order.
 */
function candidates(
  word: string,
  last: boolean,
  shards: readonly number[],
  lines: Map<number, Line[]>,
  delta: Delta,
): Candidate[] {
  const found = new Map<string, Candidate>();
  for (const s of shards) {
    for (const l of lines.get(s)!) {
      const weight = termWeight(word, l.term, last);
      if (weight === 0) continue;
      const prev = found.get(l.term);
      if (prev) prev.postings = prev.postings.concat(l.postings);
      else found.set(l.term, { term: l.term, weight, postings: l.postings });
    }
  }
  for (const term of deltaTerms(delta)) {
    const weight = termWeight(word, term, last);
    if (weight > 0 && !found.has(term)) found.set(term, { term, weight, postings: [] });
  }
  const out: Candidate[] = [];
  for (const term of [...found.keys()].sort()) {
    const c = found.get(term)!;
    c.postings = withDelta(term, c.postings, delta);
    if (c.postings.length > 0) out.push(c);
  }
  return out;
}

interface WordScore {
  weight: number;
  terms: string[];
  sum: number;
  mask: number;
}

/** BM25 of one candidate term over its postings, folded into each document's best-weighted score. */
function scoreTerm(m: SearchManifest, c: Candidate, into: Map<number, WordScore>): void {
  const fields = m.fields.length;
  const idf: number[] = [];
  for (let f = 0; f < fields; f++) {
    let df = 0;
    for (const p of c.postings) if (p.tf[f]! > 0) df++;
    // More documents holding the term than hold the field is a damaged shard or manifest, not a score.
    if (df > m.docs[f]!) {
      const key = searchManifestPath(m.namespace, m.type);
      throw new InvalidResponse(
        `search index of ${m.namespace}/${m.type}: term ${JSON.stringify(c.term)} is in ${df} documents' ${m.fields[f]}, but ${key} counts ${m.docs[f]}; the search index must be rebuilt`,
        { key },
      );
    }
    idf.push(Math.log(1 + (m.docs[f]! - df + 0.5) / (df + 0.5)));
  }
  for (const p of c.postings) {
    let s = 0;
    let mask = 0;
    for (let f = 0; f < fields; f++) {
      const tf = p.tf[f]!;
      if (tf === 0) continue;
      const avgdl = m.lengths[f]! / m.docs[f]!;
      s += (idf[f]! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * normLength(p.norm[f]!)) / avgdl));
      mask |= 1 << f;
    }
    const e = into.get(p.ordinal);
    if (!e || c.weight > e.weight) into.set(p.ordinal, { weight: c.weight, terms: [c.term], sum: s, mask });
    else if (c.weight === e.weight) {
      e.terms.push(c.term);
      e.sum += s;
      e.mask |= mask;
    }
  }
}

/** Documents holding every word, scored and in rank order (score, then ordinal). */
function combine(m: SearchManifest, perWord: Map<number, WordScore>[]): RankedHit[] {
  const [first, ...rest] = perWord;
  const hits: RankedHit[] = [];
  for (const ordinal of first!.keys()) {
    if (!rest.every((w) => w.has(ordinal))) continue;
    let score = 0;
    let mask = 0;
    const terms: string[][] = [];
    for (const w of perWord) {
      const e = w.get(ordinal)!;
      score += e.weight * e.sum;
      mask |= e.mask;
      terms.push(e.terms);
    }
    const fields = m.fields.filter((_, f) => mask & (1 << f));
    hits.push({ ordinal, score, fields, terms });
  }
  return hits.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal);
}

/**
 * Every document of the type matching the query, best first (ties by ordinal: `rankedPage` orders a
 * page's ties by id). NeedFiles protocol: the manifest, then the shards of the words' ranges.
 *
 * @example
 * const { total, hits } = rankSearch(t, parseSearchText('git database'), read);
 */
export function rankSearch(t: TypeSearch, q: ParsedSearch, read: SearchRead): { total: number; hits: RankedHit[] } {
  const m = readManifest(t, read);
  const { shardsOf, shards: wanted, parts, paths } = queryPaths(m, q);
  const bytes = readAll(read, paths);
  const lines = new Map(wanted.map((s, i) => [s, loadShard(m, s, bytes[i]!)]));
  // Newer over older: delta.txt over the parts (which cover disjoint ranges), the parts over the shards.
  const delta: Delta = new Map();
  parts.forEach((p, i) => {
    overlay(delta, loadDeltaPart(m, p, bytes[wanted.length + 1 + i]!));
  });
  overlay(delta, parseDelta(m, bytes[wanted.length]!));
  const perWord = q.words.map((w, i) => {
    const into = new Map<number, WordScore>();
    for (const c of candidates(w, i === q.words.length - 1, shardsOf[i]!, lines, delta)) scoreTerm(m, c, into);
    return into;
  });
  const hits = combine(m, perWord);
  return { total: hits.length, hits };
}
