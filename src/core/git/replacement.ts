/**
 * The commit objects of a replacement history (RefStore.replaceHistory), encoded once here for every
 * store that writes git objects itself (memory, local git, IndexedDB, git over HTTP): each commit on the
 * one before it, with the given tree, message, author and committer (dates kept with their timezone).
 */
import { InvalidConfig } from '../errors.js';
import type { Person, ReplaceHistoryOptions } from '../refstore.js';
import { assertValidVersion } from '../version.js';
import { type CommitFields, encodeCommit, hashObject, isSha, parseSignatureDate, type Signature } from './objects.js';

/** One encoded commit of the chain. */
export interface ReplacementObject {
  sha: string;
  type: 'commit';
  body: Uint8Array;
  fields: CommitFields;
}

/**
 * Check a `replaceHistory` call before any I/O: versions and trees are SHAs, at least one commit, people
 * with a parseable date. `InvalidConfig` naming the field otherwise.
 *
 * @example
 * checkReplaceHistory({ from: tip, onto: null, commits: [{ tree, message, author, committer }] });
 */
export function checkReplaceHistory(o: ReplaceHistoryOptions): void {
  assertValidVersion(o.from);
  if (o.onto !== null) assertValidVersion(o.onto);
  if (!Array.isArray(o.commits) || (o.commits.length === 0 && o.onto === null)) {
    throw new InvalidConfig('commits', 'replaceHistory needs a commit to create, or `onto` to move the ref to', {
      allowed: 'an array of { tree, message, author, committer } (non-empty when onto is null)',
    });
  }
  o.commits.forEach((c, i) => {
    if (!isSha(c.tree)) {
      throw new InvalidConfig(`commits[${i}].tree`, 'tree must be a 40-character lowercase hex SHA', {
        allowed: 'a tree SHA',
      });
    }
    signature(c.author, `commits[${i}].author`);
    signature(c.committer, `commits[${i}].committer`);
  });
}

/** A person as a git signature (its ISO date with the timezone it carries). */
function signature(p: Person, field: string): Signature {
  if (!p || typeof p.name !== 'string' || typeof p.email !== 'string' || Number.isNaN(Date.parse(p.date))) {
    throw new InvalidConfig(field, `${field} must be { name, email, date } with an ISO-8601 date`, {
      allowed: '{ name, email, date }',
    });
  }
  return { name: p.name, email: p.email, ...parseSignatureDate(p.date) };
}

/**
 * The commit the ref moves to: the last created one, or `onto` when nothing is created.
 *
 * @example
 * const target = chainTip(options, created);
 */
export function chainTip(o: ReplaceHistoryOptions, created: readonly string[]): string {
  return (created[created.length - 1] ?? o.onto) as string;
}

/**
 * The encoded chain, oldest first (checked with `checkReplaceHistory` first).
 *
 * @example
 * const chain = replacementObjects({ from: tip, onto: null, commits });
 * for (const o of chain) db.put('commit', o.body);
 */
export function replacementObjects(o: ReplaceHistoryOptions): ReplacementObject[] {
  const out: ReplacementObject[] = [];
  let parent = o.onto;
  o.commits.forEach((c, i) => {
    const fields: CommitFields = {
      tree: c.tree,
      parents: parent ? [parent] : [],
      author: signature(c.author, `commits[${i}].author`),
      committer: signature(c.committer, `commits[${i}].committer`),
      message: c.message,
    };
    const body = encodeCommit(fields);
    const sha = hashObject('commit', body);
    out.push({ sha, type: 'commit', body, fields });
    parent = sha;
  });
  return out;
}
