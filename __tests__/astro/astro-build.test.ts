/**
 * The loader in a real `astro build` (Astro 7, node_modules/astro/bin/astro.mjs) of the small site in
 * ./fixture-site, importing `docdb/astro` through the package's `exports` (this checkout's lib/, built first
 * when stale), against the emulator on loopback. Builds run one after another in one site directory, as a
 * site's CI would, so Astro's data store (entries and the loader's meta) carries over: every request of a build
 * is counted at the emulator. Telemetry off, no network.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { blobSha } from '../../src/core/git/objects.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import type { RequestLogEntry } from '../../src/emulator/traffic.js';
import { tempDir } from '../git/helpers.js';
import { OWNER, TOKEN } from '../remote-api/helpers.js';

const REPO = resolve(import.meta.dirname, '../..');
const NAME = 'astro-site';
const REF = 'refs/docdb/documents';
let tmp: ReturnType<typeof tempDir>;
let em: EmulatorHandle;
let site: string;
/** Everything the builds printed (checked for the token at the end). */
const printed: string[] = [];

/** A note's blob as docdb stores it. */
const note = (n: number, title = `Note ${n}`) =>
  `${JSON.stringify({ data: { n, title }, id: `n${n}`, namespace: 'notes', type: 'note' }, null, 2)}\n`;

const commit = (files: Record<string, string | null>) =>
  em.state.commitFiles(`${OWNER}/${NAME}`, { branch: REF, files, message: 'notes' });

