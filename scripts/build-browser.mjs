#!/usr/bin/env node
/**
 * Browser builds with esbuild (platform "browser": a Node built-in anywhere in the graph fails the build):
 * - lib/browser/docdb.bundle.js — `docdb/browser` as ONE self-contained, minified ESM file;
 * - lib/browser/git-http.bundle.js — `docdb/git-http` (GitHttpRefStore) as its own file, so the main
 *   bundle does not carry the git protocol and pack reader;
 * - lib/playground/ — the playground page (index.html, styles.css, playground.js and the lazily
 *   loaded in-page emulator chunk);
 * - lib/viewer/ — the viewer (issue 29): index.html, viewer.js (the client included), viewer.css.
 *
 *   node scripts/build-browser.mjs            # writes lib/browser/docdb.bundle.js and lib/playground/
 *   node scripts/build-browser.mjs --out DIR  # writes DIR/browser/… and DIR/playground/… instead
 */
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Size budget of the bundle's ENTRY file, min+gzip (issue 40 "Budgets"): 60 KB, as issue 10 first set for the
 * whole bundle. Since every lazy piece re-exports the entry's namespace (see `lazyFeatures`), the entry file
 * holds only `docdb/browser`'s export list (~0.6 KB) and the code sits in one chunk it imports: the budget
 * that matters is {@link INITIAL_GZIP_BUDGET}.
 */
export const ENTRY_GZIP_BUDGET = 60 * 1024;

/**
 * What a page downloads before its first call — the entry and the chunks it imports statically — min+gzip:
 * 60 KB (issue 40: "a page that only gets and puts pays for neither" the index, query and history readers).
 * Measured 71,914 bytes before (the entry and 6 small chunks of code it shared with lazy pieces, each gzipped
 * alone), 59,330 after (the entry and ONE chunk; RemoteApiRefStore's history, versions, bulk, GraphQL blob
 * batch, archive, parts and other-ref code, `typeSeries` and `projectRepository` load on first use).
 */
export const INITIAL_GZIP_BUDGET = 60 * 1024;

/**
 * Size budget of the whole bundle (entry + every chunk), min+gzip: 60 KB (issue 10), raised to 72 KB when every write path grew the index
 * maintenance and queries (issue 28), rate-limit pacing (issue 30) and compaction readers (issue 31) —
 * docs/decisions.md "Browser bundle budget" — to 76 KB for data expectations on every write path
 * (issue 38, src/document/expect: +4.5 KB min+gzip, measured 70,460 → 75,024 bytes), and to 88 KB for
 * schemas checked on every write path, the browser client's included (issue 38: the validator,
 * @cfworker/json-schema and its fast path, ~12 KB, and the declarations hook; measured 89,507 bytes), and to
 * 96 KB for `DocumentStore.migrate` (src/document/migrate, ~4 KB) and the pattern guard's parser
 * (measured 95,998 bytes), to 97 KB for the archive read ahead of a listing and `changes({ withPatches })` (issue 41,
 * +0.43 KB) — to 108 KB when the bundle was split into an entry and chunks (issue 40): the
 * same code (301 KB minified, 296 KB as one file), but each of its 12 files is gzipped alone, without the
 * others' repeats to refer back to (measured 105,953 bytes in all) — to 112 KB when the store's readers
 * and two entry functions became lazy pieces too (issue 40, the first download 71,914 → 59,330 bytes): 15
 * files, and the names the shared chunk exports to the pieces (measured 109,795 bytes in all) — and to 124 KB
 * for full-text search (issue 42: the search core, the write path keeping it and `DocumentStore.search`, all in
 * lazy chunks; the first download stays within its budget) — and to 128 KB for the search, facets and
 * index-format-2 merges (issue 42): the search core (~10 KB, a chunk the write kit and `search` share), the
 * front-coded rows and their base64url SHAs, now a chunk the write kit, query, migrate and `typeSeries` share
 * rather than the first download (measured 130,350 bytes in all, 18 files; the first download 60,418) — and to
 * 132 KB for the search build's flat posting arrays and term table (issue 42: `buildSearch` 3.5–5× cheaper in
 * CPU for +1.6 KB in the write kit's search chunk; measured 131,964 bytes in all, the first download unchanged)
 * — and to 136 KB for the rest of issue 42 (search stored format 2's bit codes and group cuts, the delta parts
 * and their flush, the tip-and-files GraphQL read and its child folders, `rebuildSearch`; all in lazy chunks, the first download
 * 60,859 bytes; measured 138,539 bytes in all).
 */
