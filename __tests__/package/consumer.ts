/**
 * Pack this package the way `npm publish` would and install the tarball into a fresh project, fully
 * offline: the consumer's lockfile is derived from ours (production entries only), so `npm ci
 * --offline` takes every dependency from the npm cache that `npm ci` of this repository filled.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');

interface PackageJson {
  name: string;
  version: string;
  license?: string;
  files: string[];
  dependencies: Record<string, string>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  exports: Record<string, unknown>;
  scripts: Record<string, string>;
}

export const PKG = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as PackageJson;

/** Run a command; returns stdout. Throws with stdout and stderr on failure. */
export function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 1 << 26,
    });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`);
  }
}

/** The packed tarball, and what `npm pack` printed when asked again after the `npm ci` build. */
export interface Packed {
  tarball: string;
  /** Output of `npm run prepare` (what `npm ci` runs) in the fresh copy: it builds lib/. */
  prepareLog: string;
  /** Output of the `npm pack` that followed (npm runs `prepare` again before packing). */
  packLog: string;
}

/**
 * `npm pack` in a copy of the package sources (so this checkout's lib/ is never rebuilt under other
 * running tests), the way a release does it after `npm ci`: `npm run prepare` (what `npm ci` runs) builds
 * lib/, then `npm pack` runs `prepare` again, which must find lib/ current. Returns the tarball and both logs.
 */
export function packCopy(work: string): Packed {
  const copy = join(work, 'package-src');
  const topLevel = PKG.files.filter((f) => !f.startsWith('!')).map((f) => f.split('/')[0]!);
  for (const entry of new Set([
    ...topLevel,
    'src',
    'scripts',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
  ])) {
    if (entry === 'lib') continue; // built by prepare, never copied
    if (existsSync(join(REPO, entry))) cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // stderr too: npm prints the scripts it runs there.
  const both = (args: string[]) => sh('bash', ['-c', 'npm "$@" 2>&1', 'npm', ...args], copy);
  const prepareLog = both(['run', 'prepare']);
  const out = both(['pack', '--pack-destination', work, '--json']);
  const json = out.indexOf('\n[');
  const [{ filename }] = JSON.parse(out.slice(json + 1)) as [{ filename: string }];
  return { tarball: join(work, filename), prepareLog, packLog: out.slice(0, json) };
}

/**
 * A project depending on the tarball, installed with `npm ci --offline`. Returns its directory.
 * `init: true` makes it the way a newcomer starts one — `npm init -y` (CommonJS: npm writes
 * `"type": "commonjs"`) — with the package.json `npm install ./docdb-x.tgz` would leave; otherwise it is an
 * ES module project (`"type": "module"`).
 */
export function installConsumer(work: string, tarball: string, { name = 'consumer', init = false } = {}): string {
  const dir = join(work, name);
  const spec = `file:${tarball}`;
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const packages: Record<string, unknown> = {
    '': { name, dependencies: { [PKG.name]: spec } },
    [`node_modules/${PKG.name}`]: {
      version: PKG.version,
      resolved: spec,
      license: PKG.license,
      dependencies: PKG.dependencies,
      bin: PKG.bin,
      engines: PKG.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path !== '' && !entry.dev && !entry.link) packages[path] = entry;
  }
  const write = (file: string, value: unknown) => writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
  mkdirSync(dir, { recursive: true });
  let manifest: Record<string, unknown> = { name, private: true, type: 'module' };
  if (init) {
    sh('npm', ['init', '-y'], dir);
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  }
  write('package.json', { ...manifest, dependencies: { [PKG.name]: spec } });
  write('package-lock.json', { name, lockfileVersion: 3, requires: true, packages });
  sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], dir);
  return dir;
}
