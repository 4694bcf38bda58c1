/** Listing and history on a local repository (shared by both git stores through GitRefStore). */
import { signatureDate, type TreeEntry } from '../../core/git/objects.js';
import type { HistoryEntry, ListEntry, Person } from '../../core/refstore.js';
import type { GitRepository } from './repository.js';

const byCodeUnit = (a: ListEntry, b: ListEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Every value key under `prefix` in the commit's tree, in code-unit order. Only the subtree that
 * can hold the prefix is read (each tree once, through the cache).
 */
export async function listKeys(repo: GitRepository, commit: string, prefix: string): Promise<ListEntry[]> {
  let tree: string | undefined = (await repo.readCommit(commit)).tree;
  const slash = prefix.lastIndexOf('/');
  const dir = slash < 0 ? '' : prefix.slice(0, slash + 1);
  for (const seg of dir.split('/').slice(0, -1)) {
    const e: TreeEntry | undefined = tree ? (await repo.readTree(tree)).entries.find((x) => x.name === seg) : undefined;
    tree = e?.mode === '040000' ? e.sha : undefined;
  }
  const out: ListEntry[] = [];
  const walk = async (sha: string, path: string): Promise<void> => {
    for (const e of (await repo.readTree(sha)).entries) {
      const key = path + e.name;
      if (e.mode === '040000') {
        // Skip subtrees that cannot contain a match.
        if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(e.sha, `${key}/`);
      } else if (e.mode !== '160000' && key.startsWith(prefix)) {
        out.push({ key, blobSha: e.sha });
      }
    }
  };
  if (tree) await walk(tree, dir);
  return out.sort(byCodeUnit);
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
  const person = (s: { name: string; email: string; timestamp: number; timezone: string }): Person => ({
    name: s.name,
    email: s.email,
    date: signatureDate(s),
  });
  return Promise.all(
    shas.map(async (version) => {
      const c = await repo.readCommit(version);
      return {
        version,
        message: c.message,
        author: person(c.author),
        committer: person(c.committer),
        parents: c.parents,
      };
    }),
  );
}
