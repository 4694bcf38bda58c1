/**
 * Refuses `pattern` / `patternProperties` regular expressions that could backtrack catastrophically.
 * Schemas are untrusted input (anyone with push access declares them) and JavaScript's regex engine
 * backtracks, so a pattern like `^(a+)+$` or `^a*a*$` can stall every writer on one long string.
 * The rules are structural and conservative (some safe patterns are refused; the message says why). A part
 * of a pattern is *ambiguous* when, from one position, it can match in more than one way (a quantifier with
 * `max > min`, or a `|` whose branches can start with the same character):
 *
 * - at most {@link MAX_PATTERN_LENGTH} characters, valid with the `u` flag, no backreferences;
 * - repeats `{n,m}` at most {@link MAX_REPEAT};
 * - a repeated group (`*`, `+`, `{n,}`, `{n,m}` with m > 1) whose body is ambiguous must start each
 *   branch with one required character (a literal or a class, no quantifier) whose characters no ambiguous
 *   part inside the group can match, and the branches must start with different characters: then every
 *   repetition starts at a place the text decides (`(?:-[a-z0-9]+)*` is accepted, `(a+)+`, `(a|ab)*`,
 *   `([a-z]+-?)*` are refused). What the group can match at the end of a repetition is part of its
 *   ambiguous parts, so it is covered;
 * - in a sequence, two ambiguous parts in a row that can match the same characters (no required character
 *   between them that the first cannot match) must not both be unbounded (`^a*a*$`, `^.*x.*$`: polynomial),
 *   and bounded ones must not multiply to more than {@link MAX_AMBIGUITY} ways (`a?a?a?…`, `a{0,999}a{0,999}`);
 *   a group counts by its first characters: `^[a-z0-9]+(?:-[a-z0-9]+)*$` is accepted;
 * - a lookaround that holds an ambiguous part stands at the top level, not after an unbounded part that
 *   could end in many places (it would run again at each);
 * - with an unbounded quantifier, the pattern starts with `^` and has no top-level `|` (unanchored, the
 *   engine retries at every start position: quadratic).
 */
import { type CharSet, disjoint, EMPTY, union } from './pattern-charset.js';
import { parsePattern, PatternRefused as Refused, type Term } from './pattern-parse.js';

export const MAX_PATTERN_LENGTH = 256;
export const MAX_REPEAT = 1000;
/** How many ways a run of adjacent bounded ambiguous parts may match the same text. */
export const MAX_AMBIGUITY = 1000;

/** What the rules need to know about a term, a sequence or a group body. */
interface Info {
  /** Characters a non-empty match can start with. */
  first: CharSet;
  /** Characters it can match anywhere. */
  all: CharSet;
  nullable: boolean;
  /** At most one way to match from a given position. */
  det: boolean;
  unbounded: boolean;
  /** An estimate of how many ways it can match from one position (1 when `det`; unbounded loops count 1). */
  ways: number;
  /** Characters its ambiguous parts can match. */
  loop: CharSet;
  /** Consumes no text (`^`, `$`, `\b`, a lookaround). */
  zeroWidth: boolean;
  /** A lookaround that holds an ambiguous part. */
  lookLoop: boolean;
}

const ZERO: Info = {
  first: EMPTY,
  all: EMPTY,
  nullable: true,
  det: true,
  unbounded: false,
  ways: 1,
  loop: EMPTY,
  zeroWidth: true,
  lookLoop: false,
};

/**
 * Undefined when the pattern is accepted, else why it is refused (a phrase that follows "pattern").
 *
 * @example
 * patternRisk('^[a-z0-9]+(?:-[a-z0-9]+)*$'); // undefined
 * patternRisk('^(a+)+$'); // 'repeats a group …'
 */
export function patternRisk(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression (ECMAScript, u flag)';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'uses a backreference';
  try {
    const top = parsePattern(pattern);
    const info = analyseAlternatives(top, 0).body;
    if (info.unbounded && !pattern.startsWith('^'))
      return 'has an unbounded quantifier (*, +, {n,}) but does not start with ^';
    if (info.unbounded && top.length > 1)
      return 'has an unbounded quantifier and a top-level | (wrap the branches: ^(?:a|b)…)';
    return undefined;
  } catch (e) {
    // Anything the analysis did not foresee is refused: conservative stays the default.
    return e instanceof Refused ? e.message : 'could not be analysed for catastrophic backtracking';
  }
}

