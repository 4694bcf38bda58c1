/**
 * `prepare` (scripts/build-lib.mjs) builds lib/ only when it is not already built from the same inputs: npm
 * runs `prepare` on `npm ci` and again on `npm pack`/`npm publish`, and the second must not rebuild. A fake
 * build in a temporary package stands in for tsc and esbuild; install.test.ts checks the real `npm pack`.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLib, staleReason } from '../../scripts/build-lib.mjs';
import { tempDir } from '../git/helpers.js';

let tmp: ReturnType<typeof tempDir>;
let builds: number;
const root = () => tmp.dir;
const write = (path: string, text: string) => {
  mkdirSync(join(root(), path, '..'), { recursive: true });
  writeFileSync(join(root(), path), text);
};
/** What the real build leaves: every file package.json promises. */
const fakeBuild = () => {
  builds++;
  write('lib/index.js', 'export {};\n');
  write('lib/index.d.ts', 'export {};\n');
};
const run = () => ensureLib(root(), fakeBuild, { log: () => {} });

beforeEach(() => {
  tmp = tempDir('docdb-build-lib-');
  builds = 0;
  write(
    'package.json',
    JSON.stringify({ exports: { '.': { types: './lib/index.d.ts', default: './lib/index.js' } }, bin: {} }),
  );
  write('src/index.ts', 'export {};\n');
  write('tsconfig.json', '{}\n');
});
afterEach(() => tmp.cleanup());

describe('prepare builds lib/ only when it is stale', () => {
  it('builds a fresh clone, then finds lib/ current on the next run (npm pack after npm ci)', () => {
    expect(run()).toEqual({ built: true, reason: 'lib/ has not been built (no lib/.build-inputs)' });
    expect(run()).toEqual({ built: false, reason: null });
    expect(builds).toBe(1);
  });

  it('builds again after a source, a config file or the lockfile changed, or a new source file', () => {
    run();
    for (const change of [
      () => write('src/index.ts', 'export const a = 1;\n'),
      () => write('src/new/file.ts', 'export {};\n'),
      () => write('tsconfig.json', '{ "compilerOptions": {} }\n'),
      () => write('package-lock.json', '{}\n'),
    ]) {
      change();
      expect(staleReason(root())).toBe('src/ or the build configuration changed');
      expect(run().built).toBe(true);
      expect(run().built).toBe(false);
    }
    expect(builds).toBe(5);
  });

  it('builds again when a promised file is missing or lib/ was emptied (npm run build:lib alone)', () => {
    run();
    rmSync(join(root(), 'lib/index.d.ts'));
    expect(staleReason(root())).toBe('lib/ lacks lib/index.d.ts');
    run();
    rmSync(join(root(), 'lib'), { recursive: true });
    expect(run().built).toBe(true);
    expect(builds).toBe(3);
  });

  it('a failed build leaves no fingerprint, so the next run builds again', () => {
    expect(() =>
      ensureLib(
        root(),
        () => {
          throw new Error('tsc failed');
        },
        { log: () => {} },
      ),
    ).toThrow('tsc failed');
    expect(run().built).toBe(true);
  });

  it('an edit made while the build runs makes the next run build again', () => {
    ensureLib(
      root(),
      () => {
        fakeBuild();
        write('src/index.ts', 'export const during = 1;\n');
      },
      { log: () => {} },
    );
    expect(run().built).toBe(true);
  });

  it('--force builds in any case', () => {
    run();
    expect(ensureLib(root(), fakeBuild, { force: true, log: () => {} })).toEqual({ built: true, reason: 'forced' });
  });
});
