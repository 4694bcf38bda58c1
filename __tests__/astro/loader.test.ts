/**
 * docdbLoader against the emulator with a stand-in for Astro's loader context (a Map store that skips an entry
 * whose digest it already holds, as Astro's does): its options, what it refuses of untrusted documents and kept
 * state, and the reloads (another source, a compacted section, a missing section). The real `astro build` is
 * astro-build.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocdbLoaderContext, LoaderEntry } from '../../src/astro/context.js';
import { docdbLoader } from '../../src/astro/index.js';
import { META_KEY } from '../../src/astro/kept.js';
import { resolveLoaderOptions } from '../../src/astro/options.js';
import { utf8 } from '../../src/core/bytes.js';
import { tokenFromEnvironment } from '../../src/core/env-token.js';
import { InvalidConfig, InvalidDocument } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { OWNER, TOKEN } from '../remote-api/helpers.js';

const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let repos = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: OWNER, repos: '*', rateLimit: 1_000_000 });
});
afterAll(() => em?.stop());

const doc = (type: string, id: string, data: unknown) =>
  `${JSON.stringify({ data, id, namespace: 'notes', type }, null, 2)}\n`;

/** A new repository whose section holds `files`; its name. */
function section(files: Record<string, string>): string {
  const name = `loader-${++repos}`;
  em.state.createRepo(`${OWNER}/${name}`);
  em.state.commitFiles(`${OWNER}/${name}`, { branch: REF, files });
  return name;
}

const commit = (name: string, files: Record<string, string | null>) =>
  em.state.commitFiles(`${OWNER}/${name}`, { branch: REF, files });

/** A stand-in for Astro's context: entries and meta kept across loads, as Astro's data store keeps them. */
function astroContext(parse = (data: Record<string, unknown>) => data) {
  const entries = new Map<string, LoaderEntry>();
  const meta = new Map<string, string>();
  const logs: string[] = [];
  const context: DocdbLoaderContext = {
    collection: 'notes',
    store: {
      set: (e) => {
        if (entries.get(e.id)?.digest === e.digest) return false;
        entries.set(e.id, e);
        return true;
      },
      delete: (id) => void entries.delete(id),
      keys: () => [...entries.keys()],
      clear: () => entries.clear(),
    },
    meta: { get: (k) => meta.get(k), set: (k, v) => void meta.set(k, v), delete: (k) => void meta.delete(k) },
    logger: { info: (m) => void logs.push(m), warn: (m) => void logs.push(`warn: ${m}`) },
    parseData: async ({ data }) => parse(data),
  };
  return { context, entries, meta, logs };
}

const loader = (name: string, type = 'note') =>
  docdbLoader({ repo: `${OWNER}/${name}`, namespace: 'notes', type, token: TOKEN, apiUrl: em.url });

describe('docdbLoader options', () => {
  it('are checked when the config loads, each error naming the option', () => {
    const field = (o: unknown) => {
      try {
        docdbLoader(o as Parameters<typeof docdbLoader>[0]);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidConfig);
        return (e as InvalidConfig).data.field;
      }
      return 'accepted';
    };
    const ok = { repo: 'octo/data', namespace: 'notes', type: 'note' };
    expect(field(ok)).toBe('accepted');
    expect(field({ ...ok, repo: 'octo' })).toBe('repo');
    expect(field({ ...ok, repo: 'https://github.com/octo/data' })).toBe('repo');
    expect(field({ ...ok, type: undefined })).toBe('type');
    expect(field({ ...ok, namespace: '' })).toBe('namespace');
    expect(field({ ...ok, namespace: 'a/b' })).toBe('namespace');
    expect(field({ ...ok, section: 'x.shards' })).toBe('section');
    expect(field({ ...ok, token: '' })).toBe('token');
    expect(field({ ...ok, apiUrl: 42 })).toBe('apiUrl');
  });

  it('token: the option, else $GITHUB_TOKEN, else $GH_TOKEN (the CLI order); the API URL: else $GITHUB_API_URL', () => {
    const o = { repo: 'octo/data', namespace: 'notes', type: 'note' };
    const env = { GITHUB_TOKEN: 'from-github', GH_TOKEN: 'from-gh', GITHUB_API_URL: 'https://ghe.example/api/v3/' };
    expect(resolveLoaderOptions({ ...o, token: 'given' }, env).token).toBe('given');
    expect(resolveLoaderOptions(o, env)).toMatchObject({ token: 'from-github', apiUrl: 'https://ghe.example/api/v3' });
    expect(resolveLoaderOptions(o, { GITHUB_TOKEN: '', GH_TOKEN: 'from-gh' }).token).toBe('from-gh');
    expect(resolveLoaderOptions(o, {})).toMatchObject({ token: undefined, apiUrl: 'https://api.github.com' });
    expect(tokenFromEnvironment({ GH_TOKEN: 'x' })).toEqual({ token: 'x', source: '$GH_TOKEN' });
  });
});

