/**
 * `docdb doc test` (issue 38): the spec's expectations that need no run, against a section on the emulator as
 * the library writes it — each failure printed with its projection, expectation, field and key (never a
 * value), exit 1; exit 0 when all hold; --json; usage errors name the flag; a missing section is exit 3.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliDocTestToken0123456789abcdefABCD';
const env = { T: TOKEN };
const SECRET = 'ghp_DocumentSecretValue0123456789';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-test-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

const SPEC = `projections:
  repos:
    source: { type: repository, api: rest, repositories: [octo/a] }
    expect:
      count: { min: 2 }
      max-removed: "10%"
      unique: [data.name]
      not-null: [data.name]
      accepted-values: { data.visibility: [public, private] }
  issues:
    source: { type: issues, repositories: [octo/a] }
    expect:
      references: { data.repo: github/repo }
`;

/** A section on the emulator holding `docs` (written by the library), a workspace with the spec; the flags. */
async function section(docs: { namespace: string; type: string; id: string; data: unknown }[]) {
  const repo = `octo/test-${++n}`;
  em.state.createRepo(repo);
  const mem = new MemoryRefStore();
  await new DocumentStore(mem).putMany(docs);
  const files: Record<string, Uint8Array> = {};
  for (const e of (await mem.list()).entries) files[e.key] = (await mem.get(e.key))!.value;
  em.state.commitFiles(repo, { branch: 'refs/docdb/documents', orphan: true, files });
  const cwd = join(tmp.dir, `ws-${n}`);
  mkdirSync(join(cwd, '.github'), { recursive: true });
  writeFileSync(join(cwd, '.github', 'docdb.yml'), SPEC);
  return { cwd, flags: ['--repo', repo, '--api-url', em.url, '--token-env', 'T'] };
}

const repoDoc = (id: string, data: Record<string, unknown>) => ({ namespace: 'github', type: 'repo', id, data });
const issueDoc = (id: string, repo: string) => ({ namespace: 'github', type: 'issue', id, data: { repo } });

describe('docdb doc test', () => {
  it('all expectations hold: exit 0 and a summary line', async () => {
    const { cwd, flags } = await section([
      repoDoc('octo/a', { name: 'a', visibility: 'public' }),
      repoDoc('octo/b', { name: 'b', visibility: 'private' }),
      issueDoc('octo/a#1', 'octo/a'),
    ]);
    const r = await runCli(['doc', 'test', ...flags], { env, cwd });
    expect(r.stderr).toMatch(/^# all expectations hold: 2 type\(s\), 3 document\(s\) at [0-9a-f]{7}$/m);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(0);
  });

  it('failures: one line each with keys, never values; exit 1; --json', async () => {
    const { cwd, flags } = await section([
      repoDoc('octo/a', { name: 'same', visibility: SECRET }),
      repoDoc('octo/b', { name: 'same', visibility: 'public' }),
      repoDoc('octo/c', { visibility: 'public' }),
      issueDoc('octo/a#1', 'octo/gone'),
    ]);
    const r = await runCli(['doc', 'test', ...flags], { env, cwd });
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toEqual([
      'FAIL  repos  accepted-values  data.visibility  github/repo/octo/a.json: data.visibility holds a string that is not one of the 2 accepted values',
      'FAIL  repos  not-null  data.name  github/repo/octo/c.json: data.name is absent',
      'FAIL  repos  unique  data.name  github/repo/octo/b.json: data.name holds the same value as github/repo/octo/a.json',
      'FAIL  issues  references  data.repo  github/issue/octo/a#1.json: data.repo names no document of github/repo',
    ]);
    expect(r.stderr).toMatch(/# 4 failure\(s\): 2 type\(s\), 4 document\(s\)/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
    const j = await runCli(['doc', 'test', '--json', '--projections', 'issues', ...flags], { env, cwd });
    expect(j.code).toBe(1);
    const out = JSON.parse(j.stdout);
    expect(out).toMatchObject({
      ok: false,
      types: [{ projection: 'issues', namespace: 'github', type: 'issue', documents: 1 }],
    });
    expect(out.violations).toEqual([
      {
        projection: 'issues',
        namespace: 'github',
        type: 'issue',
        expectation: 'references',
        field: 'data.repo',
        key: 'github/issue/octo/a#1.json',
        message: 'data.repo names no document of github/repo',
      },
    ]);
  });

  it('count after nothing changed; max-removed is skipped (it is about a write)', async () => {
    const { cwd, flags } = await section([repoDoc('octo/a', { name: 'a', visibility: 'public' })]);
    const r = await runCli(['doc', 'test', '--projections', 'repos', ...flags], { env, cwd });
    expect(r.stdout.trim()).toBe('FAIL  repos  count: 1 document(s) of the type, fewer than count.min 2');
    expect(r.code).toBe(1);
  });

  it('usage errors name the flag (exit 2); a missing section is exit 3', async () => {
    const { cwd, flags } = await section([repoDoc('octo/a', { name: 'a', visibility: 'public' })]);
    const u = await runCli(['doc', 'test', '--projections', 'nope', ...flags], { env, cwd });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('--projections: "nope" is not a projection of .github/docdb.yml (it has repos, issues)');
    const missing = await runCli(['doc', 'test', ...flags, '--section', 'other'], { env, cwd });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/section refs\/docdb\/other does not exist/);
  });
});
