/**
 * The Action's `mode: query` with `search:` (issue 42): in-process (runAction from src/ on a memory store,
 * as query-mode.test.ts does) for the outputs — the hits in `rows`, `count`, `total`, `answered-by: search` —
 * the summary table, one type or every declared type, a type without a search index, hits too large for an
 * output going to a workspace file, and input errors named before any read; and once from source the way a
 * runner runs it (src/action/main.ts through tsx, INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY)
 * against the emulator, counting its requests.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runLikeRunner } from '../../src/action/local-runner.js';
import { MAX_ROWS_OUTPUT_BYTES } from '../../src/action/query-mode.js';
import { runAction } from '../../src/action/run-action.js';
import { DocDbError, InvalidConfig } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { MemoryRefStore } from '../../src/stores/memory/memory-refstore.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { untimedFetch } from '../remote-api/helpers.js';
import { runnerDefaults, workspace } from './run-dist.js';

const env = { GITHUB_REPOSITORY: 'o/r' };
const reader = (v: Record<string, string>) => (n: string) => v[n] ?? '';
const search = (extra: Record<string, string>) =>
  readInputs(reader({ mode: 'query', namespace: 'notes', ...extra }), env);

const NOTES = [
  { type: 'article', id: 'a1', data: { title: 'Full-text search in git', body: 'An inverted index' } },
  { type: 'article', id: 'a2', data: { title: 'Café culture', body: 'Espresso and croissants' } },
  { type: 'article', id: 'a3', data: { title: 'Ranking', body: 'Search engines rank; search search' } },
  { type: 'page', id: 'p1', data: { title: 'Help', body: 'How to search the documentation' } },
  { type: 'draft', id: 'd1', data: { title: 'Search draft', body: 'no search index declared' } },
];

const FIELDS = ['data.title', 'data.body'];

/** NOTES written, with a search index on article and page (not on draft). */
async function searchable(docs: DocumentStore): Promise<void> {
  await docs.putMany(NOTES.map((n) => ({ namespace: 'notes', ...n })));
  await docs.declareSearch([
    { namespace: 'notes', type: 'article', fields: FIELDS },
    { namespace: 'notes', type: 'page', fields: FIELDS },
  ]);
}

async function searchableStore(): Promise<MemoryRefStore> {
  const store = new MemoryRefStore();
  await searchable(new DocumentStore(store));
  return store;
}

interface Hit {
  namespace: string;
  type: string;
  id: string;
  score: number;
  fields: string[];
  document: { data: unknown };
}

