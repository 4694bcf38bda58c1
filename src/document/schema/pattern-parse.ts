/**
 * A small parser for the regular expressions the pattern guard analyses (ECMAScript, `u` flag). It runs only
 * on patterns `new RegExp(p, 'u')` already accepted, so it reads valid syntax and does not report errors.
 */
import { ANY, type CharSet, readClass, readEscape, single } from './pattern-charset.js';

/** One character from a set: a literal, an escape, a class or `.`. */
export interface CharNode {
  kind: 'char';
  set: CharSet;
}
/** A zero-width assertion that looks at no text beyond one position: `^`, `$`, `\b`, `\B`. */
export interface AssertNode {
  kind: 'assert';
}
/** A group: `(...)`, `(?:...)`, `(?<name>...)`, or a lookaround `(?=` `(?!` `(?<=` `(?<!` when `look`. */
export interface GroupNode {
  kind: 'group';
  alternatives: Term[][];
  look: boolean;
}
export type RegexNode = CharNode | AssertNode | GroupNode;

/** A node with its quantifier (`{1,1}` when there is none); `max` is Infinity when unbounded. */
export interface Term {
  node: RegexNode;
  min: number;
  max: number;
}

/** A pattern the guard refuses; the message follows "pattern" in the schema error. */
export class PatternRefused extends Error {}

const QUANT_BRACES = /^\{(\d+)(?:,(\d*))?\}/;
const GROUP_OPEN = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)?/;

/** Parses a pattern into its top-level alternatives. Throws on syntax the guard does not model (inline modifiers). */
export function parsePattern(src: string): Term[][] {
  return parseAlternatives({ src, i: 0 });
}

interface State {
  src: string;
  i: number;
}

function parseAlternatives(s: State): Term[][] {
  const alternatives: Term[][] = [[]];
  while (s.i < s.src.length && s.src[s.i] !== ')') {
    if (s.src[s.i] === '|') {
      s.i++;
      alternatives.push([]);
      continue;
    }
    const node = parseAtom(s);
    alternatives[alternatives.length - 1]!.push({ node, ...parseQuantifier(s) });
  }
  return alternatives;
}

function parseAtom(s: State): RegexNode {
  const { src } = s;
  const c = src[s.i]!;
  if (c === '(') return parseGroup(s);
  if (c === '^' || c === '$') {
    s.i++;
    return { kind: 'assert' };
  }
  if (c === '\\' && (src[s.i + 1] === 'b' || src[s.i + 1] === 'B')) {
    s.i += 2;
    return { kind: 'assert' };
  }
  // `.` is every character but line terminators; `ANY` is a superset, which only makes the guard stricter.
  const dot = { set: ANY as CharSet, end: s.i + 1 };
  const read =
    c === '\\' ? readEscape(src, s.i) : c === '[' ? readClass(src, s.i) : c === '.' ? dot : literal(src, s.i);
  s.i = read.end;
  return { kind: 'char', set: read.set };
}

function literal(src: string, i: number): { set: CharSet; end: number } {
  const cp = src.codePointAt(i)!;
  return { set: single(cp), end: i + String.fromCodePoint(cp).length };
}

function parseGroup(s: State): GroupNode {
  const open = GROUP_OPEN.exec(s.src.slice(s.i));
  const opener = open?.[0] ?? '(';
  if (opener === '(?')
    throw new PatternRefused('uses a group form the guard does not analyse (inline modifiers such as (?i:…))');
  s.i += opener.length;
  const look = ['(?=', '(?!', '(?<=', '(?<!'].includes(opener);
  const alternatives = parseAlternatives(s);
  s.i++; // ')'
  return { kind: 'group', alternatives, look };
}

function parseQuantifier(s: State): { min: number; max: number } {
  const c = s.src[s.i];
  let q: { min: number; max: number; length: number } | undefined;
  if (c === '*') q = { min: 0, max: Infinity, length: 1 };
  else if (c === '+') q = { min: 1, max: Infinity, length: 1 };
  else if (c === '?') q = { min: 0, max: 1, length: 1 };
  else if (c === '{') {
    const m = QUANT_BRACES.exec(s.src.slice(s.i));
    if (m) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[2] === '' ? Infinity : Number(m[2]);
      q = { min, max, length: m[0].length };
    }
  }
  if (!q) return { min: 1, max: 1 };
  s.i += q.length;
  if (s.src[s.i] === '?') s.i++; // lazy: the same set of paths, tried in another order
  return { min: q.min, max: q.max };
}
