/**
 * The words of a search hit, for its snippet (pure): where a field's text holds the query's words, so the
 * results list can mark them. Tokens are the search engine's (`tokenize`, docs/search.md): Unicode NFKD,
 * combining marks removed, lower-cased, split on every run of characters that are not letters or digits,
 * tokens over 64 code points dropped. The engine's tokenizer gives tokens without their place in the text;
 * a snippet needs the place, so {@link tokenSpans} folds the text a code point at a time and keeps, for
 * every token, the span of the original text it came from (a test holds its tokens equal to `tokenize`'s).
 *
 * A query word marks a token the engine would match it with (its `termWeight`, given by the caller): equal;
 * the LAST word also as a prefix; a word of 5 or more characters also at one edit that keeps its first two
 * characters.
 */

/** One token of a text and the span of the original text it came from. */
export interface TokenSpan {
  token: string;
  start: number;
  end: number;
}

/** Tokens longer than this (in code points) are not indexed, so never marked. */
export const MAX_TOKEN_CHARS = 64;

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Every token of `text` with its span in `text`.
 *
 * @example
 * tokenSpans('Crème brûlée!'); // [{ token: 'creme', start: 0, end: 5 }, { token: 'brulee', start: 6, end: 12 }]
 */
export function tokenSpans(text: string): TokenSpan[] {
  // The folded text, and for each of its UTF-16 units the span of the code point it came from.
  let folded = '';
  const from: number[] = [];
  const to: number[] = [];
  let at = 0;
  for (const cp of text) {
    const piece = cp.normalize('NFKD').replace(MARKS, '');
    // A code point that folds to nothing (a combining mark) belongs to the character before it.
    if (piece === '' && to.length > 0 && to[to.length - 1] === at) to[to.length - 1] = at + cp.length;
    folded += piece;
    for (let i = 0; i < piece.length; i++) {
      from.push(at);
      to.push(at + cp.length);
    }
    at += cp.length;
  }
  // Lower-cased whole (a final sigma needs its context); per code point only if that changed the length.
  let lower = folded.toLowerCase();
  if (lower.length !== folded.length)
    lower = [...folded].map((c) => (c.toLowerCase().length === c.length ? c.toLowerCase() : c)).join('');
  const out: TokenSpan[] = [];
  for (const m of lower.matchAll(WORD)) {
    const token = m[0];
    if ([...token].length > MAX_TOKEN_CHARS) continue;
    const first = m.index as number;
    out.push({ token, start: from[first] as number, end: to[first + token.length - 1] as number });
  }
  return out;
}

/** A piece of a snippet: text, marked where it matched a query word. */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

/** How a query word matches a term: the engine's `termWeight` (0: no match; `loadSearchText()`). */
export type TermWeight = (word: string, term: string, last: boolean) => number;

/** Characters of context shown before the first match. */
const LEAD = 60;

/**
 * The piece of `text` around its first matching token, at most `width` characters (cut at spaces where
 * possible, `…` where cut), the tokens that match a query word marked. No match: the text's start, unmarked.
 *
 * @example
 * snippet('A small search engine', ['search'], termWeight); // [{ text: 'A small ', marked: false }, { text: 'search', marked: true }, …]
 */
export function snippet(text: string, words: readonly string[], weight: TermWeight, width = 180): SnippetPart[] {
  const spans = tokenSpans(text);
  const last = words.length - 1;
  const hits = spans.filter((s) => words.some((w, i) => weight(w, s.token, i === last) > 0));
  const first = hits[0]?.start ?? 0;
  let start = Math.max(0, first - LEAD);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < first ? space + 1 : start;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > first ? space : end;
  }
  const parts: SnippetPart[] = [];
  const push = (t: string, marked: boolean) => t && parts.push({ text: t, marked });
  if (start > 0) push('…', false);
  let at = start;
  for (const s of hits) {
    if (s.end <= start || s.start >= end) continue;
    push(text.slice(at, Math.max(at, s.start)), false);
    push(text.slice(Math.max(at, s.start), Math.min(end, s.end)), true);
    at = Math.min(end, s.end);
  }
  push(text.slice(at, end), false);
  if (end < text.length) push('…', false);
  return parts;
}
