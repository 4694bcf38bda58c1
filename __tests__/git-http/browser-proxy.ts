/**
 * GitHttpRefStore running in Chromium, driven from Node: a page loads the `docdb/git-http` bundle and
 * keeps store instances; a Node-side RefStore forwards every call into the page (values as base64)
 * and rethrows the page's errors as the same docdb error classes, so the ONE contract suite runs
 * unchanged against the browser build.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { buildGitHttpBundle } from '../../scripts/build-browser.mjs';
import { type StaticServer, startStaticServer } from '../../scripts/static-server.js';
import { ALL_ERRORS } from '../../src/core/errors.js';
import type { RefStore, ReplaceHistoryResult } from '../../src/core/refstore.js';

/** The page: the bundle as `window.gitHttp`, a store registry and a dispatcher that speaks base64. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>docdb git-http</title>
<script type="module">
  import * as gitHttp from './browser/git-http.bundle.js';
  const stores = new Map();
  const b64 = (u8) => { let s = ''; for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000)); return btoa(s); };
  const unb64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const decode = (v) => v && typeof v === 'object' ? ('__zeros' in v ? new Uint8Array(v.__zeros) : '__b64' in v ? unb64(v.__b64) : Array.isArray(v) ? v.map(decode) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]))) : v;
  const encode = (v) => v instanceof Uint8Array ? { __b64: b64(v) } : v && typeof v === 'object' ? (Array.isArray(v) ? v.map(encode) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]))) : v;
  window.gitHttp = gitHttp;
  window.makeStore = (id, options) => {
    const cache = options.indexedDbCache ? new gitHttp.IndexedDbCacheBackend({ name: options.indexedDbCache }) : undefined;
    const { indexedDbCache, ...rest } = options;
    stores.set(id, new gitHttp.GitHttpRefStore({ ...rest, ...(cache ? { cache } : {}) }));
  };
  window.callStore = async (id, method, args) => {
    try {
      return { ok: encode(await stores.get(id)[method](...decode(args))) };
    } catch (e) {
      return { error: { ...encode({ ...e }), name: e.name, message: e.message } };
    }
  };
  window.storeTraffic = (id) => ({ ...stores.get(id).traffic });
  document.body.dataset.ready = 'yes';
</script></head><body></body></html>
`;

export interface GitHttpSite {
  url: string;
  gzipBytes: number;
  close(): Promise<void>;
}

/** Build the git-http bundle and serve it with the page at `/git-http.html`. */
export async function startGitHttpSite(): Promise<GitHttpSite> {
  const dir = await mkdtemp(join(tmpdir(), 'docdb-git-http-site-'));
  const bundle = await buildGitHttpBundle(dir);
  await writeFile(join(dir, 'git-http.html'), PAGE);
  const server: StaticServer = await startStaticServer({ root: dir });
  return {
    url: server.url,
    gzipBytes: bundle.gzipBytes,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Large zero-filled values (the size-limit test's 100 MiB) cross as their length, not their bytes. */
const isZeros = (v: Uint8Array) => v.length > 1 << 20 && v.every((b) => b === 0);

const encode = (v: unknown): unknown =>
  v instanceof Uint8Array
    ? isZeros(v)
      ? { __zeros: v.length }
      : { __b64: Buffer.from(v).toString('base64') }
    : v && typeof v === 'object'
      ? Array.isArray(v)
        ? v.map(encode)
        : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]))
      : v;

const decode = (v: unknown): unknown =>
  v && typeof v === 'object'
    ? '__b64' in v
      ? new Uint8Array(Buffer.from((v as { __b64: string }).__b64, 'base64'))
      : Array.isArray(v)
        ? v.map(decode)
        : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]))
    : v;

/** The page's error as the same class in Node (docdb errors by their `code`; anything else a TypeError/Error). */
function rethrow(e: { name: string; message: string } & Record<string, unknown>): never {
  // A docdb error's code is its class name (the bundle's own names may be minified).
  const cls = ALL_ERRORS.find((c) => c.name === e.code);
  const out: Error = cls ? Object.create(cls.prototype) : e.name === 'TypeError' ? new TypeError() : new Error();
  Object.assign(out, decode(e), { message: e.message, name: cls ? cls.name : e.name });
  throw out;
}

let ids = 0;

/**
 * A RefStore whose calls run in `page` on a GitHttpRefStore made with `options` (JSON-safe).
 *
 * @example
 * const store = await browserStore(page, { remote, token });
 */
export async function browserStore(
  page: Page,
  options: Record<string, unknown>,
): Promise<RefStore & { traffic(): Promise<{ requests: number }> }> {
  const id = `s${++ids}`;
  await page.evaluate(
    ([i, o]) => (window as unknown as { makeStore: (i: string, o: unknown) => void }).makeStore(i, o),
    [id, options] as const,
  );
  const call = async (method: string, ...args: unknown[]) => {
    const r = await page.evaluate(
      ([i, m, a]) =>
        (window as unknown as { callStore: (i: string, m: string, a: unknown) => Promise<unknown> }).callStore(i, m, a),
      [id, method, encode(args)] as const,
    );
    const { ok, error } = r as { ok?: unknown; error?: { name: string; message: string } & Record<string, unknown> };
    if (error) rethrow(error);
    return decode(ok);
  };
  const ref = (options.ref as string | undefined) ?? 'refs/docdb/documents';
  return {
    ref,
    get: (...a) => call('get', ...a),
    put: (...a) => call('put', ...a),
    delete: (...a) => call('delete', ...a),
    commit: (...a) => call('commit', ...a),
    changes: (...a) => call('changes', ...a),
    list: (...a) => call('list', ...a),
    history: (...a) => call('history', ...a),
    commits: (...a) => call('commits', ...a),
    // Functions cannot cross into the page: the page's store runs unpaced, and the commits it created are
    // reported to `onCreated` when it answers.
    replaceHistory: async ({ pace: _, onCreated, ...o }) => {
      const result = (await call('replaceHistory', o)) as ReplaceHistoryResult;
      for (const sha of result.created) onCreated?.(sha);
      return result;
    },
    head: () => call('head'),
    traffic: () =>
      page.evaluate(
        (i) => (window as unknown as { storeTraffic: (i: string) => { requests: number } }).storeTraffic(i),
        id,
      ),
  } as RefStore & { traffic(): Promise<{ requests: number }> };
}