export const BUNDLE_GZIP_BUDGET = 136 * 1024;

/**
 * Packages the browser bundle may inline (everything else from node_modules is refused by its test): each
 * chosen for the browser on purpose, recorded in docs/decisions.md.
 */
export const BROWSER_DEPENDENCIES = ['@cfworker/json-schema'];

const common = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  // Readable function and class names in the playground and git-http bundles. The docdb bundle builds
  // without them (buildBrowserBundle): docdb's errors take their name from their `code`, not their class.
  keepNames: true,
  legalComments: 'none',
  metafile: true,
  logLevel: 'silent',
  // Code is platform-neutral by construction; fail loudly if a Node module sneaks in.
  plugins: [
    {
      name: 'no-node-builtins',
      setup(build) {
        build.onResolve(
          {
            filter:
              /^node:|^(fs|path|os|crypto|http|https|net|stream|zlib|url|child_process|worker_threads|buffer|util|events)(\/.*)?$/,
          },
          (args) => ({
            errors: [
              {
                text: `Node built-in "${args.path}" imported by ${args.importer}: browser code must not use Node modules`,
              },
            ],
          }),
        );
      },
    },
    {
      // The emulator's GraphQL executor loads GitHub's schema with node:fs; in a page it is replaced by a
      // stub that refuses GraphQL (src/emulator/graphql/unavailable.ts).
      name: 'emulator-graphql-unavailable',
      setup(build) {
        build.onResolve({ filter: /[\\/]graphql[\\/]execute\.js$/ }, (args) =>
          args.importer.includes(`${join('src', 'emulator')}`)
            ? { path: join(root, 'src/emulator/graphql/unavailable.ts') }
            : undefined,
        );
      },
    },
  ],
};

/** Build one entry to one self-contained ESM file; returns its size (raw and min+gzip) and inputs. */
export async function buildBundle(entry, outfile, extra = {}) {
  const esbuild = await import('esbuild');
  const plugins = [...(extra.plugins ?? []), ...common.plugins];
  const result = await esbuild.build({ ...common, ...extra, plugins, entryPoints: [entry], outfile });
  const code = await readFile(outfile);
  return {
    file: outfile,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  };
}

/**
 * The loader seams of the browser's optional pieces, each an eager module (what Node, `lib/`, the Action and
 * the one-file viewer use) and the browser bundle's lazy one, whose loaders `import()` each piece — so each
 * becomes a chunk of its own and what a page downloads first holds only what get/put/list/delete need:
 * - DocumentStore's features (src/document/features.ts → src/browser/lazy/features.ts): the declarations
 *   work, queries, migrations, the versions reader;
 * - RemoteApiRefStore's (src/stores/remote-api/features.ts → src/browser/lazy/remote-api-features.ts):
 *   history, versions and changes, bulk and versioned reads (GraphQL blob batches, archives), commits in
 *   parts, other refs;
 * - `docdb/browser`'s own async functions (src/browser/functions.ts → src/browser/lazy/functions.ts):
 *   `typeSeries`, `projectRepository`.
 * Each seam is `./features.js` (`./functions.js`) imported from its own directory (the document seam: from
 * src/document or below).
 */
