/**
 * The `patch` of a file in GitHub's compare answer (`files[].patch`): the hunks `git diff` prints — a Myers line
 * diff, 3 lines of context, hunks whose context would touch merged into one, a count of 1 left out of the header
 * (`@@ -5 +5 @@`), `\ No newline at end of file` after a last line without one, and after the header git's
 * default function context (the nearest line above the hunk that starts with a letter, `_` or `$`). No
 * `diff --git`/`---`/`+++` lines, no final newline. GitHub leaves the patch out for binary files and large diffs;
 * so does this (NUL bytes; more than {@link MAX_DIFF_LINES} lines, or an edit longer than {@link MAX_EDIT}).
 */

import { linesOf } from '../core/patch-apply.js';

/** Lines (old and new together) past which no patch is given. */
export const MAX_DIFF_LINES = 20_000;
/** Changed lines past which no patch is given (bounds the diff's work: Myers is O((N+M)·D)). */
export const MAX_EDIT = 2_000;
const CONTEXT = 3;

type Op = { op: ' ' | '-' | '+'; line: string };

/**
 * The patch from `before` to `after` (undefined: none, as GitHub for binary or large files; absent side: empty).
 *
 * @example
 * unifiedDiff(utf8('a\nb\nc\n'), utf8('a\nB\nc\n')); // '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c'
 */
export function unifiedDiff(before: Uint8Array | undefined, after: Uint8Array | undefined): string | undefined {
  if (before?.includes(0) || after?.includes(0)) return undefined;
  const a = linesOf(textOf(before));
  const b = linesOf(textOf(after));
  if (a.length + b.length > MAX_DIFF_LINES) return undefined;
  const ops = diffLines(a, b);
  return ops && hunks(ops, a);
}

const textOf = (bytes: Uint8Array | undefined) => (bytes ? new TextDecoder().decode(bytes) : '');

/** Myers' greedy diff (the common head and tail taken first); undefined past {@link MAX_EDIT}. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] | undefined {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const mid = middle(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  if (!mid) return undefined;
  const same = (l: string): Op => ({ op: ' ', line: l });
  return [...a.slice(0, head).map(same), ...mid, ...a.slice(a.length - tail).map(same)];
}

/** The edit script of `a` → `b` by Myers' O((N+M)·D) algorithm, deletions before insertions as git prints them. */
function middle(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    if (d > MAX_EDIT) return undefined;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d);
    }
  }
  return [];
}

/** Walk the saved frontiers back from the end: the script, in order. */
function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], offset: number, d0: number): Op[] {
  const out: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = d0; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[offset + prevK] as number;
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; y--) out.push({ op: ' ', line: a[--x] as string });
    if (down) out.push({ op: '+', line: b[--y] as string });
    else out.push({ op: '-', line: a[--x] as string });
  }
  while (x > 0) out.push({ op: ' ', line: a[--x] as string });
  return reorder(out.reverse());
}

/** Within each run of changes, the removed lines first, then the added ones (git's output order). */
function reorder(ops: Op[]): Op[] {
  const out: Op[] = [];
  let removed: Op[] = [];
  let added: Op[] = [];
  const flush = () => {
    for (const o of removed) out.push(o);
    for (const o of added) out.push(o);
    removed = [];
    added = [];
  };
  for (const o of ops) {
    if (o.op === '-') removed.push(o);
    else if (o.op === '+') added.push(o);
    else {
      flush();
      out.push(o);
    }
  }
  flush();
  return out;
}

/** The script as git's hunks (see the module comment); `a`: the old lines, for the function context. */
function hunks(ops: readonly Op[], a: readonly string[]): string | undefined {
  const changes: number[] = [];
  ops.forEach((o, i) => {
    if (o.op !== ' ') changes.push(i);
  });
  if (changes.length === 0) return undefined;
  const out: string[] = [];
  let i = 0;
  while (i < changes.length) {
    let last = i;
    while (last + 1 < changes.length && (changes[last + 1] as number) - (changes[last] as number) - 1 <= 2 * CONTEXT) {
      last++;
    }
    const from = Math.max(0, (changes[i] as number) - CONTEXT);
    const to = Math.min(ops.length, (changes[last] as number) + CONTEXT + 1);
    out.push(hunk(ops, from, to, a));
    i = last + 1;
  }
  return out.join('\n');
}

/** One hunk: the ops `from`..`to`, its header counted from the lines before it. */
function hunk(ops: readonly Op[], from: number, to: number, a: readonly string[]): string {
  let oldBefore = 0;
  let newBefore = 0;
  for (let i = 0; i < from; i++) {
    if ((ops[i] as Op).op !== '+') oldBefore++;
    if ((ops[i] as Op).op !== '-') newBefore++;
  }
  const body = ops.slice(from, to);
  const oldCount = body.filter((o) => o.op !== '+').length;
  const newCount = body.filter((o) => o.op !== '-').length;
  const range = (before: number, count: number) =>
    count === 0 ? `${before},0` : count === 1 ? `${before + 1}` : `${before + 1},${count}`;
  const func = functionContext(a, oldBefore);
  const rows = [`@@ -${range(oldBefore, oldCount)} +${range(newBefore, newCount)} @@${func ? ` ${func}` : ''}`];
  for (const o of body) {
    const bare = o.line.endsWith('\n') ? o.line.slice(0, -1) : o.line;
    rows.push(`${o.op}${bare}`);
    if (!o.line.endsWith('\n')) rows.push('\\ No newline at end of file');
  }
  return rows.join('\n');
}

/**
 * git's default function context: the nearest old line above the hunk's first that starts with a letter, `_` or
 * `$`, without its trailing whitespace, at most 80 bytes (xdiff's `def_ff`); empty when none.
 */
function functionContext(a: readonly string[], firstOld: number): string {
  for (let i = firstOld - 1; i >= 0; i--) {
    const line = a[i] as string;
    if (!/^[A-Za-z_$]/.test(line)) continue;
    const bytes = new TextEncoder().encode(line.replace(/\n$/, ''));
    return new TextDecoder().decode(bytes.subarray(0, 80)).replace(/\s+$/, '');
  }
  return '';
}
