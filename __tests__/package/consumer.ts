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

/**
 * `npm pack` in a copy of the package sources (so this checkout's lib/ is never rebuilt under other
 * running tests); `prepack` builds lib/ there. Returns the tarball path.
 */
export function packCopy(work: string): string {
  const copy = join(work, 'package-src');
  for (const entry of new Set([
    ...PKG.files,
    'src',
    'scripts',
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
  ])) {
    if (entry === 'lib') continue; // built by prepack, never copied
    if (existsSync(join(REPO, entry))) cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const out = sh('npm', ['pack', '--pack-destination', work, '--json'], copy);
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as [{ filename: string }];
  return join(work, filename);
}

/** A project depending on the tarball, installed with `npm ci --offline`. Returns its directory. */
export function installConsumer(work: string, tarball: string): string {
  const dir = join(work, 'consumer');
  const spec = `file:${tarball}`;
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; link?: boolean }>;
  };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { [PKG.name]: spec } },
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
  const write = (name: string, value: unknown) => writeFileSync(join(dir, name), `${JSON.stringify(value, null, 2)}\n`);
  mkdirSync(dir, { recursive: true });
  write('package.json', { name: 'consumer', private: true, type: 'module', dependencies: { [PKG.name]: spec } });
  write('package-lock.json', { name: 'consumer', lockfileVersion: 3, requires: true, packages });
  sh('npm', ['ci', '--offline', '--no-audit', '--no-fund'], dir);
  return dir;
}
