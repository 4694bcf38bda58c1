/**
 * Real-browser test harness: Debian's chromium driven by playwright-core (never a downloaded browser),
 * headless, with a fresh temporary profile per launch. Pages are served from loopback by a static
 * server (a different origin from the emulator, so every API call is a CORS request as on github.com).
 *
 * Missing chromium is a failure with instructions, never a silent skip (`.ci/run` installs it).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type BrowserBundleInfo, buildBrowserBundle, buildPlayground } from '../../scripts/build-browser.mjs';
import { type StaticServer, startStaticServer } from '../../scripts/static-server.js';

export const CHROMIUM = process.env.DOCDB_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `browser tests need Debian's chromium at ${CHROMIUM}: run "apt-get install -y chromium" (as root), or set DOCDB_CHROMIUM`,
    );
  }
  // launch() starts chromium with a fresh temporary --user-data-dir, removed on close.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that loads the `docdb/browser` bundle and exposes it as `window.docdb`. */
const TEST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>docdb test page</title>
<script type="module">
  import * as docdb from './browser/docdb.bundle.js';
  window.docdb = docdb;
  document.body.dataset.ready = 'yes';
</script></head><body></body></html>
`;

/** A module Web Worker running the bundle: stores one document in IndexedDB and reads it back. */
const TEST_WORKER = `import { loadDocDbClient } from './browser/docdb.bundle.js';
self.onmessage = async (event) => {
  try {
    const client = await loadDocDbClient({ backend: 'indexeddb', hostCapabilities: { store: { name: event.data.db } } });
    const put = await client.put({ namespace: 'worker', type: 'note', id: 'n1', data: { from: 'worker' } });
    const got = await client.get({ namespace: 'worker', doc_type: 'note', id: 'n1' });
    client.close();
    self.postMessage({ ok: true, version: put.version, data: got.document && got.document.data, readVersion: got.version });
  } catch (e) {
    self.postMessage({ ok: false, error: String(e && e.stack || e) });
  }
};
`;

export interface Site {
  url: string;
  dir: string;
  /** min+gzip bytes of the bundle's entry the pages load. */
  bundleGzipBytes: number;
  /** The bundle the pages load: its entry and chunks. */
  bundle: BrowserBundleInfo;
  close(): Promise<void>;
}

/** Build the bundle and the playground into a temp dir and serve it (test page at `/test.html`). */
export async function startSite(): Promise<Site> {
  const dir = await mkdtemp(join(tmpdir(), 'docdb-site-'));
  const bundle = await buildBrowserBundle(dir);
  await buildPlayground(dir);
  await writeFile(join(dir, 'test.html'), TEST_PAGE);
  await writeFile(join(dir, 'test-worker.js'), TEST_WORKER);
  const server: StaticServer = await startStaticServer({ root: dir });
  return {
    url: server.url,
    dir,
    bundleGzipBytes: bundle.gzipBytes,
    bundle,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Open the test page and wait until `window.docdb` is there. */
export async function openTestPage(page: Page, site: Site): Promise<void> {
  await page.goto(`${site.url}/test.html`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
}

/** Reload the test page and wait for the bundle again. */
export async function reloadTestPage(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
}

/**
 * Every IndexedDB record and localStorage item of the page's origin as text (bytes as Latin-1), for
 * secret scans: `[where, text]` pairs.
 */
export function dumpPageStorage(page: Page): Promise<[string, string][]> {
  return page.evaluate(async () => {
    const out: [string, string][] = [];
    const text = (v: unknown): string => {
      if (typeof v === 'string') return v;
      if (v instanceof Uint8Array) return Array.from(v, (b) => String.fromCharCode(b)).join('');
      if (v instanceof ArrayBuffer) return text(new Uint8Array(v));
      if (Array.isArray(v)) return v.map(text).join('\n');
      if (v && typeof v === 'object')
        return Object.entries(v)
          .map(([k, x]) => `${k}=${text(x)}`)
          .join('\n');
      return String(v);
    };
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open(info.name as string);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const tx = db.transaction(store, 'readonly');
        const keys = tx.objectStore(store).getAllKeys();
        const values = tx.objectStore(store).getAll();
        await new Promise((ok) => {
          tx.oncomplete = ok;
        });
        keys.result.forEach((k, i) => {
          out.push([`indexedDB ${info.name}/${store}`, `${text(k)}\n${text(values.result[i])}`]);
        });
      }
      db.close();
    }
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i) as string;
      out.push(['localStorage', `${k}=${localStorage.getItem(k)}`]);
    }
    return out;
  });
}
