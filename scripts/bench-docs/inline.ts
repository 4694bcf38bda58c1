/**
 * Figures that sit inside a sentence (`<!-- bench:NAME -->4<!-- /bench -->`): one number or a short clause,
 * each read from one results file.
 */
import { compactionSummary } from '../../bench/compaction-table.js';
import { bytes, day, duration, int, ms } from './format.js';
import { bench, extra, gitHttpRow, peerRow, type Results } from './results.js';

type Figure = (r: Results) => string;

/** The GraphQL first run of the sources bench over `n` repositories. */
const gql = (n: number) => `sources ${n} repos: GraphQL (first run)`;
/** GitRefStore's results of bench/stores.ts at 10,000 documents. */
const gitStore = (r: Results, what: string) => bench(r, `GitRefStore: ${what}`).perOpMs;

/** Targets of docs/git-stores.md, met or not by the latest GitRefStore results. */
const TARGETS = { warmGetMs: 2, batchMs: 2000 };

const met = (value: number, target: number) => (value <= target ? 'met' : 'missed');

/** Inline figures by marker name. */
export const inlineFigures: Record<string, Figure> = {
  /** Node version of the latest `npm run bench`. */
  'bench-node': (r) => r.latest.node,
  'sources-latency': (r) => `${extra(r, gql(10), 'latencyMs')} ms`,
  'sources-200-graphql': (r) => int(extra(r, gql(200), 'requests')),
  'sources-1000-graphql': (r) => int(extra(r, gql(1000), 'requests')),
  /** "5 REST requests for the section's tip and commit, 2 GraphQL queries": the 200-repository first run. */
  'sources-200-graphql-parts': (r) => {
    const rest = extra(r, gql(200), 'restBudget');
    const queries = extra(r, gql(200), 'requests') - rest - extra(r, gql(200), 'notModified');
    return `${rest} REST requests for the section's tip and commit, ${queries} GraphQL queries`;
  },
  /** GraphQL points per 100 repositories, from the 1,000-repository run. */
  'sources-points-per-100': (r) => String(extra(r, gql(1000), 'graphqlPoints') / 10),
  'sources-200-rest-304': (r) => int(extra(r, 'sources 200 repos: REST conditional re-run (304s)', 'notModified')),
  'remote-warm-get': (r) => String(extra(r, 'remote warm get, unchanged tip', 'requestsPerOp')),
  /** A cold get's requests, the same at every size the read bench measures. */
  'reads-cold-get-requests': (r) => {
    const counts = new Set(
      r.reads.rows.filter((x) => x.read === 'cold get' && x.strategy === 'docdb').map((x) => x.requests),
    );
    if (counts.size !== 1) throw new Error(`cold get costs ${[...counts].join(' or ')} requests depending on size`);
    return String([...counts][0]);
  },
  /** Issue 38: documents/second the schema validator checks (10,000 of ~1.2 KB, bench/schema-validate.ts). */
  'schema-validate-per-second': (r) =>
    int(extra(r, 'schema validate 10000 documents of ~1.2 KB (10-property schema)', 'docsPerSecond')),
  'schema-validator-gzip': (r) =>
    bytes(extra(r, 'schema validator browser size (@cfworker/json-schema + src/document/schema)', 'gzipBytes')),
  /** A first write's client CPU with a schema (and with schema + expectations) over the plain write. */
  'guarded-write-schema-ratio': (r) =>
    `${extra(r, 'first write of 10000 documents of ~1.2 KB, client CPU: schema', 'ratioToPlain').toFixed(2)}×`,
  'guarded-write-expect-ratio': (r) =>
    `${extra(r, 'first write of 10000 documents of ~1.2 KB, client CPU: schema+expect', 'ratioToPlain').toFixed(2)}×`,
  'bundle-gzip': (r) => bytes(extra(r, 'browser bundle (docdb.bundle.js)', 'gzipBytes')),
  'viewer-weight': (r) => `${(r.viewer.pageWeight.gzipBytes / 1024).toFixed(1)} KB`,
  'git-http-bundle-gzip': (r) => bytes(extra(r, 'browser bundle (git-http.bundle.js)', 'gzipBytes')),
  'bundle-budget': (r) => `${extra(r, 'browser bundle (docdb.bundle.js)', 'budgetGzipBytes') / 1024} KB`,
  /** Issue 40: the entry with the chunks it imports statically, and the entry with every chunk. */
  'bundle-initial-gzip': (r) => bytes(extra(r, 'browser bundle (docdb.bundle.js)', 'initialGzipBytes')),
  'bundle-initial-budget': (r) => `${extra(r, 'browser bundle (docdb.bundle.js)', 'initialBudgetGzipBytes') / 1024} KB`,
  /** Files a page downloads before its first call (the entry and its static chunks), and chunks in all. */
  'bundle-initial-files': (r) => String(extra(r, 'browser bundle (docdb.bundle.js)', 'initialFiles')),
  'bundle-chunks': (r) => String(extra(r, 'browser bundle (docdb.bundle.js)', 'chunks')),
  'bundle-total-gzip': (r) => bytes(extra(r, 'browser bundle (docdb.bundle.js)', 'totalGzipBytes')),
  'bundle-total-budget': (r) => `${extra(r, 'browser bundle (docdb.bundle.js)', 'totalBudgetGzipBytes') / 1024} KB`,
  'git-process-start': (r) => ms(bench(r, 'git process start (git --version)').perOpMs),
  'gitrefstore-warm-get': (r) => ms(gitStore(r, 'warm get (10000-doc section)')),
  'gitrefstore-put': (r) => ms(gitStore(r, 'put 1 doc (10000-doc section)')),
  /** "GitRefStore warm get ≤ 2 ms (met: 0.35 ms) and a 10,000-document batch ≤ 2 s (met: 1.6 s" */
  'gitrefstore-targets': (r) => {
    const get = gitStore(r, 'warm get (10000-doc section)');
    const batch = gitStore(r, 'putMany 10000 docs (one commit)');
    return (
      `GitRefStore warm get ≤ ${TARGETS.warmGetMs} ms (${met(get, TARGETS.warmGetMs)}: ${ms(get)}) and a ` +
      `10,000-document batch ≤ ${TARGETS.batchMs / 1000} s (${met(batch, TARGETS.batchMs)}: ${duration(batch)})`
    );
  },
  /** Loose objects through temporary files and hash-object, against one pack. */
  'git-loose-vs-pack': (r) => {
    const files = bench(r, 'git objects: 10000 blobs written as temporary files').perOpMs;
    const hash = bench(r, 'git objects: 10000 blobs through hash-object -w --stdin-paths (loose)').perOpMs;
    const pack = bench(r, 'git objects: 10000 blobs as one pack (index-pack --stdin --strict)').perOpMs;
    return (
      `${duration(files + hash)} (${duration(files)} to write temporary files, ${duration(hash)} for ` +
      `\`hash-object -w --stdin-paths\`); one pack costs ${duration(pack)} in \`git index-pack\``
    );
  },
  'retry-requests': (r) => String(r.contention.library.maxRequestsPerRetry),
  /** "8,760 → 720 in 730 requests (budget 730), 721 content-creating, 0 secondary-limit answers, 1 h 2 min …" */
  'compaction-summary': (r) => compactionSummary(r.compaction),
  /** "16 writers × 50 puts: 800/800 land, 169 retries, every one 4 requests" */
  'contention-library': (r) => {
    const c = r.contention.library;
    const each =
      c.meanRequestsPerRetry === c.maxRequestsPerRetry
        ? `every one ${c.maxRequestsPerRetry} requests`
        : `at most ${c.maxRequestsPerRetry} requests each`;
    return `${c.writers} writers × ${c.putsEach} puts: ${int(c.landed)}/${int(c.of)} land, ${int(c.totalRetries)} retries, ${each}`;
  },
  /** "8/8 concurrent Action runs succeed" */
  'contention-action': (r) => `${r.contention.action.succeeded}/${r.contention.action.runs}`,
  'scaling-truncated-rerun': (r) =>
    String(peerRow(r.scaling.rows, 'scaling.json', 'docdb', 100_000, 'no change').requests),
  /** What a cold no-change re-run downloads per document (ref, commit and the recursive listing). */
  'listing-bytes': (r) => {
    const row = peerRow(r.scaling.rows, 'scaling.json', 'docdb', 10_000, 'no change');
    return `a cold no-change re-run of 10,000 documents downloads ${bytes(row.bytesReceived)}, ≈ ${Math.round(row.bytesReceived / 10_000)} bytes per document`;
  },
  'peers-date': (r) => day(r.peers.date),
  /** "≈ 340 bytes up, ≈ 70 down": GitHttpRefStore's warm get at 10,000 documents. */
  'git-http-warm-bytes': (r) => {
    const x = gitHttpRow(r, 'GitHttpRefStore', 10_000, 'warm get (tip unchanged)');
    return `≈ ${x.up} bytes up, ≈ ${x.down} down`;
  },
  'git-http-change-bytes': (r) =>
    `≈ ${gitHttpRow(r, 'GitHttpRefStore', 10_000, 'get after 1 doc changed elsewhere').down} bytes`,
  /** Cold-get wall time per document of GitHttpRefStore (pack parsing dominates), over the sizes measured. */
  'git-http-parse-per-doc': (r) => {
    const per = r.gitHttp.rows
      .filter((x) => x.store === 'GitHttpRefStore' && x.op === 'cold get (new store)')
      .map((x) => x.ms / x.n);
    if (per.length === 0) throw new Error('bench/results/git-http.json has no GitHttpRefStore cold get');
    const [lo, hi] = [Math.min(...per), Math.max(...per)];
    return lo.toFixed(2) === hi.toFixed(2) ? `${lo.toFixed(2)} ms` : `${lo.toFixed(2)}–${hi.toFixed(2)} ms`;
  },
  'git-http-cold-10000': (r) => duration(gitHttpRow(r, 'GitHttpRefStore', 10_000, 'cold get (new store)').ms),
  'git-http-history-10000': (r) =>
    duration(gitHttpRow(r, 'GitHttpRefStore', 10_000, 'history of a doc (10 commits, new store)').ms),
  /** Bytes per document of docdb's first write at N = 10,000 (its inline content). */
  'peers-doc-size': (r) => {
    const row = peerRow(r.peers.rows, 'peers.json', 'docdb', 10_000, 'first');
    return bytes(Math.round(row.bytesSent / row.n));
  },
  'peers-small-rss': (r) => `${Math.round(peerRow(r.peers.rows, 'peers.json', 'docdb', 1, 'first').peakRssMiB)} MiB`,
};
