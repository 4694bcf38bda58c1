/**
 * `docdb/git-http` is its own browser bundle: self-contained ESM with no Node built-in (packs are read
 * by docdb's own pack-check.ts/pack-reader.ts with pako, so neither isomorphic-git nor a `buffer`
 * polyfill is in it), exporting the store, cache backends and errors with their real names — and the
 * main `docdb/browser` bundle does not contain any of it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleInfo, buildBrowserBundle, buildGitHttpBundle } from '../../scripts/build-browser.mjs';

let dir: string;
let main: BundleInfo;
let gitHttp: BundleInfo;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docdb-git-http-bundle-'));
  [main, gitHttp] = await Promise.all([buildBrowserBundle(dir), buildGitHttpBundle(dir)]);
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the docdb/git-http bundle', () => {
  it('is self-contained ESM with no Node built-in in its graph', async () => {
    console.log(`git-http.bundle.js: ${gitHttp.bytes} bytes minified, ${gitHttp.gzipBytes} bytes min+gzip`);
    const code = await readFile(gitHttp.file, 'utf8');
    expect(code).not.toMatch(/\bimport\s*[{*\w][^;]*from\s*["']/);
    expect(code).not.toMatch(/\bimport\(/);
    expect(gitHttp.inputs.filter((p) => p.startsWith('node:'))).toEqual([]);
    expect(gitHttp.inputs).toContain('src/stores/git-http/git-http-refstore.ts');
    expect(gitHttp.inputs).toContain('src/stores/git-http/pack-check.ts');
    expect(gitHttp.inputs.some((p) => p.includes('node_modules/pako/'))).toBe(true);
    expect(gitHttp.inputs.filter((p) => /node_modules\/(isomorphic-git|buffer)\//.test(p))).toEqual([]);
  });

  it('exports the store, the cache backends and the errors (with their real class names)', async () => {
    const mod = await import(gitHttp.file);
    expect(typeof mod.GitHttpRefStore).toBe('function');
    expect(typeof mod.IndexedDbCacheBackend).toBe('function');
    expect(typeof mod.MemoryCacheBackend).toBe('function');
    expect(new mod.errors.ConcurrentUpdate('refs/x/y', 'a'.repeat(40), 1).name).toBe('ConcurrentUpdate');
  });

  it('is not in the main docdb/browser bundle', async () => {
    expect(main.inputs.filter((p) => p.includes('git-http') || p.includes('isomorphic-git'))).toEqual([]);
    const code = await readFile(main.file, 'utf8');
    expect(code).not.toContain('git-upload-pack');
    expect(code).not.toContain('git-receive-pack');
  });
});
