/**
 * The measurements of bench/search.ts on one searchable section of the emulator: the index's size read from
 * the emulator's git state, cold searches from fresh stores (with a token and anonymously), and writes into
 * the type — each counted at the transport (requests, bytes up and down).
 */
import { performance } from 'node:perf_hooks';
import { InvalidConfig } from '../src/core/errors.js';
import { DocumentStore } from '../src/document/index.js';
import { SEARCH_ROOT } from '../src/document/search/index.js';
import type { EmulatorHandle } from '../src/emulator/types.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import type { HttpTransport } from '../src/transport/types.js';
import { type BenchQuery, SEARCH_NAMESPACE, SEARCH_TYPE, searchData, searchId } from './search-corpus.js';
import type { SearchQueryRow, SearchSize, SearchWriteRow } from './search-table.js';
import { SEARCH_TOKEN } from './search-worker.js';

const REF = 'refs/docdb/documents';
const TYPE_DIR = `${SEARCH_ROOT}${SEARCH_NAMESPACE}/${SEARCH_TYPE}/`;

interface Meter {
  requests: number;
  sent: number;
  received: number;
}

/** A DocumentStore on a fresh RemoteApiRefStore (nothing cached), counting at its transport. */
export function meteredDocs(api: string, repo: string, auth: 'token' | 'anonymous' = 'token') {
  const m: Meter = { requests: 0, sent: 0, received: 0 };
  const inner = fetchTransport({ timeoutMs: 0 });
  const transport: HttpTransport = {
    request: async (req) => {
      m.requests++;
      m.sent += req.body?.length ?? 0;
      const res = await inner.request(req);
      m.received += res.body.length;
      return res;
    },
  };
  const token = auth === 'token' ? { token: SEARCH_TOKEN } : {};
  const store = new RemoteApiRefStore({ transport, apiUrl: api, owner: 'bench', repo, ...token });
  return { m, docs: new DocumentStore(store) };
}

/** Every file of the type's search index at the section's tip: path → bytes. */
function searchFiles(em: EmulatorHandle, repo: string): Map<string, number> {
  const db = em.state.repo(`bench/${repo}`).db;
  const root = db.getCommit(db.readRef(REF) as string).tree;
  const out = new Map<string, number>();
  const walk = (tree: string, base: string) => {
    for (const e of db.getTree(tree)) {
      if (e.mode === '040000') walk(e.sha, `${base}${e.name}/`);
      else out.set(`${base}${e.name}`, db.getBlob(e.sha).length);
    }
  };
  const dir = db.lookupPath(root, TYPE_DIR.slice(0, -1));
  if (!dir) throw new Error(`bench/${repo}: no ${TYPE_DIR} at the tip (was search declared?)`);
  walk(dir.sha, TYPE_DIR);
  return out;
}

const isShard = (path: string) => path.startsWith(`${TYPE_DIR}terms/`);
/** `delta.txt` and the delta parts under `delta/`. */
const isDelta = (path: string) => path === `${TYPE_DIR}delta.txt` || path.startsWith(`${TYPE_DIR}delta/`);

/** The index's bytes, shard count and largest shard, and the bytes of its document table and id buckets. */
export function indexSizes(em: EmulatorHandle, repo: string): SearchSize['index'] {
  const files = searchFiles(em, repo);
  const shards = [...files].filter(([p]) => isShard(p)).map(([, b]) => b);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const table = [...files].filter(([p]) => p.startsWith(`${TYPE_DIR}table/`) || p.startsWith(`${TYPE_DIR}ids/`));
  return {
    bytes: sum([...files.values()]),
    files: files.size,
    shards: shards.length,
    largestShard: Math.max(...shards),
    termBytes: sum(shards),
    tableBytes: sum(table.map(([, b]) => b)),
  };
}

/** One cold search of `q` (the type, or every type of the namespace when `everyType`). */
export async function measureQuery(
  api: string,
  repo: string,
  q: BenchQuery & { kind: string },
  auth: 'token' | 'anonymous',
  everyType = false,
): Promise<SearchQueryRow> {
  const { m, docs } = meteredDocs(api, repo, auth);
  const t0 = performance.now();
  const r = await docs.search(q.text, { namespace: SEARCH_NAMESPACE, ...(everyType ? {} : { type: SEARCH_TYPE }) });
  const ms = Math.round(performance.now() - t0);
  if (r.requests !== m.requests)
    throw new Error(`search said ${r.requests} requests, the transport counted ${m.requests}`);
  return { ...q, auth, requests: m.requests, received: m.received, total: r.total, hits: r.hits.length, ms };
}

/**
 * `count` documents spread evenly over the type's `n`, updated to new words (`generation`) in one commit, through a fresh store with a token: what it cost and which shards it rewrote.
 */
export async function measureWrite(
  em: EmulatorHandle,
  repo: string,
  n: number,
  count: number,
  generation: number,
): Promise<SearchWriteRow> {
  const step = Math.floor(n / count);
  const picked = Array.from({ length: count }, (_, k) => k * step + (generation % step));
  const docs = picked.map((i) => ({
    namespace: SEARCH_NAMESPACE,
    type: SEARCH_TYPE,
    id: searchId(i),
    data: searchData(i, generation),
  }));
  const { m, docs: store } = meteredDocs(em.url, repo);
  const shardsBefore = indexSizes(em, repo).shards;
  try {
    const r = await store.putMany(docs);
    const written = r.written.filter((k) => k.startsWith(TYPE_DIR));
    const after = searchFiles(em, repo);
    return {
      documents: count,
      requests: m.requests,
      sent: m.sent,
      shardsRewritten: written.filter(isShard).length,
      shards: indexSizes(em, repo).shards,
      searchFiles: written.length,
      deltaFiles: written.filter(isDelta).length,
      deltaBytes: written.filter(isDelta).reduce((n, k) => n + (after.get(k) ?? 0), 0),
    };
  } catch (e) {
    // A write the search refuses (e.g. the shard bound) is a result to report, not a crash of the bench.
    if (!(e instanceof InvalidConfig)) throw e;
    const refused = { refused: e.message, requests: m.requests, sent: m.sent };
    return { documents: count, ...refused, shardsRewritten: 0, shards: shardsBefore, searchFiles: 0 };
  }
}
