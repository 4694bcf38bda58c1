/**
 * Honest packs from real git read to git's own objects (ids and bytes, checked with `git cat-file`):
 * `git pack-objects` with ofs-deltas and with ref-deltas over text and binary files, with long delta
 * chains and copies past 64 KiB; and a thin pack (`--thin`), whose deltas name bases outside the pack,
 * read with those bases from `readBase` — and refused as `UnresolvedDeltas` when a base is not there.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/core/errors.js';
import type { ObjectType } from '../../src/core/git/objects.js';
import { type PackLimits, UnresolvedDeltas, unpack } from '../../src/stores/git-http/pack-reader.js';
import { GIT_TEST_ENV, git, tempDir } from '../git/helpers.js';

const LIMITS: PackLimits = {
  maxObjects: 5_000_000,
  maxObjectBytes: 128 << 20,
  maxInflatedBytes: 1 << 30,
  maxParseMs: 120_000,
};

let tmp: ReturnType<typeof tempDir>;
let repo: string;
const cat = (args: string[]) => execFileSync('git', ['-C', repo, 'cat-file', ...args], { env: GIT_TEST_ENV });
const packObjects = (flags: string[], revs: string) =>
  new Uint8Array(
    execFileSync('git', ['-C', repo, 'pack-objects', '--stdout', '--revs', ...flags], {
      input: revs,
      env: GIT_TEST_ENV,
    }),
  );

beforeAll(() => {
  tmp = tempDir('docdb-pack-reader-');
  repo = join(tmp.dir, 'r');
  git(['init', '-q', repo]);
  // A growing text document and a binary file edited in the middle: git stores most versions as
  // deltas, chains up to --depth, copies from offsets past 64 KiB.
  let doc = '';
  let bin = randomBytes(200_000);
  for (let i = 0; i < 30; i++) {
    doc += `line ${i}: ${'lorem ipsum dolor sit amet '.repeat(20)}\n`;
    const at = (i * 6151) % bin.length;
    bin = Buffer.concat([bin.subarray(0, at), randomBytes(100), bin.subarray(at + 50)]);
    writeFileSync(join(repo, 'doc.txt'), doc);
    writeFileSync(join(repo, 'data.bin'), bin);
    git(['-C', repo, 'add', '.']);
    git(['-C', repo, 'commit', '-q', '-m', `v${i}`]);
  }
});
afterAll(() => tmp.cleanup());

/** Every object the pack reader returned is git's, byte for byte. */
function expectGitObjects(objects: { sha: string; type: ObjectType; body: Uint8Array }[]): void {
  for (const o of objects) {
    expect(cat(['-t', o.sha]).toString().trim()).toBe(o.type);
    expect(Buffer.from(o.body).equals(cat([o.type, o.sha]))).toBe(true);
  }
}

describe('the pack reader reads real git packs to git objects', () => {
  it.each([
    ['ofs-deltas', ['--delta-base-offset', '--depth=50', '--window=50']],
    ['ref-deltas', ['--depth=50', '--window=50']],
  ])('git pack-objects with %s', async (_name, flags) => {
    const pack = packObjects(flags, 'HEAD\n');
    writeFileSync(join(tmp.dir, 'p.pack'), pack);
    git(['index-pack', join(tmp.dir, 'p.pack')]);
    const stats = git(['verify-pack', '-v', join(tmp.dir, 'p.idx')]);
    const chains = [...stats.matchAll(/chain length = (\d+): (\d+) objects?/g)].map((m) => Number(m[1]));
    expect(Math.max(...chains)).toBeGreaterThan(10); // long delta chains really are in it
    const objects = await unpack(pack, LIMITS);
    const all = git(['-C', repo, 'rev-list', '--objects', 'HEAD']).trim().split('\n');
    expect(objects.map((o) => o.sha).sort()).toEqual(all.map((l) => l.slice(0, 40)).sort());
    expectGitObjects(objects);
  });

  it('a thin pack: deltas against objects outside it resolve through readBase', async () => {
    const pack = packObjects(['--thin', '--delta-base-offset'], 'HEAD\n^HEAD~1\n');
    const asked: string[] = [];
    const readBase = async (sha: string) => {
      asked.push(sha);
      const type = cat(['-t', sha]).toString().trim() as ObjectType;
      return { type, body: new Uint8Array(cat([type, sha])) };
    };
    const objects = await unpack(pack, LIMITS, readBase);
    expect(asked.length).toBeGreaterThan(0); // it was thin
    const wanted = git(['-C', repo, 'rev-list', '--objects', 'HEAD', '^HEAD~1']).trim().split('\n');
    expect(objects.map((o) => o.sha).sort()).toEqual(wanted.map((l) => l.slice(0, 40)).sort());
    expectGitObjects(objects);
  });

  it('a thin pack whose base is not here: UnresolvedDeltas with readBase, malformed without', async () => {
    const pack = packObjects(['--thin'], 'HEAD\n^HEAD~1\n');
    await expect(unpack(pack, LIMITS, async () => undefined)).rejects.toBeInstanceOf(UnresolvedDeltas);
    await expect(unpack(pack, LIMITS)).rejects.toThrow(InvalidResponse);
    await expect(unpack(pack, LIMITS)).rejects.toThrow(/have delta bases that are not in it/);
  });
});