const LAZY_SEAMS = [
  {
    specifier: './features.js',
    from: join(root, 'src', 'document'),
    below: true,
    lazy: join(root, 'src/browser/lazy/features.ts'),
  },
  {
    specifier: './features.js',
    from: join(root, 'src', 'stores', 'remote-api'),
    below: false,
    lazy: join(root, 'src/browser/lazy/remote-api-features.ts'),
  },
  {
    specifier: './functions.js',
    from: join(root, 'src', 'browser'),
    below: false,
    lazy: join(root, 'src/browser/lazy/functions.ts'),
  },
];

const lazyFeatures = {
  name: 'docdb-lazy-features',
  setup(build) {
    build.onResolve({ filter: /^\.\/(features|functions)\.js$/ }, (args) => {
      const dir = dirname(args.importer);
      const seam = LAZY_SEAMS.find(
        (s) => args.path === s.specifier && (dir === s.from || (s.below && dir.startsWith(`${s.from}${sep}`))),
      );
      return seam ? { path: seam.lazy } : undefined;
    });
    // Each piece a lazy seam imports becomes a chunk through a stand-in that also re-exports the entry's
    // namespace: then every module the entry holds is reachable from the entry AND every lazy piece, and
    // esbuild puts all of them in ONE shared chunk — instead of one small chunk per combination of lazy
    // pieces that shares it (each gzipped alone: 26 such chunks cost more than the lazy pieces saved).
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || dirname(args.importer) !== LAZY_DIR) return undefined;
      const real = await build.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: LAZY_PIECE };
    });
    build.onLoad({ filter: /.*/, namespace: LAZY_PIECE }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)};\nexport * as __docdbEntry from ${JSON.stringify(BROWSER_ENTRY)};\n`,
      resolveDir: dirname(args.path),
      loader: 'ts',
    }));
  },
};

/**
 * Where every module that `import()`s a lazy piece lives: the lazy side of each seam above, and
 * `loadSearchText` (src/browser/lazy/search-text.ts) — an `import()` from anywhere else skips the stand-in
 * and splits the entry's code into extra chunks.
 */
const LAZY_DIR = join(root, 'src', 'browser', 'lazy');

/** Whether a build input is a file (not one of the stand-ins `lazyFeatures` makes for lazy pieces). */
const isSource = (input) => !input.startsWith(`${LAZY_PIECE}:`);

/** The namespace of the stand-ins. */
const LAZY_PIECE = 'docdb-lazy-piece';

/** The `docdb/browser` entry module. */
const BROWSER_ENTRY = join(root, 'src/browser/index.ts');

/** Files of a `docdb/browser` build: the entry `docdb.bundle.js` and its chunks `docdb.chunk-<hash>.js`. */
const isDocDbBundleFile = (f) => f === 'docdb.bundle.js' || /^docdb\.chunk-[\w-]+\.js$/.test(f);

/**
 * `docdb/browser` in `outDir/browser/`: the entry `docdb.bundle.js` and, beside it, the chunks it imports on
 * first use (`docdb.chunk-<name>-<hash>.js`, content-hashed: a page or CDN may cache them forever). Returns
 * the entry's size and inputs, each chunk's, and the total min+gzip.
 */
export async function buildBrowserBundle(outDir = join(root, 'lib')) {
  const esbuild = await import('esbuild');
  const dir = join(outDir, 'browser');
  await mkdir(dir, { recursive: true });
  // Chunks of an earlier build have other hashes: remove them (git-http.bundle.js and the typings stay).
  for (const f of await readdir(dir)) if (isDocDbBundleFile(f)) await rm(join(dir, f));
  const result = await esbuild.build({
    ...common,
    // Without keepNames (~4.8 KB min+gzip): error classes take their `name` from their literal `code`
    // (src/core/errors.ts), the only names the library reads at run time.
    keepNames: false,
    plugins: [lazyFeatures, ...common.plugins],
    entryPoints: { 'docdb.bundle': BROWSER_ENTRY },
    outdir: dir,
    splitting: true,
    chunkNames: 'docdb.chunk-[name]-[hash]',
  });
  const files = [];
  for (const [path, out] of Object.entries(result.metafile.outputs)) {
    const file = resolve(root, path);
    const code = await readFile(file);
    files.push({
      file,
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: 9 }).length,
      inputs: Object.keys(out.inputs).filter(isSource),
      // Minified bytes of each module in this file: what a chunk holds, and why (bench/bundle.ts).
      modules: Object.fromEntries(
        Object.entries(out.inputs)
          .filter(([input]) => isSource(input))
          .map(([input, v]) => [input, v.bytesInOutput]),
      ),
    });
  }
  const entry = files.find((f) => f.file.endsWith('docdb.bundle.js'));
  // What a page downloads before its first call: the entry and the chunks it imports statically, and
  // theirs (esbuild moves the code the entry shares with lazy pieces into such a chunk); the lazy ones
  // load on first use.
  const outputs = result.metafile.outputs;
  const entryPath = Object.keys(outputs).find((p) => p.endsWith('docdb.bundle.js'));
  const staticPaths = new Set([entryPath]);
  for (const path of staticPaths) {
    for (const i of outputs[path].imports) if (i.kind === 'import-statement') staticPaths.add(i.path);
  }
  const staticFiles = [...staticPaths].map((p) => resolve(root, p));
  const initial = files.filter((f) => staticFiles.includes(f.file));
  const sum = (list) => list.reduce((n, f) => n + f.gzipBytes, 0);
  return {
    ...entry,
    inputs: Object.keys(result.metafile.inputs).filter(isSource),
    entryInputs: entry.inputs,
    chunks: files.filter((f) => f !== entry).map((f) => ({ ...f, initial: initial.includes(f) })),
    initialGzipBytes: sum(initial),
    totalGzipBytes: sum(files),
  };
}

/** `docdb/git-http` as one bundle in `outDir/browser/git-http.bundle.js` (its own file: the main bundle stays small). */
export function buildGitHttpBundle(outDir = join(root, 'lib')) {
  return buildBundle(join(root, 'src/git-http.ts'), join(outDir, 'browser', 'git-http.bundle.js'), {
    // Error classes report their own names (`err.name === 'ConcurrentUpdate'`), not minified ones.
    keepNames: true,
  });
}

/** The playground in `outDir/playground/`; returns the files written. */
export async function buildPlayground(outDir = join(root, 'lib')) {
  const esbuild = await import('esbuild');
  const dir = join(outDir, 'playground');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const result = await esbuild.build({
    ...common,
    entryPoints: { playground: join(root, 'src/playground/main.ts') },
    outdir: dir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
  });
  for (const f of ['index.html', 'styles.css']) await copyFile(join(root, 'src/playground', f), join(dir, f));
  return {
    dir,
    files: [
      'index.html',
      'styles.css',
      ...Object.keys(result.metafile.outputs).map((p) => p.slice(p.indexOf('playground/') + 11)),
    ],
    inputs: Object.keys(result.metafile.inputs),
  };
}

/**
 * The viewer only reads: its build swaps DocumentStore's features seam (src/document/features.ts) for
 * src/browser/read-only/features.ts — the same query, search and versions pieces, no write kit or
 * migrations (which refuse with InvalidConfig): measured, the viewer page 156,729 → 119,675 bytes min+gzip.
 */
const readOnlyFeatures = {
  name: 'docdb-read-only-features',
  setup(build) {
    const documentDir = join(root, 'src', 'document');
    build.onResolve({ filter: /^\.\/features\.js$/ }, (args) => {
      const dir = dirname(args.importer);
      return dir === documentDir || dir.startsWith(`${documentDir}${sep}`)
        ? { path: join(root, 'src/browser/read-only/features.ts') }
        : undefined;
    });
  },
};

/** Size budget of the whole viewer page (HTML + JS + CSS), min+gzip: issue 29's "page weight ≤ 150 KB". */
export const VIEWER_GZIP_BUDGET = 150 * 1024;

/**
 * The viewer in `outDir/viewer/`: `viewer.js` (one file, the client included), `viewer.css` (every
 * `src/viewer/styles/*.css` in name order) and `index.html` — with `apiUrl` written into its
 * `<meta name="docdb-api-url">` when given (the page never takes the API origin from its URL).
 */
