/** Listing and history on a local repository (shared by both git stores through GitRefStore). */
import { historyEntry, listTreeKeys } from '../../core/git/tree-walk.js';
import type { HistoryEntry, ListEntry } from '../../core/refstore.js';
import type { GitRepository } from './repository.js';

/**
 * Every value key under `prefix` in the commit's tree, in code-unit order. Only the subtree that
 * can hold the prefix is read (each tree once, through the cache).
 */
export async function listKeys(repo: GitRepository, commit: string, prefix: string): Promise<ListEntry[]> {
  const root = (await repo.readCommit(commit)).tree;
  return listTreeKeys(root, prefix, async (sha) => (await repo.readTree(sha)).entries);
}

/**
 * Commits on the first-parent chain from `tip` whose value at `key` differs from their first
 * parent's — `git log --first-parent -- <key>`, keeping only commits whose raw diff names the key
 * itself (not just something below it, when the key was once a directory) — newest first.
 */
export async function keyHistory(
  repo: GitRepository,
  tip: string,
  key: string,
  limit: number,
): Promise<HistoryEntry[]> {
  const { stdout } = await repo.run([
    'log',
    '--first-parent',
    '--diff-merges=first-parent',
    '--no-renames',
    '--root',
    '--raw',
    '-z',
    '--no-show-signature',
    '--format=%x01%H',
    tip,
    '--',
    key,
  ]);
  const shas: string[] = [];
  for (const chunk of stdout.toString('utf8').split('\x01')) {
    if (shas.length >= limit) break;
    if (chunk.length < 40) continue;
    // `<sha>\0\n:<modes> <shas> <status>\0<path>\0:…`
    const tokens = chunk.slice(41).split('\0');
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (tokens[i]!.replace(/^\n/, '').startsWith(':') && tokens[i + 1] === key) {
        shas.push(chunk.slice(0, 40));
        break;
      }
    }
  }
  return Promise.all(shas.map(async (version) => historyEntry(version, await repo.readCommit(version))));
}