describe('docdbLoader loads', () => {
  it('one entry per document of the type: id, data through parseData, the blob SHA as digest', async () => {
    const a = doc('note', 'a', { title: 'A' });
    const name = section({ 'notes/note/a.json': a, 'notes/other/b.json': doc('other', 'b', { title: 'B' }) });
    const { context, entries, meta, logs } = astroContext((data) => ({ ...data, parsed: true }));
    await loader(name).load(context);
    expect([...entries.values()]).toEqual([{ id: 'a', data: { title: 'A', parsed: true }, digest: blobSha(utf8(a)) }]);
    expect(logs.join('\n')).toMatch(/loaded, 1 entries written, 0 removed/);
    // The kept state: the source, the commit and the ref's ETag — never the token.
    expect(JSON.parse(meta.get(META_KEY)!)).toMatchObject({ commit: expect.any(String), etag: expect.any(String) });
    expect(meta.get(META_KEY)).not.toContain(TOKEN);
  });

  it('a schema error fails the load and keeps the old state: the next load tries again', async () => {
    const name = section({ 'notes/note/a.json': doc('note', 'a', { title: 'A' }) });
    const { context, meta, entries } = astroContext();
    await loader(name).load(context);
    const kept = meta.get(META_KEY);
    commit(name, { 'notes/note/a.json': doc('note', 'a', { title: 7 }) });
    context.parseData = async ({ data }) => {
      if (typeof data.title !== 'string') throw new Error('title: expected string');
      return data;
    };
    await expect(loader(name).load(context)).rejects.toThrow('title: expected string');
    expect(meta.get(META_KEY)).toBe(kept);
    expect(entries.get('a')!.data).toEqual({ title: 'A' });
  });

  it('another source kept (the collection now reads another type): every document loaded, the old entries removed', async () => {
    const name = section({
      'notes/note/a.json': doc('note', 'a', { title: 'A' }),
      'notes/other/b.json': doc('other', 'b', { title: 'B' }),
    });
    const { context, entries, logs } = astroContext();
    await loader(name).load(context);
    em.clearLog();
    await loader(name, 'other').load(context);
    expect([...entries.keys()]).toEqual(['b']);
    expect(logs.at(-1)).toMatch(/loaded, 1 entries written, 1 removed/);
    expect(em.requests.some((r) => r.path.includes('/compare/'))).toBe(false);
  });

  it('the kept commit compacted away: every document loaded again, entries no longer present removed', async () => {
    const name = section({
      'notes/note/a.json': doc('note', 'a', { title: 'A' }),
      'notes/note/b.json': doc('note', 'b', { title: 'B' }),
    });
    const { context, entries, logs } = astroContext();
    await loader(name).load(context);
    const rewritten = em.state.commitFiles(`${OWNER}/${name}`, {
      branch: 'refs/heads/rewrite',
      orphan: true,
      files: { 'notes/note/b.json': doc('note', 'b', { title: 'B2' }), 'notes/note/c.json': doc('note', 'c', {}) },
    });
    em.state.setRef(`${OWNER}/${name}`, REF, rewritten);
    await loader(name).load(context);
    expect(Object.fromEntries([...entries].map(([id, e]) => [id, e.data]))).toEqual({ b: { title: 'B2' }, c: {} });
    expect(logs.join('\n')).toMatch(/is no longer in the section \(compacted\?\): loading every document/);
    expect(logs.at(-1)).toMatch(/loaded, 2 entries written, 1 removed/);
  });

  it('a missing section: an empty collection and a warning, nothing kept', async () => {
    const name = `loader-${++repos}`;
    em.state.createRepo(`${OWNER}/${name}`);
    const { context, entries, meta, logs } = astroContext();
    entries.set('stale', { id: 'stale', data: {}, digest: 'x' });
    await loader(name).load(context);
    expect(entries.size).toBe(0);
    expect(meta.has(META_KEY)).toBe(false);
    expect(logs.at(-1)).toMatch(/^warn: .*the section does not exist/);
  });
});

