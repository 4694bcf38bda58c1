/**
 * Refuses `pattern` / `patternProperties` regular expressions that could backtrack catastrophically.
 * Schemas are untrusted input (anyone with push access declares them) and JavaScript's regex engine
 * backtracks, so a pattern like `^(a+)+$` or `^a*a*$` can stall every writer on one long string.
 * The rules are structural and conservative (a few safe patterns are refused; the message says why):
 *
 * - at most {@link MAX_PATTERN_LENGTH} characters, valid with the `u` flag, no backreferences;
 * - no repeated group that contains a quantifier or an alternation (`(a+)+`, `(a|ab)*`: exponential);
 * - bounded repeats `{n,m}` at most {@link MAX_REPEAT};
 * - with an unbounded quantifier (`*`, `+`, `{n,}`), the pattern starts with `^` and has no top-level `|`
 *   (unanchored, the engine retries at every start position: quadratic), and two unbounded quantifiers
 *   in a row are separated by a required literal character the first cannot match (`^[a-z]+/[a-z]+$`
 *   is fine; `^a*a*$`, `^.*x.*$` are polynomial and refused); inside a group, at most one.
 */

export const MAX_PATTERN_LENGTH = 256;
export const MAX_REPEAT = 1000;

interface Frame {
  quantified: boolean;
  alternation: boolean;
  /** Unbounded quantifiers inside this group (nested groups included). */
  unbounded: number;
}

interface Quantifier {
  min: number;
  max: number; // Infinity when unbounded
  length: number;
}

const QUANT_BRACES = /^\{(\d+)(,(\d*))?\}\??/;

function readQuantifier(src: string, i: number): Quantifier | undefined {
  const c = src[i];
  const lazy = (n: number) => (src[i + n] === '?' ? n + 1 : n);
  if (c === '*') return { min: 0, max: Infinity, length: lazy(1) };
  if (c === '+') return { min: 1, max: Infinity, length: lazy(1) };
  if (c === '?') return { min: 0, max: 1, length: lazy(1) };
  if (c !== '{') return undefined;
  const m = QUANT_BRACES.exec(src.slice(i));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  return { min, max, length: m[0].length };
}

/** The end (exclusive) of the atom starting at `i` that is not a group: an escape, a class or one character. */
function atomEnd(src: string, i: number): number {
  if (src[i] === '[') {
    let j = i + 1;
    while (j < src.length && src[j] !== ']') j += src[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  if (src[i] !== '\\') return i + 1;
  const next = src[i + 1];
  if ((next === 'u' || next === 'p' || next === 'P') && src[i + 2] === '{') return src.indexOf('}', i) + 1;
  if (next === 'u') return i + 6;
  if (next === 'x') return i + 4;
  if (next === 'c') return i + 3;
  return i + 2;
}

/** Whether the atom source can match the single character `ch` (a literal). */
function atomMatches(atom: string, ch: string): boolean {
  if (atom === '(group)') return true;
  try {
    return new RegExp(`^(?:${atom})$`, 'u').test(ch);
  } catch {
    return true;
  }
}

/** A literal single character an atom stands for, or undefined when it is a class, an escape class or `.`. */
function literalOf(atom: string): string | undefined {
  if (atom.length === 1 && !'.^$'.includes(atom)) return atom;
  if (atom.length === 2 && atom[0] === '\\' && !/[A-Za-z0-9]/.test(atom[1]!)) return atom[1];
  return undefined;
}

/** Undefined when the pattern is accepted, else why it is refused. */
export function patternRisk(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression (ECMAScript, u flag)';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'uses a backreference';
  return scan(pattern);
}

function scan(src: string): string | undefined {
  const stack: Frame[] = [{ quantified: false, alternation: false, unbounded: 0 }];
  let unbounded = 0;
  let topAlternation = false;
  // Depth-0 sequence state: the last unbounded atom not yet separated from the next one.
  let pending: string | undefined;
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    const top = stack[stack.length - 1]!;
    if (c === '|') {
      top.alternation = true;
      if (stack.length === 1) topAlternation = true;
      pending = undefined;
      i++;
      continue;
    }
    if (c === '(') {
      stack.push({ quantified: false, alternation: false, unbounded: 0 });
      const m = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)?/.exec(src.slice(i));
      i += m ? m[0].length : 1;
      continue;
    }
    let atom: string;
    let inner: Frame | undefined;
    if (c === ')') {
      inner = stack.pop()!;
      const parent = stack[stack.length - 1]!;
      parent.quantified ||= inner.quantified;
      parent.alternation ||= inner.alternation;
      // Inside a group the sequence check below does not look: two unbounded quantifiers there are refused.
      if (inner.unbounded > 1) return `${adjacent.split(' not ')[0]} inside one group (polynomial backtracking)`;
      parent.unbounded += inner.unbounded;
      atom = '(group)';
      i++;
    } else if (c === '^' || c === '$') {
      i++;
      continue;
    } else {
      const end = atomEnd(src, i);
      atom = src.slice(i, end);
      i = end;
    }
    const q = readQuantifier(src, i);
    const depth0 = stack.length === 1;
    if (q) {
      i += q.length;
      if (q.max !== Infinity && q.max > MAX_REPEAT) return `repeats more than ${MAX_REPEAT} times`;
      if (q.min > MAX_REPEAT) return `repeats more than ${MAX_REPEAT} times`;
      if (inner && q.max > 1 && (inner.quantified || inner.alternation)) {
        return 'repeats a group that itself contains a quantifier or an alternation (exponential backtracking)';
      }
      const frame = stack[stack.length - 1]!;
      frame.quantified = true;
      if (q.max === Infinity) {
        unbounded++;
        frame.unbounded++;
        if (depth0) {
          if (pending !== undefined) return adjacent;
          pending = atom;
          continue;
        }
      }
      if (depth0 && q.min === 0) continue; // optional: separates nothing
    }
    if (!depth0) continue;
    if (inner?.unbounded) {
      if (pending !== undefined) return adjacent;
      pending = '(group)';
      continue;
    }
    const lit = literalOf(atom);
    if (pending !== undefined && lit !== undefined && !atomMatches(pending, lit)) pending = undefined;
  }
  if (unbounded > 0 && !src.startsWith('^'))
    return 'has an unbounded quantifier (*, +, {n,}) but does not start with ^';
  if (unbounded > 0 && topAlternation)
    return 'has an unbounded quantifier and a top-level | (wrap the branches: ^(?:a|b)…)';
  return undefined;
}

const adjacent =
  'has two unbounded quantifiers not separated by a required literal character the first cannot match (polynomial backtracking)';