function analyseAlternatives(alternatives: Term[][], depth: number): { body: Info; branches: Info[] } {
  const branches = alternatives.map((seq) => analyseSequence(seq, depth));
  if (branches.length === 1) return { body: branches[0]!, branches };
  const det =
    branches.every((b) => b.det && !b.nullable) &&
    branches.every((b, i) => branches.slice(i + 1).every((c) => disjoint(b.first, c.first)));
  const all = branches.reduce((acc, b) => union(acc, b.all), EMPTY);
  const body: Info = {
    first: branches.reduce((acc, b) => union(acc, b.first), EMPTY),
    all,
    nullable: branches.some((b) => b.nullable),
    det,
    unbounded: branches.some((b) => b.unbounded),
    ways: det ? 1 : branches.reduce((acc, b) => acc + b.ways, 0),
    loop: det ? EMPTY : all,
    zeroWidth: false,
    lookLoop: false,
  };
  return { body, branches };
}

/** Plain groups `(…)` / `(?:…)` without a quantifier or `|` are read as part of the sequence around them. */
function flatten(seq: Term[]): Term[] {
  return seq.flatMap((t) =>
    t.node.kind === 'group' && !t.node.look && t.node.alternatives.length === 1 && t.min === 1 && t.max === 1
      ? flatten(t.node.alternatives[0]!)
      : [t],
  );
}

interface Pending {
  chars: CharSet;
  unbounded: boolean;
  ways: number;
}

function analyseSequence(seq: Term[], depth: number): Info {
  const infos = flatten(seq).map((t) => analyseTerm(t, depth));
  checkAdjacent(infos, depth);
  let first: CharSet = EMPTY;
  let open = true; // still inside the nullable prefix
  for (const t of infos) {
    if (!open || t.zeroWidth) continue;
    first = union(first, t.first);
    if (!t.nullable) open = false;
  }
  const det = infos.every((t) => t.det);
  return {
    first,
    all: infos.reduce((acc, t) => union(acc, t.all), EMPTY),
    nullable: open,
    det,
    unbounded: infos.some((t) => t.unbounded),
    ways: det
      ? 1
      : Math.min(
          Number.MAX_SAFE_INTEGER,
          infos.reduce((acc, t) => acc * t.ways, 1),
        ),
    loop: infos.reduce((acc, t) => union(acc, t.loop), EMPTY),
    zeroWidth: false,
    lookLoop: infos.some((t) => t.lookLoop),
  };
}

/**
 * The sequence rule: walks the parts left to right keeping the run of ambiguous parts not yet cut off by a
 * required part they cannot match (`pending`). Within one run, the engine tries every way of splitting the
 * text between the parts, so two unbounded parts there cost n², and bounded ones multiply.
 */
function checkAdjacent(infos: Info[], depth: number): void {
  let pending: Pending | undefined;
  for (const t of infos) {
    if (t.zeroWidth) {
      if (t.lookLoop && depth > 0) throw new Refused(LOOK_NESTED);
      if (t.lookLoop && pending?.unbounded) throw new Refused(LOOK_AFTER);
      continue;
    }
    const overlaps = pending !== undefined && !disjoint(t.first, pending.chars);
    if (t.det) {
      if (pending && !t.nullable && !overlaps) pending = undefined;
      else if (pending) pending = { ...pending, chars: union(pending.chars, t.all) };
      continue;
    }
    const own = { chars: t.all, unbounded: t.unbounded, ways: t.ways };
    if (!pending || (!overlaps && !t.nullable)) {
      pending = own;
    } else if (!overlaps) {
      // The part is either empty (the run goes on past it) or starts where the run must stop.
      pending = {
        chars: union(pending.chars, t.all),
        unbounded: pending.unbounded || t.unbounded,
        ways: Math.max(pending.ways, t.ways),
      };
    } else {
      if (pending.unbounded && t.unbounded) throw new Refused(ADJACENT);
      const ways = pending.ways * t.ways;
      if (ways > MAX_AMBIGUITY) throw new Refused(MULTIPLIED);
      pending = { chars: union(pending.chars, t.all), unbounded: pending.unbounded || t.unbounded, ways };
    }
  }
}

