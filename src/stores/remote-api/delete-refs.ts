/**
 * Deleting other refs of the store's repository, each only while it still points at a given commit, in
 * ONE GraphQL `updateRefs` mutation (https://docs.github.com/graphql/reference/mutations#updaterefs:
 * atomic, "beforeOid must match", the zero OID as `afterOid` deletes): how the shard merge removes every
 * shard ref it folded with one content-creating request instead of one `DELETE /git/refs` per ref (GitHub's
 * secondary limits count each), and never deletes a shard ref that moved after the merge read it (its new
 * commit was not folded). A host without the mutation gets a refusal, never an unchecked delete.
 */
import { Forbidden, InvalidConfig, PreconditionFailed } from '../../core/errors.js';
import type { RefDeletion } from './call-checks.js';
import type { OpContext } from './client.js';
import { isObject } from './shapes.js';
import { type ReplaceHost, repositoryIdOf, UPDATE_REFS_MUTATION } from './update-refs.js';
import { assertCanWrite } from './write-host.js';

/** The all-zero object id: as `afterOid`, delete the ref. */
const ZERO_OID = '0'.repeat(40);

export { checkDeletions, type RefDeletion } from './call-checks.js';

/**
 * Delete `refs` in one mutation, as the module header says; PreconditionFailed naming them (nothing
 * deleted) when one moved or is gone.
 *
 * @example
 * await deleteRefsOnGitHub(host, ctx, [{ ref: 'refs/docdb/inv.shards/1', oid: tip1 }]);
 */
export async function deleteRefsOnGitHub(h: ReplaceHost, ctx: OpContext, refs: readonly RefDeletion[]): Promise<void> {
  if (refs.length === 0) return;
  assertCanWrite(ctx, `${h.owner}/${h.repo}`);
  try {
    h.memo.repositoryId ??= await repositoryIdOf(h, ctx);
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    throw new InvalidConfig(
      'apiUrl',
      `${ctx.operation}: this host's GraphQL API has no updateRefs mutation, the only way to delete ${refs.map((r) => r.ref).join(', ')} each only while it points at the commit that was merged; delete them by hand once you checked them (gh api -X DELETE repos/${h.owner}/${h.repo}/git/refs/<ref without refs/>)`,
      { operation: ctx.operation, allowed: 'a host with GraphQL updateRefs' },
    );
  }
  const refUpdates = refs.map((r) => ({ name: r.ref, beforeOid: r.oid, afterOid: ZERO_OID, force: true }));
  const res = await h.client.send(ctx, {
    step: 'delete refs (updateRefs)',
    method: 'POST',
    url: h.graphqlUrl,
    body: { query: UPDATE_REFS_MUTATION, variables: { input: { repositoryId: h.memo.repositoryId, refUpdates } } },
    retry: false, // a mutation is never sent twice blindly: a lost reply leaves the refs to be read
  });
  const j = res.json();
  const errors = isObject(j) && Array.isArray(j.errors) ? j.errors.filter(isObject) : [];
  if (errors.length === 0 && isObject(j) && isObject(j.data) && isObject(j.data.updateRefs)) return;
  const names = refs.map((r) => r.ref);
  if (errors.some((e) => e.type === 'FORBIDDEN')) {
    throw new Forbidden(
      `${ctx.operation}: the token may not delete ${names.join(', ')} in ${h.owner}/${h.repo} (updateRefs: FORBIDDEN); it needs contents: write`,
      { operation: ctx.operation, step: 'delete refs (updateRefs)' },
    );
  }
  const why = errors.map((e) => String(e.message)).join('; ') || 'no updateRefs in the answer';
  const e = new PreconditionFailed(names[0] as string, refs[0]?.oid ?? null, null, null);
  e.message = `${ctx.operation}: ${names.join(', ')} not deleted (updateRefs refused them all: ${why}). A ref that moved after it was read holds a commit that was not merged: run the merge again`;
  Object.assign(e.data, { operation: ctx.operation, reason: 'refs-moved', refs: names, errors: why });
  throw e;
}
