#!/usr/bin/env node
/**
 * Build lib/ (`npm run build:lib && npm run build:browser`) unless it is already built from these very
 * inputs. It is the `prepare` script, which npm runs on `npm ci`/`npm install` in a checkout AND again on
 * `npm pack`/`npm publish`: without this check, `npm ci && npm pack` built lib/ twice (and a `prepack`
 * doing the same made it three times).
 *
 * "Built from these inputs" means: lib/.build-inputs holds the fingerprint of every input of the build
 * (below) as it was when the last complete build started, and every file package.json's `exports` and
 * `bin` name exists. The fingerprint is taken before building and written after, so a source edited
 * during a build makes the next run build again. `npm run build:lib` alone empties lib/ (and the
 * fingerprint with it): a partial build never counts as current.
 *
 *   node scripts/build-lib.mjs          # build when stale, else say lib/ is current
 *   node scripts/build-lib.mjs --force  # build in any case
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: the sources, its configuration and scripts, the dependency versions. */
export const BUILD_INPUTS = [
  'src',
  'scripts/build-lib.mjs',
  'scripts/build-browser.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
/** The fingerprint file, inside lib/ so that removing lib/ removes it. */
export const STAMP = 'lib/.build-inputs';

/** `path` relative to `root` if it is a file, every file under it if it is a directory (sorted), else nothing. */
function filesOf(root, path) {
  const full = join(root, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();
}

/**
 * SHA-256 over the path and bytes of every build input under `root`.
 *
 * @example
 * inputsFingerprint('.'); // '3f1c…' — changes when any file of src/ (or the config) changes
 */
export function inputsFingerprint(root) {
  const hash = createHash('sha256');
  for (const f of BUILD_INPUTS.flatMap((input) => filesOf(root, input))) {
    hash
      .update(`${f}\0`)
      .update(readFileSync(join(root, f)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The files package.json promises (exports targets and bin), relative to `root`. */
function promisedFiles(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const targets = Object.values(pkg.exports ?? {}).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t)));
  return [...targets, ...Object.values(pkg.bin ?? {})].map((t) => t.replace(/^\.\//, ''));
}

/**
 * Why lib/ under `root` must be built, or null when it is current.
 *
 * @example
 * staleReason('.'); // null after a build; 'src/ or the build configuration changed' after an edit
 */
export function staleReason(root) {
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return 'lib/ has not been built (no lib/.build-inputs)';
  const missing = promisedFiles(root).filter((f) => !existsSync(join(root, f)));
  if (missing.length > 0) return `lib/ lacks ${missing.join(', ')}`;
  if (readFileSync(stamp, 'utf8').trim() !== inputsFingerprint(root)) return 'src/ or the build configuration changed';
  return null;
}

/**
 * Build lib/ under `root` with `build` when it is stale (or `force`); returns what was done. Says which on
 * stderr (by default), so that `npm pack --json` prints only JSON on stdout when lib/ is current.
 *
 * @example
 * ensureLib('.', () => run('npm', ['run', 'build:lib'])); // { built: false, reason: null } when current
 */
export function ensureLib(root, build, { force = false, log = (line) => console.error(line) } = {}) {
  const reason = force ? 'forced' : staleReason(root);
  if (reason === null) {
    log('lib/ is up to date with src/ (lib/.build-inputs): not rebuilt');
    return { built: false, reason };
  }
  log(`building lib/: ${reason}`);
  const fingerprint = inputsFingerprint(root); // before the build: an edit during it makes the next run build
  build();
  writeFileSync(join(root, STAMP), `${fingerprint}\n`);
  return { built: true, reason };
}

/** `npm run <script>` in `root`; exits with its status when it fails. */
function npmRun(root, script) {
  const r = spawnSync('npm', ['run', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  ensureLib(
    root,
    () => {
      npmRun(root, 'build:lib');
      npmRun(root, 'build:browser');
    },
    { force: process.argv.includes('--force') },
  );
}
