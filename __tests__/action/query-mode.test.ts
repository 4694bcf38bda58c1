/**
 * The Action's `mode: query` (issue 28 item 4): in-process (runAction from src/ on a memory store, as
 * abbreviated-versions.test.ts does: dist/ is rebuilt by the lead, not by this change) for the outputs,
 * the fallback, `require-index`, rows too large for an output going to a workspace file, and input errors
 * named before any read; and once from source the way a runner runs it (src/action/main.ts through tsx,
 * INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) against the emulator.
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
import { indexedSectionFiles } from '../document/indexed-section.js';
import { runnerDefaults, workspace } from './run-dist.js';

const env = { GITHUB_REPOSITORY: 'o/r' };
const reader = (v: Record<string, string>) => (n: string) => v[n] ?? '';
const query = (extra: Record<string, string>) =>
  readInputs(reader({ mode: 'query', namespace: 'github', type: 'repo', ...extra }), env);

const REPOS = [
  { id: 'octo/a', data: { language: 'TypeScript', stars: 50, note: 'x' } },
  { id: 'octo/b', data: { language: 'TypeScript', stars: 12, note: 'y' } },
  { id: 'octo/c', data: { language: 'Go', stars: 99, note: 'z' } },
];

async function indexedStore(): Promise<MemoryRefStore> {
  const store = new MemoryRefStore();
  const docs = new DocumentStore(store);
  await docs.putMany(REPOS.map((r) => ({ namespace: 'github', type: 'repo', ...r })));
  await docs.declareIndexes([{ namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] }]);
  return store;
}

describe('mode: query, in-process', () => {
  it('rows from the index: count, rows, answered-by, version; the summary has the clauses and a table', async () => {
    const store = await indexedStore();
    const { outputs, summary } = await runAction(
      query({
        where: 'data.language=TypeScript\n  data.stars>=10  \n',
        'order-by': '-data.stars',
        fields: 'data.stars',
      }),
      { store },
    );
    expect(outputs).toMatchObject({ count: '2', 'answered-by': 'index', path: '', changed: 'false' });
    expect(outputs.version).toBe(await store.head());
    const rows = JSON.parse(outputs.rows!) as { id: string; values: Record<string, unknown>; document?: unknown }[];
    expect(rows.map((r) => [r.id, r.values['data.stars']])).toEqual([
      ['octo/a', 50],
      ['octo/b', 12],
    ]);
    expect(rows[0]).not.toHaveProperty('document');
    expect(summary).toContain('<code>data.language=TypeScript</code> and <code>data.stars&#62;=10</code>: 2 row(s)');
    expect(summary).toContain('answered by the index');
    expect(summary).toMatch(/\| id \| data\.stars \|\n\| --- \| --- \|\n\| octo\/a \| 50 \|/);
  });

  it('without fields each row carries its document; an unindexed field is read from the documents and said so', async () => {
    const store = await indexedStore();
    const { outputs, summary } = await runAction(query({ where: 'data.note=z' }), { store });
    expect(outputs['answered-by']).toBe('documents');
    const rows = JSON.parse(outputs.rows!) as { id: string; document: { data: unknown } }[];
    expect(rows).toMatchObject([{ id: 'octo/c', document: { data: REPOS[2]!.data } }]);
    expect(summary).toMatch(/answered by reading the documents \(.*data\.note/);
  });

  it('require-index: true fails naming the unindexed field', async () => {
    const store = await indexedStore();
    const e = await runAction(query({ where: 'data.note=z', 'require-index': 'true' }), { store }).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as Error).message).toMatch(
      /^input "require-index": .*data\.note.*; declare the fields with index: on the projection that writes this type, or set require-index: false$/,
    );
  });

  it('rows too large for an output go to a JSON Lines file in the workspace, named by path', async () => {
    const store = new MemoryRefStore();
    const docs = new DocumentStore(store);
    const big = 'x'.repeat(2000);
    const count = Math.ceil(MAX_ROWS_OUTPUT_BYTES / 2 / big.length) + 10;
    await docs.putMany(
      Array.from({ length: count }, (_, i) => ({ namespace: 'github', type: 'repo', id: `r${i}`, data: { big, i } })),
    );
    const dir = mkdtempSync(join(tmpdir(), 'docdb-query-'));
    try {
      const { outputs, summary } = await runAction(query({ 'export-path': 'out/rows.jsonl' }), {
        store,
        workspace: dir,
      });
      expect(outputs.count).toBe(String(count));
      expect(outputs.rows).toBe('');
      expect(outputs.path).toBe(join(dir, 'out/rows.jsonl'));
      const lines = readFileSync(outputs.path!, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines).toHaveLength(count);
      expect(lines[0]).toMatchObject({ id: 'r0', document: { data: { big, i: 0 } } });
      expect(summary).toContain('rows in <code>out/rows.jsonl</code>');
      expect(summary).toContain(`… and ${count - 20} more`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [{ where: 'data.stars' }, /^input "where": "data.stars": it is not FIELD OPERATOR VALUE; allowed: /],
    [{ where: 'data.a=1\ndata.b>=x\ndata.c<' }, /^input "where": "data.c<": no value after "<"/],
    [{ 'order-by': 'stars' }, /^input "order-by": "stars" is not a field/],
    [{ limit: '0' }, /^input "limit": "0" must be a whole number from 1 to 10000/],
    [{ 'require-index': 'yes' }, /^input "require-index": "yes" must be true or false/],
    [{ namespace: '' }, /^input "namespace": is required with mode: query/],
  ])('%j fails naming the input, before any read', (given, message) => {
    expect(() => query(given)).toThrow(message);
  });

  it('a query input in another mode fails naming it (it would be ignored)', () => {
    expect(() => readInputs(reader({ mode: 'export', where: 'data.a=1' }), env)).toThrow(
      /^input "where": only applies to mode: query \(mode is export\)/,
    );
    // A runner passes every input: the defaults ("" and "false") are not "set".
    expect(() => readInputs(reader({ mode: 'export', 'require-index': 'false', limit: '' }), env)).not.toThrow();
  });

  it('a section that does not exist fails saying so', async () => {
    const e = await runAction(query({}), { store: new MemoryRefStore() }).catch((x) => x);
    expect(e).toBeInstanceOf(DocDbError);
    expect((e as Error).message).toMatch(/section refs\/docdb\/documents does not exist in o\/r: nothing to query/);
  });
});

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghp_ActionQueryToken0123456789abcdefABCD';
const REPO = 'octo/query-action';
let em: EmulatorHandle;

describe('mode: query, from source as a runner runs it', () => {
  beforeAll(async () => {
    em = await startEmulator();
    em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
    em.state.createRepo(REPO);
    // The section as the library writes it: the documents and their index (indexed-section.ts).
    const documents = REPOS.map((r) => ({ namespace: 'github', type: 'repo', ...r }));
    const index = { namespace: 'github', type: 'repo', fields: ['data.language', 'data.stars'] };
    const files = await indexedSectionFiles(documents, [index]);
    em.state.commitFiles(REPO, { branch: 'refs/docdb/documents', orphan: true, files });
  });
  afterAll(async () => {
    await em?.stop();
  });

  it('outputs and job summary through GITHUB_OUTPUT and GITHUB_STEP_SUMMARY; the token nowhere', async () => {
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
      namespace: 'github',
      type: 'repo',
      where: 'data.language in TypeScript,Go\ndata.stars<60',
      'order-by': 'data.stars',
    };
    const r = await runLikeRunner({ entry: MAIN, inputs, cwd, env: runEnv });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs.count).toBe('2');
    expect((JSON.parse(r.outputs.rows!) as { id: string }[]).map((x) => x.id)).toEqual(['octo/b', 'octo/a']);
    expect(r.outputs['answered-by']).toBe('index');
    expect(Number(r.outputs.requests)).toBeGreaterThan(0);
    expect(Number(r.outputs.requests)).toBeLessThanOrEqual(12);
    expect(r.summary).toContain('### docdb query of <code>github/repo</code>');
    expect(r.summary).toContain('answered by the index');
    expect(r.summary).toMatch(/\| octo\/b \| TypeScript \| 12 \|/);
    for (const text of [r.stdout.replace(/^::add-mask::.*$/gm, ''), r.summary, r.outputs.rows]) {
      expect(text).not.toContain(TOKEN);
    }
  });
});