describe('mode: query with search, in-process', () => {
  it('every declared type of the namespace: hits best first in rows, count, total, answered-by; a summary table', async () => {
    const store = await searchableStore();
    const { outputs, summary } = await runAction(search({ search: 'search' }), { store });
    expect(outputs).toMatchObject({ count: '3', total: '3', 'answered-by': 'search', path: '', changed: 'false' });
    expect(outputs.version).toBe(await store.head());
    const hits = JSON.parse(outputs.rows!) as Hit[];
    // draft/d1 holds the word, but its type has no search index.
    expect(hits.map((h) => `${h.type}/${h.id}`).sort()).toEqual(['article/a1', 'article/a3', 'page/p1']);
    expect(hits.map((h) => h.score)).toEqual(hits.map((h) => h.score).sort((a, b) => b - a));
    const a3 = hits.find((h) => h.id === 'a3')!;
    expect(a3).toMatchObject({ namespace: 'notes', fields: ['data.body'], document: { data: NOTES[2]!.data } });
    expect(summary).toContain('### docdb search of <code>notes</code> in <code>refs/docdb/documents</code> of o/r');
    expect(summary).toContain('<code>search</code>: 3 of 3 hit(s) at');
    expect(summary).toMatch(/\| score \| type \| id \| fields \|\n\| --: \| --- \| --- \| --- \|\n\| \d+\.\d{4} \| /);
    expect(summary).toContain(`| ${a3.score.toFixed(4)} | article | a3 | data.body |`);
  });

  it('type: that type only; limit caps the hits while total counts them all', async () => {
    const store = await searchableStore();
    const one = await runAction(search({ search: 'search', type: 'page' }), { store });
    expect((JSON.parse(one.outputs.rows!) as Hit[]).map((h) => h.id)).toEqual(['p1']);
    expect(one.summary).toContain('### docdb search of <code>notes/page</code>');
    const capped = await runAction(search({ search: 'search', limit: '1' }), { store });
    expect(capped.outputs).toMatchObject({ count: '1', total: '3' });
    // The prefix of the last word and folded diacritics, as the library searches.
    const folded = await runAction(search({ search: 'CAFE cult', type: 'article' }), { store });
    expect((JSON.parse(folded.outputs.rows!) as Hit[]).map((h) => h.id)).toEqual(['a2']);
  });

  it('a type without a search index fails naming the type input and how a workflow declares one', async () => {
    const store = await searchableStore();
    const e = await runAction(search({ search: 'search', type: 'draft' }), { store }).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as Error).message).toMatch(/^input "type": .*draft/);
    expect((e as Error).message).toContain('declare the searchable fields with search: on the projection');
    expect((e as Error).message).toContain('or leave type empty');
    const none = await runAction(search({ search: 'search', namespace: 'other' }), { store }).catch((x) => x);
    expect(none).toMatchObject({ code: 'InvalidConfig', data: { field: 'namespace' } });
    expect((none as Error).message).toMatch(
      /^input "namespace": no type of namespace other has search declared; declare the searchable fields with search: on the projection that writes the type \(e\.g\. search: \[data\.title, data\.body\]\)$/,
    );
  });

  it('a tampered search index fails the step with InvalidResponse, never a wrong hit', async () => {
    const store = await searchableStore();
    const table = '_docdb/search/notes/article/table/0.json';
    const ids = JSON.parse(new TextDecoder().decode((await store.get(table))!.value!)) as string[];
    // Every id moved one place, by a raw write (which bypasses DocumentStore).
    await store.put(table, `${JSON.stringify([...ids.slice(1), ids[0]])}\n`);
    const e = await runAction(search({ search: 'espresso', type: 'article' }), { store }).catch((x) => x);
    expect(e).toMatchObject({ code: 'InvalidResponse' });
    expect((e as Error).message).toMatch(/notes\/article .*does not hold the words it was found for/);
  });

  it('hits too large for an output go to a JSON Lines file in the workspace, named by path', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    const big = 'word '.repeat(2000);
    const count = Math.ceil(MAX_ROWS_OUTPUT_BYTES / 2 / big.length) + 5;
    await docs.putMany(
      Array.from({ length: count }, (_, i) => ({ namespace: 'notes', type: 'big', id: `b${i}`, data: { big } })),
    );
    await docs.declareSearch([{ namespace: 'notes', type: 'big', fields: ['data.big'] }]);
    const dir = mkdtempSync(join(tmpdir(), 'docdb-search-'));
    try {
      const { outputs, summary } = await runAction(
        search({ search: 'word', limit: String(count), 'export-path': 'out/hits.jsonl' }),
        { store, workspace: dir },
      );
      expect(outputs.count).toBe(String(count));
      expect(outputs.rows).toBe('');
      expect(outputs.path).toBe(join(dir, 'out/hits.jsonl'));
      const lines = readFileSync(outputs.path!, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(count);
      expect(JSON.parse(lines[0]!)).toMatchObject({ namespace: 'notes', type: 'big', document: { data: { big } } });
      expect(summary).toContain('hits in <code>out/hits.jsonl</code>');
      expect(summary).toContain(`… and ${count - 20} more`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ search: '!!' }, /^input "search": /],
    [{ search: Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ') }, /^input "search": /],
    [{ search: 'x', limit: '101' }, /^input "limit": "101" must be a whole number from 1 to 100 with search/],
    [{ search: 'x', where: 'data.a=1' }, /^input "where": does not apply with search/],
    [{ search: 'x', 'order-by': '-data.a' }, /^input "order-by": does not apply with search/],
    [{ search: 'x', fields: 'data.a' }, /^input "fields": does not apply with search/],
    [{ search: 'x', 'require-index': 'true' }, /^input "require-index": does not apply with search/],
    [{ search: 'x', namespace: '' }, /^input "namespace": is required with mode: query and search/],
  ])('%j fails naming the input, before any read', (given, message) => {
    expect(() => search(given)).toThrow(message);
  });

  it('search needs no type; a runner passes every input, and their defaults are not "set"', () => {
    expect(search({ search: 'x', 'require-index': 'false', where: '', limit: '' }).query).toEqual({
      where: [],
      requireIndex: false,
      search: 'x',
    });
    expect(() => readInputs(reader({ mode: 'export', search: 'x' }), env)).toThrow(
      /^input "search": only applies to mode: query \(mode is export\)/,
    );
  });

  it('a section that does not exist fails saying so', async () => {
    const e = await runAction(search({ search: 'x' }), { store: new MemoryRefStore() }).catch((x) => x);
    expect(e).toBeInstanceOf(DocDbError);
    expect((e as Error).message).toMatch(/section refs\/docdb\/documents does not exist in o\/r: nothing to search/);
  });
});

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghp_ActionSearchToken0123456789abcdefABC';
const REPO = 'octo/search-action';
let em: EmulatorHandle;

describe('mode: query with search, from source as a runner runs it', () => {
  beforeAll(async () => {
    em = await startEmulator();
    em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
    em.state.createRepo(REPO);
    const [owner, repo] = REPO.split('/') as [string, string];
    const store = new RemoteApiRefStore({ owner, repo, apiUrl: em.url, token: TOKEN, transport: untimedFetch() });
    await searchable(new DocumentStore(store));
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('outputs and job summary through GITHUB_OUTPUT and GITHUB_STEP_SUMMARY, in a few requests; the token nowhere', async () => {
    const cwd = workspace({});
    const runEnv = {
      GITHUB_WORKSPACE: cwd,
      GITHUB_SERVER_URL: 'https://github.example',
      NODE_OPTIONS: `--import ${TSX}`,
    };
    const inputs = {
      ...runnerDefaults(runEnv),
      token: TOKEN,
      'api-url': em.url,
      repository: REPO,
      mode: 'query',
      namespace: 'notes',
      type: 'article',
      search: 'espresso',
    };
    const r = await runLikeRunner({ entry: MAIN, inputs, cwd, env: runEnv });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toMatchObject({ count: '1', total: '1', 'answered-by': 'search' });
    expect(JSON.parse(r.outputs.rows!)).toMatchObject([{ type: 'article', id: 'a2', fields: ['data.body'] }]);
    expect(Number(r.outputs.requests)).toBeGreaterThan(0);
    // The library's cost (search-budget.test.ts): the tip with the declaration and the manifest, then shards,
    // table parts and documents, one batched read each.
    expect(Number(r.outputs.requests)).toBe(4);
    expect(r.summary).toContain('### docdb search of <code>notes/article</code>');
    expect(r.summary).toMatch(/\| \d+\.\d{4} \| article \| a2 \| data\.body \|/);
    for (const text of [r.stdout.replace(/^::add-mask::.*$/gm, ''), r.summary, r.outputs.rows]) {
      expect(text).not.toContain(TOKEN);
    }
  });
});
