/**
 * The trailers a compaction writes (git's trailer format: `Key: value` lines in the last paragraph of a
 * message, https://git-scm.com/docs/git-interpret-trailers):
 * - `Docdb-Compacted-From: <sha>` on every re-created commit, naming the commit it replaces (a commit that
 *   survives several compactions carries one line per compaction, oldest first), so a reader holding a
 *   removed version finds the kept commit with the same tree;
 * - `Docdb-Compaction-Root: <sha>` on the new root: the tip whose older history the compaction cut (the
 *   history below the root ended there);
 * - `Docdb-Compaction-Date: <ISO-8601>` on the new root: when the compaction ran (the re-created commits keep
 *   their original dates, so nothing else says it). Roots written before this trailer existed have none.
 */

export const FROM_TRAILER = 'Docdb-Compacted-From';
export const ROOT_TRAILER = 'Docdb-Compaction-Root';
export const DATE_TRAILER = 'Docdb-Compaction-Date';

/** Trailers only the newest root may carry: a commit re-created by a later compaction drops them. */
const ROOT_ONLY = [ROOT_TRAILER, DATE_TRAILER].map((t) => `${t}: `);

/** What the compaction root says of the compaction that made it. */
export interface CompactionRun {
  /** The tip the compaction started from (its history below the root was cut). */
  tip: string;
  /** When it ran (ISO-8601), if the root says it. */
  date?: string;
}

/**
 * The message of a re-created commit: the original's, plus the trailer naming it (and, on the new root,
 * the tip whose history was cut and when).
 *
 * @example
 * compactedMessage('put a.json', 'ab12…'); // 'put a.json\n\nDocdb-Compacted-From: ab12…'
 * compactedMessage('put a.json', 'ab12…', { tip: 'cd34…', date: '2026-12-02T03:00:00Z' }); // + the root's two
 */
export function compactedMessage(message: string, original: string, root?: CompactionRun): string {
  const body = message.replace(/\n+$/, '');
  const lines = body.split('\n');
  const lastParagraph = lines.slice(lines.lastIndexOf('') + 1);
  const hasTrailers = lines.includes('') && lastParagraph.every((l) => /^[A-Za-z0-9-]+: /.test(l));
  const kept = hasTrailers
    ? lines.filter((l, i) => !(i > lines.lastIndexOf('') && ROOT_ONLY.some((t) => l.startsWith(t))))
    : lines;
  const add = [
    `${FROM_TRAILER}: ${original}`,
    ...(root ? [`${ROOT_TRAILER}: ${root.tip}`] : []),
    ...(root?.date ? [`${DATE_TRAILER}: ${root.date}`] : []),
  ];
  return `${kept.join('\n')}${hasTrailers ? '\n' : '\n\n'}${add.join('\n')}`;
}

/**
 * The commits a message says it replaces (every `Docdb-Compacted-From` line).
 *
 * @example
 * compactedFrom('x\n\nDocdb-Compacted-From: ab12…'); // ['ab12…']
 */
export function compactedFrom(message: string): string[] {
  return [...message.matchAll(new RegExp(`^${FROM_TRAILER}: ([0-9a-f]{40})$`, 'gm'))].map((m) => m[1] as string);
}

/**
 * For a compaction root, the tip whose older history was cut; undefined for any other commit.
 *
 * @example
 * compactionRoot('x\n\nDocdb-Compaction-Root: ab12…'); // 'ab12…'
 */
export function compactionRoot(message: string): string | undefined {
  return new RegExp(`^${ROOT_TRAILER}: ([0-9a-f]{40})$`, 'm').exec(message)?.[1];
}

/**
 * For a compaction root, when the compaction ran (`Docdb-Compaction-Date`); undefined for any other commit
 * and for roots written before the trailer existed.
 *
 * @example
 * compactionDate('x\n\nDocdb-Compaction-Root: ab12…\nDocdb-Compaction-Date: 2026-12-02T03:00:00Z'); // '2026-12-02T03:00:00Z'
 */
export function compactionDate(message: string): string | undefined {
  return new RegExp(`^${DATE_TRAILER}: (\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z)$`, 'm').exec(message)?.[1];
}