beforeAll(() => {
  // lib/ as the package ships it (built only when src/ changed since the last build).
  const built = spawnSync(process.execPath, ['scripts/build-lib.mjs'], { cwd: REPO, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building lib/ failed:\n${built.stdout}\n${built.stderr}`);
  tmp = tempDir('docdb-astro-');
  site = join(tmp.dir, 'site');
  cpSync(join(import.meta.dirname, 'fixture-site'), site, { recursive: true });
  mkdirSync(join(site, 'node_modules'));
  symlinkSync(join(REPO, 'node_modules', 'astro'), join(site, 'node_modules', 'astro'), 'dir');
  symlinkSync(REPO, join(site, 'node_modules', 'docdb'), 'dir');
}, 300_000);

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: OWNER, repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo(`${OWNER}/${NAME}`);
  const files: Record<string, string> = {};
  for (let n = 0; n < 100; n++) files[`notes/note/n${n}.json`] = note(n);
  files['other/kind/x.json'] = `${JSON.stringify({ data: { n: 1 }, id: 'x', namespace: 'other', type: 'kind' })}\n`;
  commit(files);
});

afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** `astro build` of the site (async: the emulator answers from this process meanwhile); its output. */
function build(): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: tmp.dir,
    ASTRO_TELEMETRY_DISABLED: '1',
    GITHUB_TOKEN: TOKEN,
    DOCDB_FIXTURE_REPO: `${OWNER}/${NAME}`,
    DOCDB_FIXTURE_API_URL: em.url,
  };
  const astro = join(site, 'node_modules', 'astro', 'bin', 'astro.mjs');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [astro, 'build', '--root', site], { cwd: site, env });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      printed.push(out);
      if (code === 0) done(out);
      else fail(new Error(`astro build exited ${code}:\n${out}`));
    });
  });
}

/** The built page's notes: id → title, and the count line. */
function page(): { count: string; titles: Map<string, string> } {
  const html = readFileSync(join(site, 'dist', 'index.html'), 'utf8');
  const titles = new Map([...html.matchAll(/<li data-id="([^"]+)">([^<]*)<\/li>/g)].map((m) => [m[1]!, m[2]!]));
  return { count: /<p id="count">([^<]*)<\/p>/.exec(html)?.[1] ?? '', titles };
}

/** The build's requests at the emulator, as `STATUS path` below the repository. */
const requests = (log: readonly RequestLogEntry[]) =>
  log.map((r) => `${r.status} ${r.path.replace(`/repos/${OWNER}/${NAME}`, '')}`);

describe('docdbLoader in a real astro build', { timeout: 300_000 }, () => {
  it('first build: every note of the type on the page, read in bulk (no request per document)', async () => {
    em.clearLog();
    const out = await build();
    const { count, titles } = page();
    expect(count).toBe('100 notes');
    expect(titles.get('n0')).toBe('Note 0');
    expect(titles.get('n99')).toBe('Note 99');
    expect(titles.has('x')).toBe(false); // another type of the section
    expect(out).toMatch(/loaded, 100 entries written, 0 removed/);
    // The ref, the commit, the archive (302 to codeload) whose verified tree is the listing (the tree was read on its
    // own before the archive was read first): not one read per document.
    expect(requests(em.requests)).toEqual([
      '200 /git/ref/docdb/documents',
      expect.stringMatching(/^200 \/git\/commits\//),
      expect.stringMatching(/^302 \/tarball\//),
      expect.stringMatching(/^200 \/octo\/astro-site\/legacy\.tar\.gz\//),
    ]);
    // The token came from $GITHUB_TOKEN, and went to the API only (never to codeload).
    expect(em.requests.slice(0, 3).every((r) => r.authenticated)).toBe(true);
    expect(em.requests[3]!.sentAuthorization).toBe(false);
  });

  it('second build, nothing changed: exactly one request, the ref read answered 304', async () => {
    em.clearLog();
    const out = await build();
    expect(requests(em.requests)).toEqual(['304 /git/ref/docdb/documents']);
    expect(em.requests[0]!.costsBudget).toBe(false);
    expect(out).toMatch(/unchanged \(1 request\)/);
    expect(page().count).toBe('100 notes');
  });

  it('1 of 100 documents changed: ref, compare, one read of that document only; the page shows it', async () => {
    const changed = note(42, 'Note 42, edited');
    commit({ 'notes/note/n42.json': changed, 'other/kind/x.json': null });
    em.clearLog();
    const out = await build();
    // The ref (moved; changes() to that tip reads it no more), the compare, the old blob SHAs of the changed
    // paths (GraphQL), the changed document (GraphQL).
    expect(requests(em.requests)).toEqual([
      '200 /git/ref/docdb/documents',
      expect.stringMatching(/^200 \/compare\//),
      '200 /graphql',
      '200 /graphql',
    ]);
    // The only document bytes any answer carried: the changed note's.
    expect(em.requests.flatMap((r) => r.blobs ?? [])).toEqual([blobSha(utf8(changed))]);
    expect(out).toMatch(/updated, 1 entries written, 0 removed/);
    const { count, titles } = page();
    expect(count).toBe('100 notes');
    expect(titles.get('n42')).toBe('Note 42, edited');
  });

  it('a deleted document leaves the collection and the page', async () => {
    commit({ 'notes/note/n7.json': null });
    em.clearLog();
    const out = await build();
    expect(out).toMatch(/updated, 0 entries written, 1 removed/);
    // No document to read: the ref, the compare, the removed path's old blob SHA.
    expect(requests(em.requests)).toEqual([
      '200 /git/ref/docdb/documents',
      expect.stringMatching(/^200 \/compare\//),
      '200 /graphql',
    ]);
    expect(em.requests.flatMap((r) => r.blobs ?? [])).toEqual([]);
    const { count, titles } = page();
    expect(count).toBe('99 notes');
    expect(titles.has('n7')).toBe(false);
  });

  it('the token is in no file the builds left (data store with the loader meta, pages) nor in their output', () => {
    const files = spawnSync('grep', ['-rl', '--exclude-dir=node_modules', TOKEN, site], { encoding: 'utf8' });
    expect(files.stdout).toBe('');
    expect(printed).toHaveLength(4);
    expect(printed.join('\n')).not.toContain(TOKEN);
    const meta = readFileSync(join(site, '.astro-cache', 'data-store.json'), 'utf8');
    expect(meta).toContain('"docdb"'); // the loader's kept state is where this test looked
  });
});