function analyseTerm(term: Term, depth: number): Info {
  const { node, min, max } = term;
  if ((max !== Infinity && max > MAX_REPEAT) || min > MAX_REPEAT)
    throw new Refused(`repeats more than ${MAX_REPEAT} times`);
  if (node.kind === 'assert') return ZERO;
  if (node.kind === 'char') {
    const det = min === max;
    return {
      first: max === 0 ? EMPTY : node.set,
      all: node.set,
      nullable: min === 0,
      det,
      unbounded: max === Infinity,
      ways: det || max === Infinity ? 1 : max - min + 1,
      loop: det ? EMPTY : node.set,
      zeroWidth: false,
      lookLoop: false,
    };
  }
  const { body, branches } = analyseAlternatives(node.alternatives, depth + 1);
  // A lookaround is atomic: once it matched, the engine does not come back into it.
  if (node.look) return { ...ZERO, unbounded: body.unbounded, lookLoop: !body.det };
  if (max > 1 && !body.det) checkRepeat(node.alternatives, branches);
  const det = body.det && min === max;
  const ways = det
    ? 1
    : max === Infinity
      ? body.ways
      : max <= 1
        ? (min === 0 ? 1 : 0) + body.ways
        : (max - min + 1) * body.ways;
  return {
    first: body.first,
    all: body.all,
    nullable: min === 0 || body.nullable,
    det,
    unbounded: body.unbounded || max === Infinity,
    ways,
    loop: det ? EMPTY : min === max ? body.loop : body.all,
    zeroWidth: false,
    lookLoop: body.lookLoop,
  };
}

/**
 * The repeated-group rule: each branch starts with one required character `L`, the branches' `L`s are
 * disjoint, and no ambiguous part of the body can match an `L`. A repetition then ends exactly where the
 * next `L` stands, so the engine never tries another way to cut the text into repetitions.
 */
function checkRepeat(alternatives: Term[][], branches: Info[]): void {
  const leads: CharSet[] = [];
  for (const seq of alternatives) {
    const lead = flatten(seq).find((t) => t.node.kind !== 'assert' && !(t.node.kind === 'group' && t.node.look));
    const set = lead?.node.kind === 'char' && lead.min === 1 && lead.max === 1 ? lead.node.set : undefined;
    if (set === undefined) throw new Refused(NO_LEAD);
    if (leads.some((l) => !disjoint(l, set))) throw new Refused(SAME_LEAD);
    leads.push(set);
  }
  const leadSet = leads.reduce((acc, l) => union(acc, l), EMPTY);
  const loop = branches.reduce((acc, b) => union(acc, b.loop), EMPTY);
  if (!disjoint(leadSet, loop)) throw new Refused(LEAD_IN_LOOP);
}

const REPEAT = 'repeats a group that can match in more than one way (exponential backtracking): ';
const NO_LEAD = `${REPEAT}each repetition must start with one required character, as in (?:-[a-z0-9]+)*`;
const SAME_LEAD = `${REPEAT}its branches must start with different characters (write (?:a|b)c, not a|ab)`;
const LEAD_IN_LOOP = `${REPEAT}the character a repetition starts with can also be matched by a quantifier or | inside the group`;
const ADJACENT =
  'has two unbounded quantifiers not separated by a required character the first cannot match (polynomial backtracking)';
const MULTIPLIED = `has quantifiers next to each other that can match the same text in more than ${MAX_AMBIGUITY} ways`;
const LOOK_NESTED = 'has a lookaround with a quantifier inside a group (it would run again at each try)';
const LOOK_AFTER = 'has a lookaround with a quantifier after an unbounded quantifier (it would run again at each try)';
