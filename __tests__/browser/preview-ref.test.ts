/**
 * The browser client opens a pull request's review preview (`<ref>.previews/pr-<N>`, written by `mode:
 * review` on the section's tip) only when asked by `preview: N`, and the section diff from the tip to the
 * preview then works there (the viewer's `preview=N&view=diff&from=<tip>&to=<preview>`); bad values are
 * refused naming `preview`. Run in Node against the emulator (the client is the same code as in a page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDocDbClient } from '../../src/browser/index.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';

const TOKEN = 'ghp_PreviewRefToken0123456789abcdefabcd';
const REPO = 'octo/previews';
const SECTION = 'refs/docdb/documents';
let em: EmulatorHandle;
let tip: string;
let preview: string;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
  const doc = (id: string, n: number) => `${JSON.stringify({ namespace: 'gh', doc_type: 'repo', id, data: { n } })}\n`;
  tip = em.state.commitFiles(REPO, { branch: SECTION, files: { 'gh/repo/a.json': doc('a', 1) } });
  // The would-be commit of PR 7, built on the tip as mode: review writes it.
  em.state.setRef(REPO, `${SECTION}.previews/pr-7`, tip);
  preview = em.state.commitFiles(REPO, {
    branch: `${SECTION}.previews/pr-7`,
    files: { 'gh/repo/a.json': doc('a', 2), 'gh/repo/b.json': doc('b', 1) },
  });
});
afterAll(async () => {
  await em?.stop();
});

const open = (extra: Record<string, unknown>) =>
  loadDocDbClient({
    owner: 'octo',
    repo: 'previews',
    ref: SECTION,
    apiUrl: em.url,
    ...extra,
    hostCapabilities: { transport: { fetch: globalThis.fetch }, credentials: async () => TOKEN },
  });

describe('loadDocDbClient({ preview })', () => {
  it('reads the preview ref and diffs it against the tip; the section alone does not know the preview', async () => {
    const p = await open({ preview: 7 });
    expect(p.ref).toBe(`${SECTION}.previews/pr-7`);
    const diff = await p.changes({ from: tip, to: preview });
    expect(diff.added.map((d) => d.id)).toEqual(['b']);
    expect(diff.modified.map((d) => d.id)).toEqual(['a']);
    const plain = await open({});
    await expect(plain.changes({ from: tip, to: preview })).rejects.toMatchObject({ code: 'InvalidVersion' });
  });

  it('refuses what is not a pull request number, both quarantine and preview, and a local backend', async () => {
    for (const bad of [0, -3, 1.5, '7', Number.NaN, 2 ** 31]) {
      await expect(open({ preview: bad })).rejects.toMatchObject({ code: 'InvalidConfig', data: { field: 'preview' } });
    }
    await expect(open({ preview: 7, quarantine: '4711.1' })).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'preview' },
    });
    await expect(open({ preview: 7, backend: 'memory' })).rejects.toMatchObject({
      code: 'InvalidConfig',
      data: { field: 'preview' },
    });
  });
});
