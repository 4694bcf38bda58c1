/**
 * Which index terms a query word matches, and with what weight: the term equal to it (1), for the LAST
 * word every term it is a prefix of (0.5), and for a word of 5+ characters every term one edit away
 * (insert, delete, substitute) that keeps its first two characters (0.45). A term matching several
 * ways takes the highest weight. Keeping the first two characters (Elasticsearch's `prefix_length`)
 * puts every candidate of a word in one term range, so a query reads only the shards of that range.
 */
import { codePoints } from './text.js';

export const EXACT_WEIGHT = 1;
export const PREFIX_WEIGHT = 0.5;
export const TYPO_WEIGHT = 0.45;
/** Shortest word (code points) that tolerates a typo. */
export const TYPO_MIN_CHARS = 5;
/** Characters a typo candidate shares with the word's start. */
export const TYPO_PREFIX_CHARS = 2;

/** The term range a word's candidates lie in: terms starting with `prefix` (or equal to it, `exact`). */
export interface WordRange {
  prefix: string;
  exact: boolean;
}

/**
 * @example
 * wordRange('search', false); // { prefix: 'se', exact: false }
 * wordRange('db', true);      // { prefix: 'db', exact: false }
 * wordRange('db', false);     // { prefix: 'db', exact: true }
 */
export function wordRange(word: string, last: boolean): WordRange {
  if (codePoints(word) >= TYPO_MIN_CHARS) {
    return { prefix: Array.from(word).slice(0, TYPO_PREFIX_CHARS).join(''), exact: false };
  }
  return { prefix: word, exact: !last };
}

/** Whether two code point arrays are at most one insert, delete or substitution apart. */
function withinOneEdit(a: readonly string[], b: readonly string[]): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1).join('') === b.slice(i + 1).join('');
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1).join('') === short.slice(i).join('');
}

/**
 * The weight with which `term` matches `word` (0: no match).
 *
 * @example
 * termWeight('search', 'search', false);   // 1
 * termWeight('sea', 'search', true);       // 0.5
 * termWeight('serach', 'search', false);   // 0 (two substitutions)
 * termWeight('seerch', 'search', false);   // 0.45
 */
export function termWeight(word: string, term: string, last: boolean): number {
  if (term === word) return EXACT_WEIGHT;
  if (last && term.startsWith(word)) return PREFIX_WEIGHT;
  if (codePoints(word) < TYPO_MIN_CHARS) return 0;
  const w = Array.from(word);
  const x = Array.from(term);
  if (x.length < TYPO_PREFIX_CHARS || w[0] !== x[0] || w[1] !== x[1]) return 0;
  return withinOneEdit(w, x) ? TYPO_WEIGHT : 0;
}
