/**
 * "Did you mean …?" for a mistyped command, subcommand or flag, as git and gh suggest: the closest
 * known name by edit distance (insertions, deletions, substitutions and swaps of two neighbours, each 1),
 * when it is close enough to be a typo rather than another word.
 */

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known name closest to `word`, or undefined when none is within a typo's reach (a third of the
 * word's length, at least 1, at most 3) — a prefix of a known name also counts (`--name` → `--namespace`).
 *
 * @example
 * closest('hsitory', ['get', 'history', 'list']); // 'history'
 * closest('frobnicate', ['get', 'history']);      // undefined
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const reach = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = word.length >= 3 && name.startsWith(word) ? 1 : editDistance(word, name);
    if (d <= reach && (best === undefined || d < best.d)) best = { name, d };
  }
  return best?.name;
}

/**
 * `; did you mean "x"?` or '' when nothing is close.
 *
 * @example
 * `unknown command "hsitory"${didYouMean('hsitory', ['history'])}`; // 'unknown command "hsitory"; did you mean "history"?'
 */
export function didYouMean(word: string, known: readonly string[], show: (name: string) => string = (n) => `"${n}"`) {
  const name = closest(word, known);
  return name === undefined ? '' : `; did you mean ${show(name)}?`;
}
