/**
 * The BUILT dist/index.js in `mode: export` (issue 20 §3): the section (or a namespace) with its data in a
 * workspace file, read through the archive; the token never reaches codeload, the log or the file; a path
 * outside the workspace fails naming the input.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { DIST, runDist, workspace } from './run-dist.js';

const TOKEN = 'ghp_ActionExportToken0123456789abcdefAB';
const REPO = 'octo/exported';
let em: EmulatorHandle;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('dist/index.js is missing: run "npm run build:action"');
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*' });
  em.state.createRepo(REPO, { private: true });
  const files: Record<string, string | null> = { 'README.md': null };
  const doc = (namespace: string, type: string, id: string, data: unknown) =>
    `${JSON.stringify({ data, id, namespace, type }, null, 2)}\n`;
  for (let i = 0; i < 120; i++) files[`github/repo/o/r${i}.json`] = doc('github', 'repo', `o/r${i}`, { i });
  files['notes/note/a.json'] = doc('notes', 'note', 'a', 'A');
  em.state.commitFiles(REPO, { branch: 'refs/docdb/documents', files });
});
afterAll(async () => {
  await em?.stop();
});

const inputs = (extra: Record<string, string> = {}) => ({
  token: TOKEN,
  'api-url': em.url,
  repository: REPO,
  mode: 'export',
  ...extra,
});

describe('mode: export', () => {
  it('writes the section as JSON Lines in the workspace and outputs its path and count', async () => {
    const cwd = workspace({});
    const from = em.requests.length;
    const r = await runDist(inputs({ 'export-path': 'out/all.jsonl' }), { cwd, env: { RUNNER_DEBUG: '1' } });
    expect(r.code, r.stdout).toBe(0);
    expect(r.outputs.path).toBe(join(cwd, 'out/all.jsonl'));
    expect(r.outputs.count).toBe('121');
    const text = readFileSync(join(cwd, 'out/all.jsonl'), 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ namespace: 'github', type: 'repo', id: 'o/r0', version: r.outputs.version });
    expect(lines.at(-1)).toMatchObject({ id: 'a', data: 'A' });
    const used = em.requests.slice(from);
    expect(used.map((x) => x.operation)).toContain('codeload/legacy.tar.gz');
    expect(used.every((x) => x.sentAuthorization !== true)).toBe(true);
    expect(Number(r.outputs.requests)).toBeLessThanOrEqual(6);
    // Neither the token nor codeload's ticket reaches the file, the log or the summary.
    // (`::add-mask::<token>` is the runner command that hides it; the runner never prints that line.)
    const log = r.stdout.replace(/^::add-mask::.*$/gm, '');
    for (const out of [text, log, r.summary]) expect(out).not.toContain(TOKEN);
    expect(r.stdout).not.toMatch(/[?&]token=A[A-Z0-9]{10}/);
    expect(r.summary).toContain('121 document(s)');
  });

  it('export-format files: one file per document of a namespace', async () => {
    const cwd = workspace({});
    const r = await runDist(inputs({ namespace: 'notes', 'export-format': 'files', 'export-path': 'notes' }), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(readdirSync(join(cwd, 'notes/notes/note'))).toEqual(['a.json']);
    expect(r.outputs.count).toBe('1');
  });

  it('a path outside the workspace fails naming export-path, and writes nothing', async () => {
    const cwd = workspace({});
    for (const path of ['../escape.jsonl', '/tmp/docdb-escape.jsonl', '.']) {
      const r = await runDist(inputs({ 'export-path': path }), { cwd });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/input "export-path"/);
    }
    expect(existsSync(join(cwd, '..', 'escape.jsonl'))).toBe(false);
    const bad = await runDist(inputs({ 'export-format': 'xml' }), { cwd });
    expect(bad.stdout).toMatch(/input "export-format"/);
  });
});
