/**
 * git's path-component rules (src/core/git-path.ts) checked against real git 2.39: every name we
 * reject makes `git fsck --strict` complain about the tree (hasDotgit) or treat the blob as
 * `.gitmodules`; every name we accept passes fsck and checks out with core.protectNTFS/protectHFS.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidKey } from '../../src/core/errors.js';
import { gitPathRule } from '../../src/core/git-path.js';
import { assertValidKey, isValidKey } from '../../src/core/keys.js';
import { makeRepo } from './git-helpers.js';

const repos: { cleanup(): void }[] = [];
afterAll(() => {
  for (const r of repos) r.cleanup();
});

/** What git says about each name, from one `git fsck --strict` over one tree per name. */
function gitVerdicts(names: string[]): Map<string, { dotgit: boolean; gitmodules: boolean }> {
  const repo = makeRepo();
  repos.push(repo);
  // A distinct blob per name, so a gitmodules report can be traced back to its name; one process
  // for all blobs (hash-object --stdin-paths) and one for all trees (mktree --batch).
  const blobDir = mkdtempSync(join(tmpdir(), 'docdb-git-path-blobs-'));
  const paths = names.map((n, i) => {
    const p = join(blobDir, String(i));
    writeFileSync(p, `${JSON.stringify({ name: n })}\n`);
    return p;
  });
  const blobs = repo.text(['hash-object', '-w', '--stdin-paths'], { input: `${paths.join('\n')}\n` }).split('\n');
  rmSync(blobDir, { recursive: true, force: true });
  const input = names.map((n, i) => `100644 blob ${blobs[i]}\t${n}\0\0`).join('');
  const trees = repo.text(['mktree', '-z', '--batch'], { input }).split('\n');
  expect(trees).toHaveLength(names.length);
  const byTree = new Map(trees.map((t, i) => [t, names[i]!]));
  const byBlob = new Map(blobs.map((b, i) => [b, names[i]!]));
  let out = '';
  try {
    out = execFileSync('git', ['fsck', '--strict', '--no-dangling'], {
      cwd: repo.dir,
      env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', HOME: repo.dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch (e) {
    out = String((e as { stderr?: Buffer }).stderr ?? '') + String((e as { stdout?: Buffer }).stdout ?? '');
  }
  const verdicts = new Map(names.map((n) => [n, { dotgit: false, gitmodules: false }]));
  for (const m of out.matchAll(/error in tree ([0-9a-f]{40}): hasDotgit/g))
    verdicts.get(byTree.get(m[1]!)!)!.dotgit = true;
  for (const m of out.matchAll(/in blob ([0-9a-f]{40}): gitmodules/g))
    verdicts.get(byBlob.get(m[1]!)!)!.gitmodules = true;
  return verdicts;
}

/** Check out one tree holding every name (as `d<i>/<name>`) with NTFS and HFS protection on. */
function checkoutAll(names: string[]): void {
  const dir = mkdtempSync(join(tmpdir(), 'docdb-git-path-'));
  try {
    const env = {
      PATH: process.env.PATH ?? '',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      HOME: dir,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@example.com',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@example.com',
    };
    const git = (args: string[], input?: string) =>
      execFileSync('git', args, { cwd: dir, env, input, stdio: ['pipe', 'pipe', 'pipe'] })
        .toString()
        .trim();
    git(['init', '-q', '.']);
    git(['config', 'core.protectNTFS', 'true']);
    git(['config', 'core.protectHFS', 'true']);
    const blob = git(['hash-object', '-w', '--stdin'], '{}\n');
    const subs = git(['mktree', '-z', '--batch'], names.map((n) => `100644 blob ${blob}\t${n}\0\0`).join('')).split(
      '\n',
    );
    const entries = subs.map((sub, i) => `040000 tree ${sub}\td${i}\0`);
    const tree = git(['mktree', '-z'], entries.join(''));
    const commit = git(['commit-tree', '-m', 'x', tree]);
    git(['update-ref', 'refs/heads/t', commit]);
    git(['fsck', '--strict', '--no-dangling']);
    git(['checkout', '-q', '-f', 't']);
    expect(git(['status', '--porcelain'])).toBe('');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rejected: [string, string][] = [
  ['.git', 'dot-git'],
  ['.GIT', 'dot-git'],
  ['.Git', 'dot-git'],
  ['.git.', 'dot-git-ntfs'],
  ['.git ', 'dot-git-ntfs'],
  ['.git. .', 'dot-git-ntfs'],
  ['GIT~1', 'dot-git-ntfs'],
  ['git~1', 'dot-git-ntfs'],
  ['Git~1 .', 'dot-git-ntfs'],
  ['.git::$INDEX_ALLOCATION', 'dot-git-ntfs'],
  ['.git:x', 'dot-git-ntfs'],
  ['a\\.git', 'dot-git-ntfs'],
  ['.git\\a', 'dot-git-ntfs'],
  ['a\\git~1', 'dot-git-ntfs'],
  ['a\\.git.', 'dot-git-ntfs'],
  ['.g\u200cit', 'dot-git-hfs'],
  ['\u200d.git', 'dot-git-hfs'],
  ['.git\ufeff', 'dot-git-hfs'],
  ['.\u202aG\u206fI\u200et', 'dot-git-hfs'],
  ['.gitmodules', 'dot-gitmodules'],
  ['.GITMODULES', 'dot-gitmodules'],
  ['.gitmodules.', 'dot-gitmodules'],
  ['.gitmodules :x', 'dot-gitmodules'],
  ['GITMOD~1', 'dot-gitmodules'],
  ['gitmod~4', 'dot-gitmodules'],
  ['gi7eba~1', 'dot-gitmodules'],
  ['GI7EB~12', 'dot-gitmodules'],
  ['.gitmod\u200cules', 'dot-gitmodules'],
];

const accepted = [
  'git~2',
  'git~10',
  'git~1x',
  '.git~1',
  '.gitx',
  '.git.x',
  '.git x',
  'x.git',
  '.gitignore',
  '.gitattributes',
  '.mailmap',
  '.g\u00eft',
  '.git\u00a0',
  '.git\u200c.',
  'gitmod~5',
  'gi7eba~1x',
  '.gitmodulesx',
  '..git',
  'a\\b',
  'x:y',
];

describe('git path rules agree with git 2.39', () => {
  it('every rejected name is reported by git fsck --strict and names its rule', () => {
    const verdicts = gitVerdicts(rejected.map(([n]) => n));
    for (const [name, rule] of rejected) {
      expect(gitPathRule(name), JSON.stringify(name)).toBe(rule);
      const v = verdicts.get(name)!;
      if (rule === 'dot-gitmodules')
        expect(v.gitmodules, `git treats ${JSON.stringify(name)} as .gitmodules`).toBe(true);
      else expect(v.dotgit, `git fsck hasDotgit for ${JSON.stringify(name)}`).toBe(true);
      // As a key part, anywhere in the key.
      const err = (() => {
        try {
          assertValidKey(`x/${name}/y`);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(InvalidKey);
      expect((err as InvalidKey).data).toMatchObject({ rule, component: name });
      expect((err as InvalidKey).message).toContain(JSON.stringify(name));
    }
  });

  it('near misses are accepted, pass git fsck --strict and check out with protectNTFS/protectHFS', () => {
    const verdicts = gitVerdicts(accepted);
    for (const name of accepted) {
      expect(gitPathRule(name), JSON.stringify(name)).toBeNull();
      expect(verdicts.get(name), JSON.stringify(name)).toEqual({ dotgit: false, gitmodules: false });
      expect(isValidKey(`x/${name}`)).toBe(true);
    }
    checkoutAll(accepted);
  });

  it('property: on tricky names our verdict matches git fsck (backslash splits stricter for .gitmodules)', () => {
    const name = fc
      .array(
        fc.constantFrom(
          ...'.gGiItT~1 :\\mMoOdDuUlLeEsS7ba'.split(''),
          '.git',
          'git~1',
          '.gitmodules',
          '\u200c',
          '\ufeff',
          '\u202e',
        ),
        { minLength: 1, maxLength: 8 },
      )
      .map((parts) => parts.join(''))
      .filter((s) => s !== '.' && s !== '..');
    // Near-.git shapes: an optional prefix, a core and a tail of NTFS/HFS-significant characters.
    const shaped = fc
      .tuple(
        fc.constantFrom('', '\u200c', 'a\\', 'x', '.'),
        fc.constantFrom(
          '.git',
          '.GIT',
          'git~1',
          'GIT~1',
          '.gitmodules',
          'gitmod~1',
          'gi7eba~1',
          '.g\u200cit',
          '.git~1',
          'git~2',
        ),
        fc.array(fc.constantFrom('.', ' ', ':', 'x', '\\', '\u200c', '$', '1'), { maxLength: 3 }),
      )
      .map(([a, b, c]) => a + b + c.join(''));
    const names = [
      ...new Set([...fc.sample(name, { numRuns: 200, seed: 12 }), ...fc.sample(shaped, { numRuns: 300, seed: 7 })]),
    ];
    const verdicts = gitVerdicts(names);
    let rejectedCount = 0;
    for (const n of names) {
      const ours = gitPathRule(n);
      const git = verdicts.get(n)!;
      if (ours) rejectedCount++;
      if (git.dotgit) expect(ours, JSON.stringify(n)).toMatch(/^dot-git/);
      if (git.gitmodules) expect(ours, JSON.stringify(n)).toBe('dot-gitmodules');
      if (ours === 'dot-gitmodules') expect(git.gitmodules || n.includes('\\'), JSON.stringify(n)).toBe(true);
      else if (ours) expect(git.dotgit, JSON.stringify(n)).toBe(true);
    }
    // The sample must exercise both sides.
    expect(rejectedCount).toBeGreaterThan(20);
    expect(names.length - rejectedCount).toBeGreaterThan(20);
    checkoutAll(names.filter((n) => gitPathRule(n) === null));
  });
});

describe('Unicode normalisation', () => {
  it('rejects a key not in NFC and suggests the NFC form', () => {
    const nfd = 'caf\u0065\u0301.json';
    let err: unknown;
    try {
      assertValidKey(`docs/${nfd}`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidKey);
    expect((err as InvalidKey).data.rule).toBe('not-nfc');
    expect((err as InvalidKey).message).toContain(JSON.stringify('docs/caf\u00e9.json'));
    expect(isValidKey('docs/caf\u00e9.json')).toBe(true);
  });
});
