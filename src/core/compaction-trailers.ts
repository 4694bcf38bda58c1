/**
 * The trailers a compaction writes (git's trailer format: `Key: value` lines in the last paragraph of a
 * message, https://git-scm.com/docs/git-interpret-trailers):
 * - `Docdb-Compacted-From: <sha>` on every re-created commit, naming the commit it replaces (a commit that
 *   survives several compactions carries one line per compaction, oldest first), so a reader holding a
 *   removed version finds the kept commit with the same tree;
 * - `Docdb-Compaction-Root: <sha>` on the new root: the tip whose older history the compaction cut (the
 *   history below the root ended there).
 */

export const FROM_TRAILER = 'Docdb-Compacted-From';
export const ROOT_TRAILER = 'Docdb-Compaction-Root';

/**
 * The message of a re-created commit: the original's, plus the trailer naming it (and, on the new root,
 * the tip whose history was cut).
 *
 * @example
 * compactedMessage('put a.json', 'ab12…'); // 'put a.json\n\nDocdb-Compacted-From: ab12…'
 */
export function compactedMessage(message: string, original: string, rootOf?: string): string {
  const body = message.replace(/\n+$/, '');
  const lines = body.split('\n');
  const lastParagraph = lines.slice(lines.lastIndexOf('') + 1);
  const hasTrailers = lines.includes('') && lastParagraph.every((l) => /^[A-Za-z0-9-]+: /.test(l));
  const kept = hasTrailers
    ? lines.filter((l, i) => !(i > lines.lastIndexOf('') && l.startsWith(`${ROOT_TRAILER}: `)))
    : lines;
  const add = [`${FROM_TRAILER}: ${original}`, ...(rootOf ? [`${ROOT_TRAILER}: ${rootOf}`] : [])];
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
