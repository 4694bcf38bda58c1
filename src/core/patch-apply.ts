/**
 * Applying a unified diff as GitHub's compare hands it over (`files[].patch`: the hunks of `git diff`, without
 * its `diff --git`/`---`/`+++` header lines) to the text it was made from. Pure and strict: every context and
 * removed line must match the text exactly, every hunk's line counts must add up, hunks must come in order —
 * anything else answers undefined, never a guess. A patch is untrusted input: whoever applies one checks the
 * result against what it must be (for a file at a commit, its git blob SHA) before using it.
 */

/** One line with its terminator (`\n`), except a last line without one. */
type Line = string;

interface Hunk {
  /** 0-based index of the first old line the hunk covers (for an empty old side: the line it inserts after, +1). */
  oldStart: number;
  oldCount: number;
  newCount: number;
  /** The hunk's body: `' '` context, `'-'` removed, `'+'` added, each with its line (terminator included). */
  body: { op: ' ' | '-' | '+'; line: Line }[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const NO_NEWLINE = '\\ No newline at end of file';

/**
 * `text` with `patch` applied, or undefined when the patch does not apply to it exactly (or is malformed).
 *
 * @example
 * applyPatch('a\nb\nc\n', '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c'); // 'a\nB\nc\n'
 * applyPatch('a\nx\nc\n', '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c'); // undefined: line 2 is not "b"
 */
export function applyPatch(text: string, patch: string): string | undefined {
  const hunks = parseHunks(patch);
  if (!hunks) return undefined;
  const old = linesOf(text);
  const out: Line[] = [];
  let at = 0;
  for (const h of hunks) {
    if (h.oldStart < at || h.oldStart + h.oldCount > old.length) return undefined;
    for (; at < h.oldStart; at++) out.push(old[at] as Line);
    for (const { op, line } of h.body) {
      if (op === '+') {
        out.push(line);
        continue;
      }
      if (old[at] !== line) return undefined;
      at++;
      if (op === ' ') out.push(line);
    }
  }
  for (; at < old.length; at++) out.push(old[at] as Line);
  return joinChecked(out);
}

/**
 * The lines of the OLD text a patch shows (its context and removed lines), by 0-based line number; undefined
 * when the patch is malformed. The lines between hunks are not in a patch: a caller that knows them some other
 * way (a file's fixed shape) can rebuild the whole old text, and must check it against its blob SHA.
 *
 * @example
 * oldLinesShown('@@ -2,2 +2,2 @@\n b\n-c\n+C'); // Map { 1 → 'b\n', 2 → 'c\n' }
 */
export function oldLinesShown(patch: string): Map<number, Line> | undefined {
  const hunks = parseHunks(patch);
  if (!hunks) return undefined;
  const out = new Map<number, Line>();
  for (const h of hunks) {
    let at = h.oldStart;
    for (const { op, line } of h.body) if (op !== '+') out.set(at++, line);
  }
  return out;
}

/**
 * The lines of `text`, each keeping its `\n` (the last one may have none: a file without a final newline).
 * Shared with the emulator's diff, so a patch it writes and the apply here split text the same way.
 *
 * @example
 * linesOf('a\nb'); // ['a\n', 'b']
 */
export function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** The lines joined; undefined when a line without `\n` would end up anywhere but last (a malformed patch). */
function joinChecked(lines: readonly Line[]): string | undefined {
  for (let i = 0; i < lines.length - 1; i++) if (!(lines[i] as Line).endsWith('\n')) return undefined;
  return lines.join('');
}

/** The patch's hunks, or undefined when it is not a well-formed sequence of hunks. */
function parseHunks(patch: string): Hunk[] | undefined {
  const rows = patch.split('\n');
  // GitHub's patch has no final newline; a patch that has one ends in an empty row, which is not a line.
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  const hunks: Hunk[] = [];
  let i = 0;
  while (i < rows.length) {
    const hunk = hunkAt(rows, i);
    if (!hunk) return undefined;
    hunks.push(hunk.hunk);
    i = hunk.next;
  }
  return hunks.length > 0 ? hunks : undefined;
}

/** The hunk whose header is `rows[i]`, and the row after it. */
function hunkAt(rows: readonly string[], i: number): { hunk: Hunk; next: number } | undefined {
  const m = HEADER.exec(rows[i] as string);
  if (!m) return undefined;
  const oldCount = m[2] === undefined ? 1 : Number(m[2]);
  const newCount = m[4] === undefined ? 1 : Number(m[4]);
  // An empty side names the line it comes after (`-3,0`: after line 3), any other its first line (1-based).
  const oldStart = oldCount === 0 ? Number(m[1]) : Number(m[1]) - 1;
  const body: Hunk['body'] = [];
  let olds = 0;
  let news = 0;
  let r = i + 1;
  while (r < rows.length && (olds < oldCount || news < newCount)) {
    const row = rows[r] as string;
    const op = row[0];
    if (op !== ' ' && op !== '-' && op !== '+') return undefined;
    const noNewline = rows[r + 1] === NO_NEWLINE;
    body.push({ op, line: noNewline ? row.slice(1) : `${row.slice(1)}\n` });
    if (op !== '+') olds++;
    if (op !== '-') news++;
    r += noNewline ? 2 : 1;
  }
  if (olds !== oldCount || news !== newCount || oldStart < 0) return undefined;
  return { hunk: { oldStart, oldCount, newCount, body }, next: r };
}
