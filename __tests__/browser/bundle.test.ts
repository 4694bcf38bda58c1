/**
 * The `docdb/browser` bundle: an ESM entry and the chunks it loads on first use, each under its size
 * budget, with no Node built-in anywhere in their graph — and the guard that enforces it really rejects a
 * Node import.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_DEPENDENCIES,
  type BrowserBundleInfo,
  BUNDLE_GZIP_BUDGET,
  buildBrowserBundle,
  buildBundle,
  buildPlayground,
  ENTRY_GZIP_BUDGET,
  INITIAL_GZIP_BUDGET,
} from '../../scripts/build-browser.mjs';

let dir: string;
let bundle: BrowserBundleInfo;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docdb-bundle-'));
  bundle = await buildBrowserBundle(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Node-only globals in the source of browser code (esbuild's platform check sees imports, not globals). */
async function nodeGlobalsIn(inputs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of inputs.filter((p) => !p.includes('node_modules'))) {
    const code = (await readFile(file, 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const m of code.matchAll(/\b(Buffer|process|__dirname|__filename|setImmediate)\s*[.(]/g))
      found.push(`${file}: ${m[1]}`);
  }
  return found;
}

describe('docdb/browser bundle', () => {
  it(`its entry is at most ${ENTRY_GZIP_BUDGET} bytes min+gzip, entry and chunks together at most ${BUNDLE_GZIP_BUDGET}`, () => {
    console.log(`docdb.bundle.js: ${bundle.bytes} bytes minified, ${bundle.gzipBytes} bytes min+gzip`);
    for (const c of bundle.chunks)
      console.log(`  ${basename(c.file)}: ${c.gzipBytes} bytes min+gzip${c.initial ? ' (static)' : ''}`);
    console.log(`up front ${bundle.initialGzipBytes}, in all ${bundle.totalGzipBytes} bytes min+gzip`);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(ENTRY_GZIP_BUDGET);
    expect(bundle.initialGzipBytes).toBeLessThanOrEqual(INITIAL_GZIP_BUDGET);
    expect(bundle.totalGzipBytes).toBeLessThanOrEqual(BUNDLE_GZIP_BUDGET);
  });

  it('leaves the index engine, the schema validator, expectations, queries, migrations, the versions reader and the store readers a get/put does not use to lazy chunks', () => {
    const lazy = bundle.chunks.filter((c) => !c.initial);
    const initialInputs = new Set(
      [bundle.file, ...bundle.chunks.filter((c) => c.initial).map((c) => c.file)].flatMap((f) =>
        f === bundle.file ? bundle.entryInputs : (bundle.chunks.find((c) => c.file === f)?.inputs ?? []),
      ),
    );
    for (const piece of [
      'src/document/declarations.ts',
      'src/document/indexes/update.ts',
      'src/document/query.ts',
      'src/document/schema/compile.ts',
      'src/document/expect/write.ts',
      'src/document/migrate/migrate.ts',
      'src/document/versions-of.ts',
      'src/document/type-series.ts',
      'src/browser/repo-projection.ts',
      // RemoteApiRefStore's (src/stores/remote-api/features.ts)
      'src/stores/remote-api/history.ts',
      'src/stores/remote-api/versions.ts',
      'src/stores/remote-api/compare-changes.ts',
      'src/stores/remote-api/bulk-reads.ts',
      'src/stores/remote-api/graphql-blobs.ts',
      'src/stores/remote-api/tip-files.ts',
      'src/stores/remote-api/section-archives.ts',
      'src/stores/remote-api/archive-reads.ts',
      'src/stores/remote-api/versioned-reads.ts',
      'src/stores/remote-api/parts-loop.ts',
      'src/stores/remote-api/update-refs.ts',
      'src/stores/remote-api/delete-refs.ts',
      'src/stores/remote-api/matching-refs.ts',
    ]) {
      expect(initialInputs.has(piece), piece).toBe(false);
      expect(
        lazy.some((c) => c.inputs.includes(piece)),
        piece,
      ).toBe(true);
    }
    expect([...initialInputs].filter((p) => p.includes('node_modules/@cfworker/'))).toEqual([]);
    // What every DocumentStore write uses stays up front: the derive reads and GraphQL's path levels.
    for (const piece of ['src/stores/remote-api/derived-reads.ts', 'src/stores/remote-api/graphql.ts']) {
      expect(initialInputs.has(piece), piece).toBe(true);
    }
    // ONE chunk up front beside the entry: each lazy piece re-exports the entry's namespace, so no code the
    // entry needs is split by which lazy pieces share it.
    expect(bundle.chunks.filter((c) => c.initial)).toHaveLength(1);
    // One chunk per lazy piece, beside the entry, content-hashed.
    for (const name of [
      'write-kit',
      'query',
      'migrate',
      'versions-of',
      'type-series',
      'repo-projection',
      'remote-api-history',
      'remote-api-bulk',
      'remote-api-refs',
      'parts-loop',
    ]) {
      expect(
        lazy.filter((c) => new RegExp(`^docdb\\.chunk-${name}-[A-Z0-9]{8}\\.js$`).test(basename(c.file))),
      ).toHaveLength(1);
    }
  });

  it('is ESM with no Node built-in, no Octokit, no zod/yaml in its graph; it imports only its own chunks', async () => {
    const code = await readFile(bundle.file, 'utf8');
    // Imports (static and dynamic) only of its own chunks beside it, nothing else.
    const imported = [...code.matchAll(/\bimport\s*(?:[{*\w][^;]*?from\s*|\()["']([^"']+)["']/g)].map((m) =>
      String(m[1]),
    );
    const chunks = new Set(bundle.chunks.map((c) => `./${basename(c.file)}`));
    expect(imported.length).toBeGreaterThan(0);
    for (const path of imported) expect(chunks.has(path), path).toBe(true);
    // No CommonJS shim (esbuild's __require).
    expect(code).not.toMatch(/__require/);
    expect(code).toMatch(/export\s*\{/);
    // Third-party code only from the packages chosen for the browser (the schema validator).
    const allowed = (p: string) => BROWSER_DEPENDENCIES.some((d) => p.includes(`node_modules/${d}/`));
    expect(bundle.inputs.filter((p) => p.startsWith('node:') || (p.includes('node_modules') && !allowed(p)))).toEqual(
      [],
    );
    expect(bundle.inputs.some((p) => p.includes('node_modules/@cfworker/json-schema/'))).toBe(true);
    expect(await nodeGlobalsIn(bundle.inputs)).toEqual([]);
    expect(bundle.inputs).toContain('src/browser/client.ts');
    expect(bundle.inputs).toContain('src/stores/indexeddb/indexeddb-refstore.ts');
  });

  it('exports loadDocDbClient and the stores when imported as a module', async () => {
    const mod = await import(bundle.file);
    expect(typeof mod.loadDocDbClient).toBe('function');
    expect(typeof mod.IndexedDbRefStore).toBe('function');
    expect(typeof mod.IndexedDbCacheBackend).toBe('function');
    expect(typeof mod.RemoteApiRefStore).toBe('function');
    expect(typeof mod.errors.ConcurrentUpdate).toBe('function');
  });

  it('errors keep their class names through minification (err.name is PreconditionFailed, not a mangled name)', async () => {
    const mod = await import(bundle.file);
    const err = new mod.errors.PreconditionFailed('k', null, 'a'.repeat(40), null);
    expect(err.name).toBe('PreconditionFailed');
    expect(err.toJSON().name).toBe('PreconditionFailed');
    expect(new mod.errors.InvalidKey('x', 'empty', 'bad').name).toBe('InvalidKey');
  });

  it('every error class of the bundle is named as it is exported (the bundle is built without keepNames)', async () => {
    const mod = await import(bundle.file);
    expect(mod.errors.ALL_ERRORS.length).toBeGreaterThan(15);
    for (const cls of mod.errors.ALL_ERRORS) {
      const e = new cls('a', 'b', 'c', 'd');
      expect(mod.errors[e.name]).toBe(cls);
      expect(e.toJSON().name).toBe(e.name);
      expect(String(e)).toBe(`${e.name}: ${e.message}`);
    }
    expect(new mod.errors.DocDbError('m').name).toBe('DocDbError');
  });

  it('the Node-globals scan finds Buffer and process in browser sources (the guard itself)', async () => {
    const file = join(dir, 'globals.ts');
    await writeFile(
      file,
      "// Buffer.from in a comment is fine\nexport const a = Buffer.from('x');\nexport const b = process.env.X;\n",
    );
    expect(await nodeGlobalsIn([file])).toEqual([`${file}: Buffer`, `${file}: process`]);
  });

  it('fails the build when browser code imports a Node module (the guard itself)', async () => {
    const entry = join(dir, 'bad.ts');
    await writeFile(entry, "import { createHash } from 'node:crypto';\nexport const h = createHash('sha1');\n");
    await expect(buildBundle(entry, join(dir, 'bad.js'))).rejects.toThrow(/Node built-in "node:crypto"/);
    await writeFile(entry, "import { readFileSync } from 'fs';\nexport const f = readFileSync;\n");
    await expect(buildBundle(entry, join(dir, 'bad.js'))).rejects.toThrow(/Node built-in "fs"/);
  });

  it('builds the playground with the in-page emulator in its own lazily loaded chunk, free of Node and zod', async () => {
    const pg = await buildPlayground(dir);
    expect(pg.files).toEqual(expect.arrayContaining(['index.html', 'styles.css', 'playground.js']));
    expect(pg.files.some((f) => /^chunks\/offline-world-.*\.js$/.test(f))).toBe(true);
    expect(pg.inputs).toContain('src/emulator/handler.ts');
    const allowed = (p: string) => BROWSER_DEPENDENCIES.some((d) => p.includes(`node_modules/${d}/`));
    expect(pg.inputs.filter((p) => p.startsWith('node:') || (p.includes('node_modules') && !allowed(p)))).toEqual([]);
    expect(await nodeGlobalsIn(pg.inputs)).toEqual([]);
    const main = await readFile(join(pg.dir, 'playground.js'), 'utf8');
    // The emulator core is not in the page's main script: it loads only in offline mode.
    expect(main).not.toContain('Git Repository is empty.');
  });
});
