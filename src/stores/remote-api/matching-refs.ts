/**
 * Listing other refs of the store's repository under a prefix (`GET /repos/{o}/{r}/git/matching-refs/{ref}`,
 * https://docs.github.com/rest/git/refs#list-matching-references): how `docdb section quarantine list` finds
 * a section's quarantine refs. A prefix match, so the caller's prefix is asked without its trailing `/` and
 * the answer filtered to refs really under it. The answer is untrusted: only well-formed entries count.
 */
import { InvalidResponse } from '../../core/errors.js';
import { isSha } from '../../core/git/objects.js';
import { assertValidRefName } from '../../core/refname.js';
import { nextLink, nextPageOnApiOrigin, type OpContext } from './client.js';
import { isObject } from './shapes.js';
import type { ReplaceHost } from './update-refs.js';

/** One ref and the commit it points at. */
export interface ListedRef {
  ref: string;
  oid: string;
}

/** Pages read at most (100 refs each). */
const MAX_PAGES = 10;

/**
 * The refs under `prefix` (a full ref prefix ending in `/`), in the order GitHub gives them.
 *
 * @example
 * await listRefsOnGitHub(host, ctx, 'refs/docdb/documents.quarantine/'); // [{ ref: '…/4711.1', oid: 'ab…' }]
 */
export async function listRefsOnGitHub(h: ReplaceHost, ctx: OpContext, prefix: string): Promise<ListedRef[]> {
  const asked = prefix.replace(/\/+$/, '');
  assertValidRefName(asked, 'prefix');
  const path = `/git/matching-refs/${asked.slice('refs/'.length).split('/').map(encodeURIComponent).join('/')}`;
  const out: ListedRef[] = [];
  let url: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) {
      // A partial list would hide quarantined runs: say so rather than answer with the first 1,000.
      throw new InvalidResponse(
        `${ctx.operation}: more than ${MAX_PAGES * 100} refs under ${asked}/; drop some (docdb section quarantine drop ID) and list again`,
        { operation: ctx.operation, prefix: asked },
      );
    }
    const res = await h.client.send(ctx, {
      step: 'list refs',
      method: 'GET',
      ...(url === undefined ? { path, query: { per_page: '100' } } : { url }),
      retry: true,
    });
    const list = res.json();
    if (!Array.isArray(list)) {
      throw new InvalidResponse(`${ctx.operation}: list refs returned an unexpected body`, {
        operation: ctx.operation,
        step: 'list refs',
      });
    }
    for (const item of list) {
      if (!isObject(item) || typeof item.ref !== 'string' || !isObject(item.object)) continue;
      const oid = item.object.sha;
      if (item.ref.startsWith(`${asked}/`) && isSha(oid)) out.push({ ref: item.ref, oid: oid.toLowerCase() });
    }
    const next = nextLink(res.headers.link);
    if (!next) break;
    url = nextPageOnApiOrigin(ctx, new URL(h.graphqlUrl).origin, next, `${ctx.operation}: list refs`);
  }
  return out;
}
