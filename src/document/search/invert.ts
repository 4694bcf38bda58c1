/**
 * The inverted index of a whole build, held in flat typed arrays rather than one object per posting: a
 * 10,000-document build makes ~700,000 postings, and an object with two arrays each cost most of the
 * build's CPU in allocation and GC (issue 42: the first write with search ≤ 1.3× the CPU without).
 *
 * Postings are appended in ordinal order (one per document and term, its frequencies per field), then
 * counting-sorted by the term's rank in term order: the sort is stable, so each term's postings stay in
 * ascending ordinal order, which is what a shard line holds. build-shards.ts cuts and encodes them.
 */
import { normOf } from './codec.js';
import type { TypeSearch } from './declaration.js';
import { termOrder } from './term-order.js';
import { TermTable } from './terms.js';
import { fieldText, type SearchDoc } from './text.js';

/** Every posting of a build, grouped by term in term order. */
export interface Inverted {
  fields: number;
  /** Terms in code-unit order (`Array.prototype.sort`). */
  terms: string[];
  /** Postings of `terms[i]` are `starts[i]` ≤ k < `starts[i + 1]` (length terms + 1). */
  starts: Int32Array;
  /** Per posting: the document's ordinal. */
  ordinals: Int32Array;
  /** Per posting and field (`k · fields + f`): the term's frequency (0 = absent; 16 bits, as in the log). */
  tfs: Uint16Array;
  /** Per ordinal and field (`o · fields + f`): the field's norm symbol. */
  norms: Uint8Array;
  /** Per field: documents where the field has a token. */
  docsPer: number[];
  /** Per field: tokens over all documents. */
  lengths: number[];
}

