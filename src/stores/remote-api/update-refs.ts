/**
 * `replaceHistory` on GitHub (compaction, docs/retention.md): each replacement commit with
 * `POST /git/commits` (author and committer given, so its SHA is known before the request and a lost reply
 * is resolved by one read: commit-create.ts), then ONE GraphQL `updateRefs` mutation that moves the ref
 * with `beforeOid` = the tip the compaction started from and `force: true`
 * (https://docs.github.com/graphql/reference/mutations#updaterefs — atomic, "beforeOid must match").
 * REST `PATCH /git/refs` with `force: true` has no compare: it is never used here. A host whose schema
 * has no `updateRefs` (GitHub Enterprise Server before 3.13) gets a refusal, never a blind force.
 * After the mutation the ref is read again and only what it shows decides (a reply may be lost).
 */
import { AuthMissing, Forbidden, InvalidConfig, InvalidResponse } from '../../core/errors.js';
import { chainTip, checkReplaceHistory, replacementObjects } from '../../core/git/replacement.js';
import type { ReplaceHistoryOptions, ReplaceHistoryResult } from '../../core/refstore.js';
import type { GitHubClient, OpContext } from './client.js';
import { type CommitCreateDeps, createCommitOnce } from './commit-create.js';
import { isObject } from './shapes.js';

/** The mutation docdb sends (validated against GitHub's schema in __tests__/emulator/update-refs.test.ts). */
export const UPDATE_REFS_MUTATION =
  'mutation($input: UpdateRefsInput!) { updateRefs(input: $input) { clientMutationId } }';

/**
 * The repository's node id, which `updateRefs` takes, and whether the host's schema has the mutation's
 * input type (`__type` is null on a host without it): a host that cannot compare is refused before any
 * commit is created.
 */
export const REPOSITORY_ID_QUERY =
  'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } __type(name: "UpdateRefsInput") { name } }';

/** What the store lends to the history replacement. */
export interface ReplaceHost extends CommitCreateDeps {
  ref: string;
  owner: string;
  repo: string;
  /** The GraphQL endpoint (graphql.ts `graphqlUrl`). */
  graphqlUrl: string;
  client: Pick<GitHubClient, 'send' | 'backoffMs'>;
  /** Read the ref without any cached tip (the truth after a move). */
  readRefFresh(ctx: OpContext): Promise<string | null>;
  /** Forget the cached tip and every "this commit is in the section" answer (commits left the section). */
  forgetSection(ctx: OpContext): Promise<void>;
  /** The repository id once read (it never changes). */
  memo: { repositoryId?: string };
}

/**
 * Create the commits and move the ref, as the module header says.
 *
 * @example
 * const r = await replaceOnGitHub(host, ctx, { from: tip, onto: null, commits });
 */
export async function replaceOnGitHub(
  h: ReplaceHost,
  ctx: OpContext,
  o: ReplaceHistoryOptions,
): Promise<Omit<ReplaceHistoryResult, keyof import('../../core/refstore.js').OperationMeta>> {
  checkReplaceHistory(o);
  if (ctx.token === undefined) {
    throw new AuthMissing(`${ctx.operation}: rewriting ${h.owner}/${h.repo} needs a token with contents: write`, {
      operation: ctx.operation,
    });
  }
  h.memo.repositoryId ??= await repositoryIdOf(h, ctx);
  const repositoryId = h.memo.repositoryId;
  const created: string[] = [];
  for (const c of replacementObjects(o)) {
    await o.pace?.();
    const body = {
      message: c.fields.message,
      tree: c.fields.tree,
      parents: c.fields.parents,
      author: o.commits[created.length]?.author,
      committer: o.commits[created.length]?.committer,
    };
    const made = await createCommitOnce(h, ctx, { body, sha: c.sha });
    created.push(made.sha);
    o.onCreated?.(made.sha);
  }
  const target = chainTip(o, created);
  await o.pace?.();
  // Only a refusal or a lost reply needs the ref read again: an answer without errors is the move.
  const tip = (await moveRef(h, ctx, repositoryId, o.from, target)) ? target : await h.readRefFresh(ctx);
  if (tip === target) await h.forgetSection(ctx);
  return { created, moved: tip === target, tip };
}

