/**
 * The text of a document's field and its tokens (issue 42). Hand-written rather than MiniSearch's: its
 * tokenizer is one regular expression, and its index format loads whole (docs/decisions.md).
 *
 * A field's text is every string and finite number leaf under the field's path, depth-first in key
 * order, joined by a space; `id` is the id. Booleans and null are not text. An array met on the way
 * down applies the rest of the path to each element (`data.authors.name` over a list of authors).
 */

/** Most characters of one field's text that are indexed (the rest is ignored, in the index and the oracle). */
export const MAX_FIELD_TEXT_CHARS = 100_000;

/** Longest token kept, in code points: longer runs are hashes or base64, not words. */
export const MAX_TOKEN_CHARS = 64;

export interface SearchDoc {
  id: string;
  data: unknown;
}

function leavesInto(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number') {
    if (Number.isFinite(v)) out.push(String(v));
  } else if (Array.isArray(v)) {
    for (const e of v) leavesInto(e, out);
  } else if (typeof v === 'object' && v !== null) {
    for (const k of Object.keys(v)) leavesInto((v as Record<string, unknown>)[k], out);
  }
}

function valuesAt(v: unknown, path: readonly string[], i: number, out: unknown[]): void {
  if (i === path.length) {
    out.push(v);
    return;
  }
  if (Array.isArray(v)) {
    for (const e of v) valuesAt(e, path, i, out);
    return;
  }
  if (typeof v !== 'object' || v === null || !Object.hasOwn(v, path[i]!)) return;
  valuesAt((v as Record<string, unknown>)[path[i]!], path, i + 1, out);
}

/** Field paths split once: a build asks for the same one or two fields of every document. */
const PATHS = new Map<string, readonly string[]>();

function pathOf(field: string): readonly string[] {
  let path = PATHS.get(field);
  if (path === undefined) {
    path = field === 'data' ? [] : field.slice(5).split('.');
    if (PATHS.size < 256) PATHS.set(field, path);
  }
  return path;
}

/**
 * The string at `path` when the way down meets only objects (the usual field): what the general walk
 * below gives for it (one leaf, joined alone), without its arrays. Anything else: undefined.
 */
function stringAt(v: unknown, path: readonly string[]): string | undefined {
  let at = v;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === 'string' ? at : undefined;
}

/**
 * The searchable text of `field` (`id` or `data.<dotted path>`) in a document, cut at
 * {@link MAX_FIELD_TEXT_CHARS} characters.
 *
 * @example
 * fieldText({ id: 'a', data: { post: { title: 'Hello', tags: ['x', 2, true] } } }, 'data.post'); // 'Hello x 2'
 * fieldText({ id: 'a', data: {} }, 'id'); // 'a'
 */
export function fieldText(doc: SearchDoc, field: string): string {
  if (field === 'id') return doc.id.slice(0, MAX_FIELD_TEXT_CHARS);
  const path = pathOf(field);
  const direct = stringAt(doc.data, path);
  if (direct !== undefined)
    return direct.length > MAX_FIELD_TEXT_CHARS ? direct.slice(0, MAX_FIELD_TEXT_CHARS) : direct;
  const found: unknown[] = [];
  valuesAt(doc.data, path, 0, found);
  const leaves: string[] = [];
  for (const v of found) leavesInto(v, leaves);
  return leaves.join(' ').slice(0, MAX_FIELD_TEXT_CHARS);
}

const MARKS = /\p{M}+/gu;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORDS = /[a-z0-9]+/g;

/**
 * Tokens of a text: Unicode NFKD, combining marks removed (diacritics folded), lower-cased, split on
 * every run of characters that are not letters or digits; tokens of more than 64 code points dropped.
 * No stemming, no stop words.
 *
 * @example
 * tokenize('Crème Brûlée, 2× — naïve!'); // ['creme', 'brulee', '2', 'naive']
 */
export function tokenize(text: string): string[] {
  return ASCII.test(text) ? asciiTokens(text) : unicodeTokens(text);
}

/**
 * The same tokens for ASCII text in one regex pass, the build's usual case: on ASCII, NFKD and mark
 * removal change nothing and the letters and digits are exactly [A-Za-z0-9] (text.test.ts checks all
 * 128 code points), so only lower-casing and splitting are left.
 */
function asciiTokens(text: string): string[] {
  const words = text.toLowerCase().match(ASCII_WORDS);
  if (words === null) return [];
  // A code unit is a code point in ASCII: drop runs longer than the token bound.
  for (const w of words) if (w.length > MAX_TOKEN_CHARS) return words.filter((x) => x.length <= MAX_TOKEN_CHARS);
  return words;
}

function unicodeTokens(text: string): string[] {
  const folded = text.normalize('NFKD').replace(MARKS, '').toLowerCase();
  const out: string[] = [];
  for (const t of folded.split(SEPARATORS)) {
    if (t === '') continue;
    if (t.length > MAX_TOKEN_CHARS && codePoints(t) > MAX_TOKEN_CHARS) continue;
    out.push(t);
  }
  return out;
}

/** Length in code points (a CJK run or an emoji-free word; surrogate pairs count once). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}