export async function buildViewer(outDir = join(root, 'lib'), options = {}) {
  const dir = join(outDir, 'viewer');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const js = await buildBundle(join(root, 'src/viewer/main.ts'), join(dir, 'viewer.js'), {
    keepNames: false,
    plugins: [readOnlyFeatures],
  });
  const styleDir = join(root, 'src/viewer/styles');
  const styles = (await readdir(styleDir)).filter((f) => f.endsWith('.css')).sort();
  const css = (await Promise.all(styles.map((f) => readFile(join(styleDir, f), 'utf8')))).join('\n');
  await writeFile(join(dir, 'viewer.css'), css);
  const html = withApiUrl(await readFile(join(root, 'src/viewer/index.html'), 'utf8'), options.apiUrl);
  await writeFile(join(dir, 'index.html'), html);
  const gzip = (text) => gzipSync(text, { level: 9 }).length;
  return { dir, jsGzipBytes: js.gzipBytes, gzipBytes: js.gzipBytes + gzip(css) + gzip(html), inputs: js.inputs };
}

/**
 * index.html with its API URL replaced (an attribute value: quotes and angle brackets escaped), and its
 * Content-Security-Policy's `connect-src` narrowed to that URL's origin.
 */
export function withApiUrl(html, apiUrl) {
  if (apiUrl === undefined) return html;
  const attr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const escaped = attr(apiUrl);
  const origin = attr(new URL(apiUrl).origin);
  // Functions, not replacement strings: `$&` or `$1` in the URL are text.
  return html
    .replace(/(<meta name="docdb-api-url" content=")[^"]*(")/, (_m, a, b) => `${a}${escaped}${b}`)
    .replace(/(http-equiv="Content-Security-Policy"\s+content="[^"]*?connect-src )[^;"]*/, (_m, a) => `${a}${origin}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--out');
  const out = i > 0 ? resolve(process.argv[i + 1] ?? '') : join(root, 'lib');
  const bundle = await buildBrowserBundle(out);
  const gitHttp = await buildGitHttpBundle(out);
  const playground = await buildPlayground(out);
  const viewer = await buildViewer(out);
  console.log(`built ${gitHttp.file}: ${gitHttp.bytes} bytes, ${gitHttp.gzipBytes} bytes min+gzip`);
  console.log(
    `built ${bundle.file}: ${bundle.bytes} bytes, ${bundle.gzipBytes} bytes min+gzip, ` +
      `${bundle.initialGzipBytes} with the chunks it imports (budgets ${ENTRY_GZIP_BUDGET}, ${INITIAL_GZIP_BUDGET}), ` +
      `${bundle.chunks.length} chunks, ${bundle.totalGzipBytes} bytes min+gzip in all (budget ${BUNDLE_GZIP_BUDGET})`,
  );
  console.log(`built ${playground.dir}: ${playground.files.join(', ')}`);
  console.log(`built ${viewer.dir}: ${viewer.gzipBytes} bytes min+gzip in all (budget ${VIEWER_GZIP_BUDGET})`);
  if (viewer.gzipBytes > VIEWER_GZIP_BUDGET) {
    console.error('the viewer is over its size budget');
    process.exitCode = 1;
  }
  if (
    bundle.gzipBytes > ENTRY_GZIP_BUDGET ||
    bundle.initialGzipBytes > INITIAL_GZIP_BUDGET ||
    bundle.totalGzipBytes > BUNDLE_GZIP_BUDGET
  ) {
    console.error('bundle is over its size budget');
    process.exitCode = 1;
  }
}
