/**
 * `docdbLoader`: an Astro content-layer loader (https://docs.astro.build/en/reference/content-loader-reference/)
 * over one type of a docdb section on GitHub. Each build costs, on the GitHub API:
 * - the first: the ref read and one bulk read of the type (a few requests whatever its size);
 * - nothing changed since the last build: ONE conditional ref read, a 304 (no rate-limit budget);
 * - some documents changed: the ref read, the compare since the kept commit, one bulk read of those documents;
 * - the kept commit is gone (compaction): as the first, and the entries no longer there are removed.
 * The entries' digests are the documents' blob SHAs, so Astro rewrites only what changed.
 * Docs: docs/loaders.md.
 */

import type { RefTip } from '../cache/git-cache.js';
import { tokenIdentity } from '../core/token-identity.js';
import { DocumentStore } from '../document/document-store.js';
import { nodeArchiveReader } from '../stores/remote-api/node-archive.js';
import { RemoteApiRefStore } from '../stores/remote-api/remote-api-refstore.js';
import { fetchTransport } from '../transport/fetch.js';
import type { DocdbAstroLoader, DocdbLoaderContext } from './context.js';
import { type Kept, META_KEY, readKept, sourceOf, writeKept } from './kept.js';
import {
  checkLoaderOptions,
  type DocdbLoaderOptions,
  type ResolvedLoaderOptions,
  resolveLoaderOptions,
} from './options.js';
import { type SyncOutcome, syncEntries } from './sync.js';

/** The loader's name in Astro's logs (the package entry point it comes from). */
export const LOADER_NAME = 'docdb/astro';

/**
 * A content-layer loader for `defineCollection`: the documents of one `namespace`/`type` of a section, one entry
 * per document (`id`: the document id; `data`: its data, validated by the collection's `schema`). Options are
 * checked here (`InvalidConfig` naming the option); the token (`$GITHUB_TOKEN`, else `$GH_TOKEN`) and the API
 * URL (`$GITHUB_API_URL`) are read from the environment when the loader runs.
 *
 * @example
 * // src/content.config.ts
 * import { defineCollection } from 'astro:content';
 * import { z } from 'astro/zod';
 * import { docdbLoader } from 'docdb/astro';
 *
 * const repos = defineCollection({
 *   loader: docdbLoader({ repo: 'octo/data', namespace: 'github', type: 'repo' }),
 *   schema: z.object({ full_name: z.string(), stars: z.number() }),
 * });
 * export const collections = { repos };
 */
export function docdbLoader(options: DocdbLoaderOptions): DocdbAstroLoader {
  checkLoaderOptions(options);
  return {
    name: LOADER_NAME,
    load: (context) => loadCollection(context, resolveLoaderOptions(options, environment())),
  };
}

/** The process environment, read when the loader runs (none outside Node). */
function environment(): Readonly<Record<string, string | undefined>> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** One load: read the tip (conditional on the kept ETag), bring the entries to it, keep the commit and ETag. */
async function loadCollection(context: DocdbLoaderContext, o: ResolvedLoaderOptions): Promise<void> {
  const requests = { count: 0 };
  const store = openStore(o, requests);
  const source = sourceOf(o);
  const kept = readKept(context.meta, source);
  const tokenId = tokenIdentity(o.token);
  // The kept tip and its ETag, as if this store had read the ref itself: its ref read is then conditional.
  if (kept?.etag) await store.cache.setRefTip(o.ref, tokenId, { sha: kept.commit, etag: kept.etag });
  const docs = new DocumentStore(store);
  const where = `${o.owner}/${o.repo} ${o.ref} ${o.namespace}/${o.type}`;
  const tip = await docs.head();
  if (tip === null) {
    context.store.clear();
    context.meta.delete(META_KEY);
    context.logger.warn(`${where}: the section does not exist; the collection is empty (${counted(requests.count)})`);
    return;
  }
  const outcome = await syncEntries(context, docs, o, kept?.commit, tip);
  writeKept(context.meta, source, keptAfter(await store.cache.getRefTip(o.ref, tokenId), tip));
  context.logger.info(`${where} at ${tip.slice(0, 7)}: ${describe(outcome)} (${counted(requests.count)})`);
}

/** The state to keep: the tip, with the ETag of the ref read that returned it. */
function keptAfter(read: RefTip | undefined, tip: string): Kept {
  return read?.etag !== undefined && read.sha === tip ? { commit: tip, etag: read.etag } : { commit: tip };
}

const counted = (n: number) => `${n} request${n === 1 ? '' : 's'}`;

function describe(o: SyncOutcome): string {
  if (o.mode === 'unchanged') return 'unchanged';
  return `${o.mode}, ${o.written} entries written, ${o.removed} removed`;
}

/** The GitHub API store of the section, every request counted (its archive downloads from codeload too). */
function openStore(o: ResolvedLoaderOptions, requests: { count: number }): RemoteApiRefStore {
  const transport = fetchTransport();
  const counted: typeof fetch = (input, init) => {
    requests.count++;
    return fetch(input, init);
  };
  return new RemoteApiRefStore({
    transport: {
      request: (req) => {
        requests.count++;
        return transport.request(req);
      },
    },
    apiUrl: o.apiUrl,
    owner: o.owner,
    repo: o.repo,
    ref: o.ref,
    ...(o.token !== undefined ? { token: o.token } : {}),
    archive: nodeArchiveReader({ fetch: counted }),
  });
}
