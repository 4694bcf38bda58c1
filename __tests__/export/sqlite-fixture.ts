/**
 * What the SQLite export tests share: an emulator with a token, sections seeded directly in its state (one commit
 * per `commitFiles`), a metered GitHub API store over it (the CLI's: archive reader on), and the sqlite3 shell —
 * a reader docdb did not write — to look into the files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DocumentStore } from '../../src/document/index.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { nodeArchiveReader } from '../../src/stores/remote-api/node-archive.js';
import { type Meter, meteredTransport, newMeter, OWNER, TOKEN } from '../remote-api/helpers.js';

export const REF = 'refs/docdb/documents';
export const SQLITE3 = '/usr/bin/sqlite3';
export const SQLITE_UTILS = '/usr/bin/sqlite-utils';
export const hasSqliteUtils = existsSync(SQLITE_UTILS);

/** A document's blob as docdb stores it (pretty JSON envelope, newline at the end). */
export const blob = (namespace: string, type: string, id: string, data: unknown) =>
  `${JSON.stringify({ data, id, namespace, type }, null, 2)}\n`;

/**
 * Commit `files` (path → content, null deletes) on the section of `owner/repo`; returns the commit. `orphan`: a
 * missing section starts with this commit as its root (else on the repository's README-only first commit).
 */
export function commitDocs(
  em: EmulatorHandle,
  repo: string,
  files: Record<string, string | null>,
  message = 'docs',
  orphan = false,
) {
  return em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files, message, orphan });
}

/**
 * A fresh store over the emulator (cold caches), counting requests and bytes. `archiveFetch` stands between the
 * archive reader and the network (e.g. to tamper with what codeload sends); `rewrite` changes an API answer's body
 * after it was counted (e.g. a compare's patches).
 */
export function meteredDocs(
  em: EmulatorHandle,
  repo: string,
  o: { archiveFetch?: typeof fetch; rewrite?: (url: string, body: Uint8Array) => Uint8Array } = {},
): { docs: DocumentStore; meter: Meter } {
  const meter = newMeter();
  const api = meteredTransport(meter);
  const rewrite = o.rewrite;
  const store = new RemoteApiRefStore({
    transport: rewrite
      ? {
          request: async (req) => {
            const res = await api.request(req);
            return { ...res, body: rewrite(req.url, res.body) };
          },
        }
      : api,
    apiUrl: em.url,
    owner: OWNER,
    repo,
    token: TOKEN,
    archive: nodeArchiveReader({ fetch: meteredFetch(meter, o.archiveFetch ?? fetch) }),
    sleep: async () => {},
  });
  return { docs: new DocumentStore(store), meter };
}

/** A fetch counted in the same meter (the archive reader makes its own two requests). */
function meteredFetch(meter: Meter, inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    const buf = new Uint8Array(await res.arrayBuffer());
    meter.requests++;
    meter.received += buf.byteLength;
    const url = new URL(String(input));
    meter.log.push({
      bytes: buf.byteLength,
      origin: url.origin,
      path: url.pathname,
      status: res.status,
      authorization: new Headers(init?.headers).has('authorization'),
    });
    const nullBody = res.status === 204 || res.status === 304 || (res.status >= 300 && res.status < 400);
    return new Response(nullBody ? null : buf, {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

/** Rows of an SQL query, as the sqlite3 shell prints them in JSON mode (none: []). */
export function sql<T = Record<string, unknown>>(file: string, query: string): T[] {
  const out = execFileSync(SQLITE3, ['-json', '-readonly', file, query], { encoding: 'utf8' });
  return out.trim() === '' ? [] : (JSON.parse(out) as T[]);
}
