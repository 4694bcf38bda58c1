/**
 * One run of one write strategy, in its own process (so its peak RSS is its own), against the emulator
 * the parent (bench/peers.ts) started. Prints one JSON line: requests, write requests, bytes sent and
 * received, wall time, peak RSS. Usage (internal):
 *   tsx bench/peers-worker.ts <strategy> <apiUrl> <repo> <n> <salt> <changed>
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { toBase64 } from '../src/core/bytes.js';
import { blobSha } from '../src/core/git/objects.js';
import { encodeEnvelope } from '../src/document/envelope.js';
import { DocumentStore } from '../src/document/index.js';
import { RemoteApiRefStore } from '../src/stores/remote-api/index.js';
import { fetchTransport } from '../src/transport/index.js';
import { meteredFetch } from './metered-fetch.js';

export const PEERS_TOKEN = 'ghp_bench_peers_token_0123456789abcdef';
const OWNER = 'bench';

/** The N documents of a run: `changed` of them carry `salt`, the rest the base content (≈1.2 KB each). */
export function peerDocs(n: number, salt: string, changed: number) {
  return Array.from({ length: n }, (_, i) => ({
    namespace: 'bench',
    type: 'item',
    id: `group-${i % 50}/item-${i}`,
    data: { i, salt: i < changed ? salt : 'base', text: 'x'.repeat(1100) },
  }));
}

const meter = { requests: 0, writes: 0, sent: 0, received: 0 };

const countingFetch = meteredFetch(meter);

const H = (method: string) => ({
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
  'user-agent': 'docdb-bench',
  authorization: `Bearer ${PEERS_TOKEN}`,
  ...(method !== 'GET' ? { 'content-type': 'application/json' } : {}),
});

// biome-ignore lint/suspicious/noExplicitAny: GitHub's JSON replies, read field by field in a benchmark
async function call(api: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await countingFetch(`${api}${path}`, {
    method,
    headers: H(method),
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = res.status === 304 || res.status === 204 ? '' : await res.text();
  if (res.status >= 400 && res.status !== 404)
    throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const pathOf = (d: { id: string }) => `bench/item/${d.id}.json`;

type Doc = ReturnType<typeof peerDocs>[number];

/** docdb: one batch commit through the store (a fresh, cold instance, as one Action run). */
async function docdb(api: string, repo: string, docs: Doc[]) {
  const store = new RemoteApiRefStore({
    transport: fetchTransport({ fetch: countingFetch }),
    apiUrl: api,
    owner: OWNER,
    repo,
    token: PEERS_TOKEN,
  });
  await new DocumentStore(store).putMany(docs);
}

/** The seed's per-document strategy: blob → tree → commit → ref update for every document (no comparison). */
async function perDocument(api: string, repo: string, docs: Doc[]) {
  const base = `/repos/${OWNER}/${repo}`;
  let tip = (await call(api, 'GET', `${base}/git/ref/heads/main`)).json.object.sha as string;
  for (const d of docs) {
    const content = toBase64(encodeEnvelope(d));
    const blob = (await call(api, 'POST', `${base}/git/blobs`, { content, encoding: 'base64' })).json.sha;
    const tree = (
      await call(api, 'POST', `${base}/git/trees`, {
        base_tree: tip,
        tree: [{ path: pathOf(d), mode: '100644', type: 'blob', sha: blob }],
      })
    ).json.sha;
    tip = (await call(api, 'POST', `${base}/git/commits`, { message: `update ${d.id}`, tree, parents: [tip] })).json
      .sha;
    await call(api, 'PATCH', `${base}/git/refs/heads/main`, { sha: tip, force: false });
  }
}

/** Blob per file, one commit (octokit-commit-multiple-files / Decap style): ref, commit, N blobs, tree, commit, ref. */
async function blobPerFile(api: string, repo: string, docs: Doc[]) {
  const base = `/repos/${OWNER}/${repo}`;
  const tip = (await call(api, 'GET', `${base}/git/ref/heads/main`)).json.object.sha as string;
  const baseTree = (await call(api, 'GET', `${base}/git/commits/${tip}`)).json.tree.sha as string;
  const entries = [];
  for (const d of docs) {
    const content = toBase64(encodeEnvelope(d));
    const sha = (await call(api, 'POST', `${base}/git/blobs`, { content, encoding: 'base64' })).json.sha;
    entries.push({ path: pathOf(d), mode: '100644', type: 'blob', sha });
  }
  const tree = (await call(api, 'POST', `${base}/git/trees`, { base_tree: baseTree, tree: entries })).json.sha;
  const commit = (await call(api, 'POST', `${base}/git/commits`, { message: 'update', tree, parents: [tip] })).json.sha;
  await call(api, 'PATCH', `${base}/git/refs/heads/main`, { sha: commit, force: false });
}

/** Contents API: GET each file (its sha, to compare and to update), PUT the ones that differ: one commit each. */
async function contents(api: string, repo: string, docs: Doc[]) {
  const base = `/repos/${OWNER}/${repo}`;
  for (const d of docs) {
    const bytes = encodeEnvelope(d);
    const path = `${base}/contents/${pathOf(d)}`;
    const got = await call(api, 'GET', path);
    const sha = got.status === 200 ? (got.json.sha as string) : undefined;
    if (sha === blobSha(bytes)) continue;
    await call(api, 'PUT', path, { message: `update ${d.id}`, content: toBase64(bytes), ...(sha ? { sha } : {}) });
  }
}

/** Real git: clone the bare repository, write the files, commit (if anything changed), push. */
function realGit(bare: string, docs: Doc[]) {
  const work = mkdtempSync(join(tmpdir(), 'docdb-peers-git-'));
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: work,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'bench',
          GIT_AUTHOR_EMAIL: 'bench@example.com',
          GIT_COMMITTER_NAME: 'bench',
          GIT_COMMITTER_EMAIL: 'bench@example.com',
        },
      });
    git('clone', '--quiet', bare, '.');
    for (const d of docs) {
      const file = join(work, pathOf(d));
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, encodeEnvelope(d));
    }
    git('add', '-A');
    if (git('status', '--porcelain').length > 0) {
      git('commit', '--quiet', '-m', 'update');
      git('push', '--quiet', 'origin', 'HEAD:main');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main() {
  const [strategy, api, repo, nRaw, salt, changedRaw] = process.argv.slice(2) as string[];
  const docs = peerDocs(Number(nRaw), salt as string, Number(changedRaw));
  const start = performance.now();
  if (strategy === 'docdb') await docdb(api as string, repo as string, docs);
  else if (strategy === 'per-document') await perDocument(api as string, repo as string, docs);
  else if (strategy === 'blob-per-file') await blobPerFile(api as string, repo as string, docs);
  else if (strategy === 'contents') await contents(api as string, repo as string, docs);
  else if (strategy === 'git') realGit(repo as string, docs);
  else throw new Error(`unknown strategy ${strategy}`);
  const ms = performance.now() - start;
  // maxRSS is in KiB. For git, the heavy lifting is in git's own processes (reported by the parent).
  console.log(JSON.stringify({ ...meter, ms, maxRssKiB: process.resourceUsage().maxRSS }));
}

if (process.argv[1]?.endsWith('peers-worker.ts')) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