/** An Int32Array twice as long (at least `need`), holding `a`'s values. */
function grown(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const next = new Int32Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

/** A Uint16Array twice as long (at least `need`), holding `a`'s values. */
function grown16(a: Uint16Array, need: number): Uint16Array {
  if (need <= a.length) return a;
  const next = new Uint16Array(Math.max(need, a.length * 2));
  next.set(a);
  return next;
}

/** Per term id in {@link PostingLog.terms}: the last ordinal that made a posting of it, that posting, its postings. */
const LAST_ORDINAL = 0;
const LAST_POSTING = 1;
const POSTINGS = 2;
const TERM_STRIDE = 3;

/** Term state for `count` ids: no last ordinal (-1), no postings (0). */
function newTermState(count: number): Int32Array {
  const state = new Int32Array(count * TERM_STRIDE).fill(-1);
  for (let at = POSTINGS; at < state.length; at += TERM_STRIDE) state[at] = 0;
  return state;
}

/**
 * Postings in document order as they are made: term id and frequencies per posting, and where each
 * document's postings end (a posting's ordinal is its document's, not stored again). A frequency fits
 * 16 bits: a field's text is cut at 100,000 characters, so it has at most 50,000 tokens.
 */
class PostingLog {
  count = 0;
  termIds: Int32Array;
  tfs: Uint16Array;
  /** Per ordinal: the log's count after that document. */
  readonly docEnds: Int32Array;
  /**
   * Per term id, side by side (one cache line, not three — a token's term is a random one of tens of
   * thousands): `LAST_ORDINAL`, `LAST_POSTING`, `POSTINGS`.
   */
  terms: Int32Array;
  readonly table: TermTable;

  /** `capacity`: the postings expected, `expectedTerms` the distinct terms (both grow as needed). */
  constructor(
    readonly fields: number,
    docs: number,
    capacity: number,
    expectedTerms: number,
  ) {
    this.docEnds = new Int32Array(docs);
    this.table = new TermTable(expectedTerms);
    // Sized as the table is, so both grow at the same term, if ever.
    this.terms = newTermState(this.table.capacity);
    this.termIds = new Int32Array(capacity);
    this.tfs = new Uint16Array(capacity * fields);
  }

  /**
   * Count the occurrences of terms `ids[0 … n)` in field `f` of document `ordinal`: a term's first in the
   * document makes its posting, the others add to that posting's frequency. One loop over the field's
   * tokens (not a call per token), so it is compiled early in a cold build.
   */
  addField(ids: Int32Array, n: number, ordinal: number, f: number): void {
    const fields = this.fields;
    for (let k = 0; k < n; k++) {
      const at = ids[k]! * TERM_STRIDE;
      if (at >= this.terms.length) this.growTerms(at + TERM_STRIDE);
      const terms = this.terms;
      let p = terms[at + LAST_POSTING]!;
      if (terms[at + LAST_ORDINAL] !== ordinal) {
        p = this.newPosting(ids[k]!);
        terms[at + LAST_ORDINAL] = ordinal;
        terms[at + LAST_POSTING] = p;
        terms[at + POSTINGS]!++;
      }
      this.tfs[p * fields + f]!++;
    }
  }

  /** Postings of term `id`. */
  postingsOf(id: number): number {
    return this.terms[id * TERM_STRIDE + POSTINGS]!;
  }

  private newPosting(id: number): number {
    const k = this.count++;
    if (k >= this.termIds.length) {
      this.termIds = grown(this.termIds, k + 1);
      this.tfs = grown16(this.tfs, (k + 1) * this.fields);
    }
    this.termIds[k] = id;
    return k;
  }

  /** Room for more term ids: a new term has no last ordinal (-1) and no postings (0). */
  private growTerms(need: number): void {
    const next = newTermState(Math.max(need, this.terms.length * 2) / TERM_STRIDE);
    next.set(this.terms);
    this.terms = next;
  }
}

/**
 * Postings a log of `chars` characters of text is sized for: one per 6 characters. Words of English
 * average under 5 letters plus a separator, and a word repeated in a document is one posting, so this
 * is usually enough (a 10,000-document corpus: 5.0 MB of text, 0.70 million postings, room for 0.83);
 * growing from a small log instead copied ~20 MB of arrays per build.
 *
 * @example
 * logCapacity(5_000_000); // 834,358
 */
export const logCapacity = (chars: number) => Math.ceil(chars / 6) + 1024;

/**
 * Distinct terms a build of `chars` characters is sized for: one per 128 characters, from 4,096 to 65,536
 * (a 10,000-document corpus: 5.0 MB of text, ~47,000 terms, room for ~39,000 — a table of 131,072 slots
 * either way). A vocabulary grows slower than its text, and a table much larger than its terms costs
 * cache misses on every token; tables grow past it, at some cost (terms.ts).
 */
export const expectedTerms = (chars: number) => Math.min(1 << 16, Math.max(1 << 12, Math.ceil(chars / 128)));

/** Every field's text of every document: ordinal × fields + field. */
function textsOf(t: TypeSearch, docs: readonly SearchDoc[]): { texts: string[]; chars: number } {
  const texts: string[] = [];
  let chars = 0;
  for (const doc of docs) {
    for (const field of t.fields) {
      const text = fieldText(doc, field);
      texts.push(text);
      chars += text.length;
    }
  }
  return { texts, chars };
}

/** Tokenize every field of every document (ordinal = index) into `log`; norms and per-field totals. */
function logDocs(t: TypeSearch, texts: readonly string[], log: PostingLog) {
  const fields = t.fields.length;
  const docs = texts.length / fields;
  const norms = new Uint8Array(texts.length);
  const docsPer = t.fields.map(() => 0);
  const lengths = t.fields.map(() => 0);
  const table = log.table;
  for (let ordinal = 0; ordinal < docs; ordinal++) {
    for (let f = 0; f < fields; f++) {
      const n = table.scan(texts[ordinal * fields + f]!);
      // `ids` read after the scan: it may have grown the buffer.
      log.addField(table.ids, n, ordinal, f);
      norms[ordinal * fields + f] = normOf(n);
      lengths[f]! += n;
      if (n > 0) docsPer[f]!++;
    }
    log.docEnds[ordinal] = log.count;
  }
  return { norms, docsPer, lengths };
}

/**
 * Counting sort of the log's postings by term rank; stable, so ordinals stay ascending per term. Each
 * term's postings were counted as they were made, so this is one pass over the log.
 */
function groupByTerm(log: PostingLog, fields: number) {
  const byId = log.table.terms;
  const order = termOrder(byId);
  const terms: string[] = [];
  for (let r = 0; r < order.length; r++) terms.push(byId[order[r]!]!);
  const starts = new Int32Array(terms.length + 1);
  // Where the next posting of term id goes.
  const next = new Int32Array(terms.length);
  for (let r = 0; r < terms.length; r++) {
    next[order[r]!] = starts[r]!;
    starts[r + 1] = starts[r]! + log.postingsOf(order[r]!);
  }
  const ordinals = new Int32Array(log.count);
  // 16 bits as in the log: the counting sort's scattered writes touch half the memory.
  const tfs = new Uint16Array(log.count * fields);
  let k = 0;
  for (let ordinal = 0; ordinal < log.docEnds.length; ordinal++) {
    for (const end = log.docEnds[ordinal]!; k < end; k++) {
      const to = next[log.termIds[k]!]!++;
      ordinals[to] = ordinal;
      for (let f = 0; f < fields; f++) tfs[to * fields + f] = log.tfs[k * fields + f]!;
    }
  }
  return { terms, starts, ordinals, tfs };
}

/**
 * The postings of `docs` (sorted by id; ordinal = index) for the fields of `t`, grouped by term. Reads
 * each field as analyze.ts does (fieldText, tokenize), so update and the oracle agree with the build.
 *
 * @example
 * const inv = invertDocs({ namespace: 'n', type: 't', fields: ['data.title'] }, [{ id: 'a', data: { title: 'to be or not to be' } }]);
 * inv.terms; // ['be', 'not', 'or', 'to']
 * inv.tfs[inv.starts[0]!]; // 2 ('be' twice in document 0's title)
 */
export function invertDocs(t: TypeSearch, docs: readonly SearchDoc[]): Inverted {
  const fields = t.fields.length;
  const { texts, chars } = textsOf(t, docs);
  const log = new PostingLog(fields, docs.length, logCapacity(chars), expectedTerms(chars));
  const { norms, docsPer, lengths } = logDocs(t, texts, log);
  return { fields, ...groupByTerm(log, fields), norms, docsPer, lengths };
}