describe('docdbLoader treats what it reads as untrusted', () => {
  it('refuses a document carrying Astro’s image-import marker (it would import a local file), naming where', async () => {
    const name = section({
      'notes/note/a.json': doc('note', 'a', { title: 'A' }),
      'notes/note/evil.json': doc('note', 'evil', { cover: { list: ['ok', '__ASTRO_IMAGE_/etc/passwd'] } }),
    });
    const { context, meta } = astroContext();
    const error = await loader(name)
      .load(context)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidDocument);
    expect((error as InvalidDocument).message).toContain('notes/note/evil');
    expect((error as InvalidDocument).data).toMatchObject({ path: 'data["cover"]["list"][1]' });
    expect(meta.has(META_KEY)).toBe(false);
  });

  it('refuses a document whose data is not an object (an Astro entry’s data is one)', async () => {
    const name = section({ 'notes/note/n.json': doc('note', 'n', [1, 2]) });
    await expect(loader(name).load(astroContext().context)).rejects.toThrow(
      /document notes\/note\/n has array data; an Astro entry's data is an object/,
    );
  });

  it('kept state that is not its own (garbage, no commit SHA) is ignored: a full load', async () => {
    const name = section({ 'notes/note/a.json': doc('note', 'a', { title: 'A' }) });
    const { context, meta, entries } = astroContext();
    await loader(name).load(context);
    const kept = JSON.parse(meta.get(META_KEY)!) as Record<string, string>;
    for (const bad of [
      '{not json',
      JSON.stringify({ ...kept, commit: 'HEAD' }),
      JSON.stringify({ ...kept, source: 'x' }),
    ]) {
      meta.set(META_KEY, bad);
      entries.clear();
      em.clearLog();
      await loader(name).load(context);
      expect([...entries.keys()]).toEqual(['a']);
      expect(em.requests[0]).toMatchObject({ status: 200, path: `/repos/${OWNER}/${name}/git/ref/docdb/documents` });
    }
  });

  it('a kept ETag that would break the request header is not sent: the ref read is unconditional', async () => {
    const name = section({ 'notes/note/a.json': doc('note', 'a', { title: 'A' }) });
    const { context, meta, logs } = astroContext();
    await loader(name).load(context);
    const kept = JSON.parse(meta.get(META_KEY)!) as Record<string, string>;
    meta.set(META_KEY, JSON.stringify({ ...kept, etag: 'x\r\nX-Injected: 1' }));
    em.clearLog();
    await loader(name).load(context);
    expect(em.requests.map((r) => r.status)).toEqual([200]);
    expect(logs.at(-1)).toMatch(/unchanged \(1 request\)/);
    expect(JSON.parse(meta.get(META_KEY)!).etag).toBe(kept.etag); // the ETag of this read, kept again
  });
});
