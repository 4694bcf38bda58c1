/**
 * One docdb client per (repository, ref), all counting their requests through the page's fetch and asking
 * token.ts for the token on each operation; and the section's recent commits, read once per version.
 */
import { type DocDbClient, type HistoryEntry, loadDocDbClient } from '../../browser/index.js';
import { RECENT_COMMITS } from '../context.js';
import { currentToken } from '../token.js';

/** A ref beside the section the viewer was asked to open by name (`quarantine=` or `preview=`). */
export interface SideRef {
  quarantine?: string | undefined;
  preview?: number | undefined;
}

export interface ClientPool {
  /**
   * `side.quarantine`: the section's quarantined run of that id (docs/quarantine.md); `side.preview`: pull
   * request N's review preview — each instead of the section.
   */
  clientFor(repo: string, ref: string, side?: SideRef): Promise<DocDbClient>;
  /** `refStore.commits({ limit: RECENT_COMMITS })` of a client, once per (repo, ref, version). */
  recentCommits(repo: string, ref: string, version: string, client: DocDbClient): Promise<HistoryEntry[]>;
}

/**
 * The page's clients (IndexedDB cache `docdb-viewer` when the page has IndexedDB).
 *
 * @example
 * const pool = clientPool({ apiUrl, fetch: countingFetch, indexedDB: 'indexedDB' in window });
 * const client = await pool.clientFor('octo/data', 'refs/docdb/documents');
 */
export function clientPool(options: { apiUrl: string; fetch: typeof fetch; indexedDB: boolean }): ClientPool {
  const clients = new Map<string, Promise<DocDbClient>>();
  const commits = new Map<string, Promise<HistoryEntry[]>>();
  // A failed read is not kept: the next render tries again.
  const remember = <T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> => {
    let got = map.get(key);
    if (!got) {
      got = make();
      got.catch(() => map.delete(key));
      map.set(key, got);
    }
    return got;
  };
  return {
    clientFor: (repo, ref, side = {}) =>
      remember(clients, `${repo}\n${ref}\n${side.quarantine ?? ''}\n${side.preview ?? ''}`, async () => {
        const [owner, name] = repo.split('/') as [string, string];
        const load = (store: boolean) =>
          loadDocDbClient({
            owner,
            repo: name,
            ref,
            ...(side.quarantine !== undefined ? { quarantine: side.quarantine } : {}),
            ...(side.preview !== undefined ? { preview: side.preview } : {}),
            apiUrl: options.apiUrl,
            hostCapabilities: {
              transport: { fetch: options.fetch },
              credentials: () => currentToken(),
              ...(store ? { store: { name: 'docdb-viewer' } } : {}),
            },
          });
        if (!options.indexedDB) return load(false);
        // IndexedDB can be there and still refuse to open (private windows of some browsers, a full
        // disk): the page then reads without the persistent cache rather than not at all.
        return load(true).catch(() => load(false));
      }),
    recentCommits: (repo, ref, version, client) =>
      remember(commits, `${repo}\n${ref}\n${version}`, async () =>
        client.refStore.commits ? (await client.refStore.commits({ limit: RECENT_COMMITS })).entries : [],
      ),
  };
}
