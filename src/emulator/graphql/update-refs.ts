/**
 * The `updateRefs` mutation (https://docs.github.com/graphql/reference/mutations#updaterefs, in GitHub's
 * public schema since 2024-04): several refs of one repository moved in ONE step. GitHub documents that
 * the updates are atomic, that `beforeOid` must match for anything to move, that the all-zero OID as
 * `beforeOid` requires the ref to be absent and as `afterOid` deletes it, and that `force` allows a
 * non-fast-forward update. GitHub does not document its error texts for this mutation: the emulator
 * answers as its other mutations do (a top-level error with a `type`, `data.updateRefs: null`), using
 * `STALE_DATA` for a `beforeOid` that no longer matches (the type `createCommitOnBranch` uses for its
 * `expectedHeadOid`) and `UNPROCESSABLE` for an update git would refuse. A client must read the ref
 * again to know where it is, never parse the message.
 */
import { isSha } from '../../core/git/objects.js';
import { assertValidRefName } from '../../core/refname.js';
import type { RepoRecord, TokenRecord } from '../model.js';
import type { RouteState } from '../route-context.js';
import { nodeId } from '../shapes/common.js';
import { mayWrite } from '../state/tokens.js';
import { TypedGraphqlError } from './resolvers.js';

/** The all-zero object id: "absent" as `beforeOid`, "delete" as `afterOid`. */
export const ZERO_OID = '0'.repeat(40);

interface RefUpdateInput {
  name: string;
  afterOid: string;
  beforeOid?: string | null;
  force?: boolean | null;
}

export interface UpdateRefsArgs {
  input: { repositoryId: string; refUpdates: RefUpdateInput[]; clientMutationId?: string | null };
}

/** What the mutation sees of the request. */
export interface MutationView {
  state: RouteState;
  token: TokenRecord | undefined;
}

/**
 * Resolve `updateRefs`: check every update against the repository as it is, then apply them all (one
 * synchronous step: no other request can interleave), or none.
 *
 * @example
 * updateRefs(view, { input: { repositoryId, refUpdates: [{ name: 'refs/docdb/x', afterOid, beforeOid, force: true }] } });
 */
export function updateRefs(view: MutationView, args: UpdateRefsArgs): { clientMutationId: string | null } {
  const { input } = args;
  const repo = repositoryByNodeId(view, input.repositoryId);
  if (view.state.accessOf(view.token, repo) !== 'write' || (view.token && !mayWrite(view.token, ['contents']))) {
    throw new TypedGraphqlError(
      'FORBIDDEN',
      `Resource not accessible by integration: the token cannot push to ${repo.fullName} (needs contents: write)`,
    );
  }
  if (input.refUpdates.length === 0) throw new TypedGraphqlError('UNPROCESSABLE', 'refUpdates must not be empty.');
  const names = new Set<string>();
  const planned = input.refUpdates.map((u) => {
    if (names.has(u.name)) throw new TypedGraphqlError('UNPROCESSABLE', `${u.name} is updated twice.`);
    names.add(u.name);
    return checkUpdate(repo, u);
  });
  for (const p of planned) repo.db.compareAndSwapRef(p.name, p.current, p.next);
  view.state.touch(repo);
  return { clientMutationId: input.clientMutationId ?? null };
}

/** The repository whose node id this is, when the token can see it (NOT_FOUND otherwise, as GitHub). */
function repositoryByNodeId(view: MutationView, id: string): RepoRecord {
  const repo = view.state.listRepos().find((r) => nodeId('Repository', r.id) === id);
  if (!repo || view.state.accessOf(view.token, repo) === 'none') {
    throw new TypedGraphqlError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'`);
  }
  return repo;
}

/** One update checked against the ref's current value: what to swap, or the error that stops them all. */
function checkUpdate(
  repo: RepoRecord,
  u: RefUpdateInput,
): { name: string; current: string | null; next: string | null } {
  const fail = (why: string) => new TypedGraphqlError('UNPROCESSABLE', `Could not update ${u.name}: ${why}`);
  try {
    assertValidRefName(u.name);
  } catch {
    throw fail('not a valid fully qualified ref name');
  }
  const db = repo.db;
  const current = db.readRef(u.name) ?? null;
  const after = u.afterOid.toLowerCase();
  const next = after === ZERO_OID ? null : after;
  if (u.beforeOid !== undefined && u.beforeOid !== null) {
    const before = u.beforeOid.toLowerCase();
    const expected = before === ZERO_OID ? null : before;
    if (expected !== current) {
      throw new TypedGraphqlError(
        'STALE_DATA',
        `Could not update ${u.name}: expected it to ${expected ? `point to ${expected}` : 'be absent'}, but it ${current ? `points to ${current}` : 'does not exist'}.`,
      );
    }
  }
  if (next !== null && (!isSha(next) || db.typeOf(next) !== 'commit')) throw fail(`${u.afterOid} is not a commit`);
  if (next !== null && current !== null && u.force !== true && !db.isAncestor(current, next)) {
    throw fail('the update is not a fast forward (set force: true to allow it)');
  }
  if (next === null && current === null) throw fail('the ref does not exist');
  return { name: u.name, current, next };
}
