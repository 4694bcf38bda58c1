/**
 * The package installs and its docs run: `npm pack` (prepack builds lib/), install the tarball into a
 * fresh project offline, then — as a user would —
 * - load EVERY subpath of package.json `exports` (new entry points are covered automatically),
 * - type-check a consumer .ts file against the published types,
 * - run `npx docdb --version`,
 * - run the README's library examples and CLI sessions verbatim against `docdb emulator` and a bare
 *   repository, with the installed `docdb` on PATH.
 * Also: bin/docdb.js of this checkout works after `npm ci` (the `prepare` script built lib/).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';
import { installConsumer, PKG, packCopy, REPO, sh, taggedBlock } from './consumer.js';

const EMULATOR_PORT = 8787; // the port the README's examples use
let tmp: ReturnType<typeof tempDir>;
let tarball: string;
let consumer: string;
let readme: string;

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
  tarball = packCopy(tmp.dir);
  consumer = installConsumer(tmp.dir, tarball);
  readme = readFileSync(join(consumer, 'node_modules', PKG.name, 'README.md'), 'utf8'); // the README that ships
  writeFileSync(join(consumer, 'readme-library.ts'), taggedBlock(readme, 'library-example'));
  writeFileSync(join(consumer, 'readme-git.ts'), taggedBlock(readme, 'git-store-example'));
}, 300_000);
afterAll(() => tmp?.cleanup());

describe('the packed package', () => {
  it('contains lib/, the bin, the Action bundle and docs, and every exports target', () => {
    const files = sh('tar', ['-tzf', tarball], tmp.dir).split('\n');
    for (const f of [
      'lib/index.js',
      'lib/index.d.ts',
      'lib/node.js',
      'lib/cli/main.js',
      'bin/docdb.js',
      'dist/index.js',
      'action.yml',
      'README.md',
      'docs/cli.md',
      'docs/git-stores.md',
    ]) {
      expect(files, f).toContain(`package/${f}`);
    }
    expect(files.some((f) => f.startsWith('package/__tests__') || f.startsWith('package/src/'))).toBe(false);
    const targets = Object.values(PKG.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : Object.values(t as Record<string, string>),
    );
    for (const t of targets) expect(files, t).toContain(`package/${t.replace(/^\.\//, '')}`);
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
    expect(loaded['docdb/node']).toEqual(expect.arrayContaining(['GitRefStore', 'SubprocessGitRefStore']));
    expect(loaded.docdb).toEqual(expect.arrayContaining(['DocumentStore', 'RemoteApiRefStore', 'MemoryRefStore']));
    // The platform-neutral entry point never carries the Node-only stores.
    expect(loaded.docdb).not.toContain('GitRefStore');
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

  it('a consumer .ts file type-checks against the published types (README examples included)', () => {
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
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(REPO, 'node_modules', '@types')],
        },
        include: ['*.ts'],
      }),
    );
    sh(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], consumer);
  });

  it('npx docdb --version prints the package version; --help works', () => {
    expect(sh('npx', ['--no-install', 'docdb', '--version'], consumer, userEnv()).trim()).toBe(PKG.version);
    expect(sh('npx', ['--no-install', 'docdb', '--help'], consumer, userEnv())).toContain('doc put');
  });

  it('bin/docdb.js of this checkout works (lib/ was built by npm ci through "prepare")', () => {
    expect(PKG).toMatchObject({
      scripts: { prepare: expect.stringContaining('build:lib'), prepack: expect.stringContaining('build:lib') },
    });
    expect(sh(process.execPath, [join(REPO, 'bin', 'docdb.js'), '--version'], REPO).trim()).toBe(PKG.version);
  });
});

describe('the README runs as written', () => {
  let emulator: ChildProcess | undefined;
  beforeAll(async () => {
    // The examples name port 8787: it must be free.
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', () => reject(new Error(`port ${EMULATOR_PORT} is in use: the README examples need it free`)));
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
  }, 60_000);
  afterAll(async () => {
    if (emulator && emulator.exitCode === null) {
      const exited = new Promise((r) => emulator!.once('exit', r));
      emulator.kill('SIGINT');
      await exited;
    }
  });

  const tsx = () => ['--import', join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')];

  it('the library example', () => {
    const out = sh(process.execPath, [...tsx(), 'readme-library.ts'], consumer, userEnv());
    expect(out.trim()).toBe('true { stars: 3 }');
  });

  it('the GitRefStore example', () => {
    git(['init', '-q', '--bare', join(consumer, 'data.git')]);
    const out = sh(process.execPath, [...tsx(), 'readme-git.ts'], consumer, userEnv());
    expect(out.trim()).toBe("[ 'hello' ]");
  });

  const session = (name: string) => {
    const dir = join(tmp.dir, name);
    sh('mkdir', ['-p', dir], tmp.dir);
    return sh('bash', ['-e', '-o', 'pipefail', '-c', taggedBlock(readme, name)], dir, userEnv());
  };

  const expectSession = (out: string) => {
    const lines = out.trim().split('\n');
    const shas = lines.filter((l) => /^[0-9a-f]{40}$/.test(l));
    expect(shas).toHaveLength(2); // the second put and the delete print their versions (the first is captured in $v1)
    const envelopes = out.match(/"text": "[^"]+"/g);
    expect(envelopes).toEqual(['"text": "hello again"', '"text": "hello"']); // tip, then --version "$v1"
    expect(lines).toContain('notes/note/hello');
    // history: "<version> <date> <author>  <message>", newest first (the author differs per store).
    expect(lines.filter((l) => /^[0-9a-f]{40} \S+ .+ {2}docdb: put notes\/note\/hello\.json$/.test(l))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/exit code 3|docdb: put notes\/note\/hello\.json/);
    expect(out).toContain('exit code 3');
  };

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