/**
 * `repository { id }` (one GraphQL query); InvalidConfig when the host's schema has no `updateRefs`.
 *
 * @example
 * host.memo.repositoryId ??= await repositoryIdOf(host, ctx);
 */
export async function repositoryIdOf(
  h: Pick<ReplaceHost, 'client' | 'graphqlUrl' | 'owner' | 'repo' | 'ref'>,
  ctx: OpContext,
): Promise<string> {
  const res = await h.client.send(ctx, {
    step: 'read repository id',
    method: 'POST',
    url: h.graphqlUrl,
    body: { query: REPOSITORY_ID_QUERY, variables: { owner: h.owner, name: h.repo } },
    retry: true,
  });
  const j = res.json();
  if (isObject(j) && isObject(j.data) && j.data.__type === null) throw noUpdateRefs(ctx, h.ref);
  const id = isObject(j) && isObject(j.data) && isObject(j.data.repository) ? j.data.repository.id : undefined;
  if (typeof id !== 'string') {
    throw new InvalidResponse(`${ctx.operation}: GraphQL did not give the repository id of ${h.owner}/${h.repo}`, {
      operation: ctx.operation,
      step: 'read repository id',
      errors: errorTexts(j),
    });
  }
  return id;
}

/**
 * The mutation; true when GitHub answered it without errors. A refusal for a stale `beforeOid` (or any
 * other mutation error) is not thrown: the caller reads the ref and sees it elsewhere. Thrown: a host
 * without the mutation, a token without permission.
 */
async function moveRef(
  h: ReplaceHost,
  ctx: OpContext,
  repositoryId: string,
  from: string,
  to: string,
): Promise<boolean> {
  const refUpdates = [{ name: h.ref, beforeOid: from, afterOid: to, force: true }];
  let j: unknown;
  try {
    const res = await h.client.send(ctx, {
      step: 'move ref (updateRefs)',
      method: 'POST',
      url: h.graphqlUrl,
      body: { query: UPDATE_REFS_MUTATION, variables: { input: { repositoryId, refUpdates } } },
      retry: false, // a lost reply is resolved by reading the ref, never by sending the move again
    });
    j = res.json();
  } catch (e) {
    if (e instanceof Forbidden || e instanceof AuthMissing) throw e;
    return false; // no answer: the ref read that follows tells whether the move happened
  }
  const errors = isObject(j) && Array.isArray(j.errors) ? j.errors.filter(isObject) : [];
  if (errors.some((e) => isObject(e.extensions) && e.extensions.code === 'undefinedField'))
    throw noUpdateRefs(ctx, h.ref);
  const forbidden = errors.find((e) => e.type === 'FORBIDDEN');
  if (forbidden) {
    throw new Forbidden(
      `${ctx.operation}: the token may not move ${h.ref} in ${h.owner}/${h.repo} (updateRefs: ${String(forbidden.message)}); it needs contents: write`,
      { operation: ctx.operation, step: 'move ref (updateRefs)' },
    );
  }
  return errors.length === 0 && isObject(j) && isObject(j.data) && isObject(j.data.updateRefs);
}

/** The refusal on a host whose GraphQL has no `updateRefs`. */
function noUpdateRefs(ctx: OpContext, ref: string): InvalidConfig {
  return new InvalidConfig(
    'apiUrl',
    `${ctx.operation}: this host's GraphQL API has no updateRefs mutation, the only way to move ${ref} with a compare-and-swap that allows a non-fast-forward; compaction refuses rather than force the ref blindly (github.com has it; on GitHub Enterprise Server, a version whose schema has updateRefs)`,
    { operation: ctx.operation, allowed: 'a host with GraphQL updateRefs' },
  );
}

/** The messages of a GraphQL answer's errors (for an error's data; they never carry the token). */
export function errorTexts(j: unknown): string[] {
  if (!isObject(j) || !Array.isArray(j.errors)) return [];
  return j.errors.filter(isObject).map((e) => String(e.message));
}
