/**
 * The git object model compared byte for byte with real git (`hash-object`, `mktree`, `commit-tree`,
 * `cat-file`). If any of these fail, every SHA docdb computes would disagree with GitHub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { EMPTY_TREE_SHA } from '../../src/core/git/object-db.js';
import {
  blobSha,
  type CommitFields,
  decodeCommit,
  decodeTree,
  encodeCommit,
  encodeTree,
  hashObject,
  type Signature,
  signatureDate,
  type TreeEntry,
} from '../../src/core/git/objects.js';
import { type GitRepo, makeRepo } from './git-helpers.js';

let repo: GitRepo;
beforeAll(() => {
  repo = makeRepo();
});
afterAll(() => repo.cleanup());

function gitBlobSha(bytes: Uint8Array, write = false): string {
  return repo.text(['hash-object', '-t', 'blob', ...(write ? ['-w'] : []), '--stdin'], { input: bytes });
}

/** `git mktree -z --missing` from entries; git sorts and encodes them itself. */
function gitMktree(entries: readonly TreeEntry[]): string {
  const typeOf = (m: string) => (m === '040000' ? 'tree' : m === '160000' ? 'commit' : 'blob');
  const input = entries.map((e) => `${e.mode} ${typeOf(e.mode)} ${e.sha}\t${e.name}\x00`).join('');
  return repo.text(['mktree', '-z', '--missing'], { input });
}

describe('blobs vs git hash-object -t blob', () => {
  const cases: [string, Uint8Array][] = [
    ['empty blob', new Uint8Array()],
    ['hello\\n', utf8('hello\n')],
    ['no trailing newline', utf8('no newline')],
    ['unicode text', utf8('héllo wörld — 日本語 🚀\n')],
    ['all byte values', Uint8Array.from({ length: 256 }, (_, i) => i)],
    ['NUL bytes', new Uint8Array([0, 0, 0, 1, 0])],
    ['CRLF kept as is', utf8('a\r\nb\r\n')],
    ['exactly 55 bytes (one SHA-1 block boundary)', new Uint8Array(55).fill(0x61)],
    ['exactly 64 bytes', new Uint8Array(64).fill(0x62)],
    ['100 KB pseudo-random', Uint8Array.from({ length: 100_000 }, (_, i) => (i * 2654435761) >>> 24)],
  ];
  for (const [name, bytes] of cases) {
    it(name, () => {
      expect(blobSha(bytes)).toBe(gitBlobSha(bytes));
      expect(hashObject('blob', bytes)).toBe(blobSha(bytes));
    });
  }

  it('known constants', () => {
    expect(blobSha(new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(blobSha(utf8('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});

describe('trees vs git mktree / hash-object -t tree', () => {
  const b1 = blobSha(utf8('one\n'));
  const b2 = blobSha(utf8('two\n'));
  const t1 = EMPTY_TREE_SHA;
  const cases: [string, TreeEntry[]][] = [
    ['the empty tree', []],
    ['one file', [{ mode: '100644', name: 'a.txt', sha: b1 }]],
    [
      'executable, symlink and gitlink modes',
      [
        { mode: '100755', name: 'run.sh', sha: b1 },
        { mode: '120000', name: 'link', sha: b2 },
        { mode: '160000', name: 'sub', sha: '0123456789abcdef0123456789abcdef01234567' },
        { mode: '100644', name: 'plain', sha: b2 },
      ],
    ],
    [
      'subtree a/ sorts after a-b and a.b, before a0',
      [
        { mode: '100644', name: 'a0', sha: b1 },
        { mode: '040000', name: 'a', sha: t1 },
        { mode: '100644', name: 'a-b', sha: b2 },
        { mode: '100644', name: 'a.b', sha: b1 },
      ],
    ],
    [
      'file a sorts before a-b, a.b, a0',
      [
        { mode: '100644', name: 'a0', sha: b1 },
        { mode: '100644', name: 'a', sha: b1 },
        { mode: '100644', name: 'a.b', sha: b2 },
        { mode: '100644', name: 'a-b', sha: b2 },
      ],
    ],
    [
      'prefix names: file ab vs subtree a vs file a.',
      [
        { mode: '100644', name: 'ab', sha: b1 },
        { mode: '040000', name: 'a', sha: t1 },
        { mode: '100644', name: 'a.', sha: b2 },
      ],
    ],
    [
      'unicode names sort by UTF-8 bytes, not UTF-16 code units',
      [
        { mode: '100644', name: 'é.json', sha: b1 },
        { mode: '100644', name: 'z.json', sha: b1 },
        { mode: '100644', name: '日本.json', sha: b2 },
        // U+1F600 is a surrogate pair in UTF-16 (0xD83D…) but 0xF0… in UTF-8: it sorts after U+FF5E in git.
        { mode: '100644', name: '😀', sha: b2 },
        { mode: '100644', name: '～', sha: b1 },
        { mode: '040000', name: 'ü', sha: t1 },
      ],
    ],
    [
      'uppercase before lowercase, digits before letters',
      [
        { mode: '100644', name: 'b', sha: b1 },
        { mode: '100644', name: 'B', sha: b1 },
        { mode: '100644', name: '1', sha: b1 },
        { mode: '100644', name: '_', sha: b1 },
        { mode: '100644', name: ' space', sha: b1 },
      ],
    ],
  ];
  for (const [name, entries] of cases) {
    it(name, () => {
      const body = encodeTree(entries);
      const ours = hashObject('tree', body);
      expect(ours).toBe(gitMktree(entries));
      expect(ours).toBe(repo.text(['hash-object', '-t', 'tree', '--stdin'], { input: body }));
      const sorted = decodeTree(body);
      expect(sorted).toHaveLength(entries.length);
      expect(new Set(sorted.map((e) => JSON.stringify(e)))).toEqual(new Set(entries.map((e) => JSON.stringify(e))));
    });
  }

  it('the empty tree is 4b825dc…', () => {
    expect(hashObject('tree', encodeTree([]))).toBe(EMPTY_TREE_SHA);
    expect(repo.text(['hash-object', '-t', 'tree', '--stdin'], { input: '' })).toBe(EMPTY_TREE_SHA);
  });

  it('decodes what git writes (nested trees read back with cat-file)', () => {
    const leaf = gitBlobSha(utf8('leaf\n'), true);
    const inner = repo.text(['mktree', '-z'], {
      input: `100644 blob ${leaf}\tleaf.json\x00100755 blob ${leaf}\tx\x00`,
    });
    const mid = repo.text(['mktree', '-z'], { input: `040000 tree ${inner}\toctø\x00100644 blob ${leaf}\tz\x00` });
    const root = repo.text(['mktree', '-z'], { input: `040000 tree ${mid}\tgithub\x00` });
    const rawMid = new Uint8Array(repo.git(['cat-file', 'tree', mid]));
    expect(decodeTree(rawMid)).toEqual([
      { mode: '040000', name: 'octø', sha: inner },
      { mode: '100644', name: 'z', sha: leaf },
    ]);
    // Rebuild the same nesting with our encoder: identical ids at every level.
    const ourInner = hashObject(
      'tree',
      encodeTree([
        { mode: '100755', name: 'x', sha: leaf },
        { mode: '100644', name: 'leaf.json', sha: leaf },
      ]),
    );
    expect(ourInner).toBe(inner);
    const ourMid = hashObject(
      'tree',
      encodeTree([
        { mode: '100644', name: 'z', sha: leaf },
        { mode: '040000', name: 'octø', sha: ourInner },
      ]),
    );
    expect(ourMid).toBe(mid);
    expect(hashObject('tree', encodeTree([{ mode: '040000', name: 'github', sha: ourMid }]))).toBe(root);
  });

  it('rejects duplicate names, including a file and a subtree with the same name', () => {
    expect(() =>
      encodeTree([
        { mode: '100644', name: 'a', sha: b1 },
        { mode: '100644', name: 'a', sha: b2 },
      ]),
    ).toThrow(/duplicate/);
    expect(() =>
      encodeTree([
        { mode: '100644', name: 'a', sha: b1 },
        { mode: '100644', name: 'a.b', sha: b1 },
        { mode: '040000', name: 'a', sha: t1 },
      ]),
    ).toThrow(/duplicate/);
  });

  it('rejects a truncated tree body', () => {
    const body = encodeTree([{ mode: '100644', name: 'a', sha: b1 }]);
    expect(() => decodeTree(body.subarray(0, body.length - 1))).toThrow(/malformed/);
  });
});

describe('commits vs git commit-tree', () => {
  let tree: string;
  beforeAll(() => {
    const blob = gitBlobSha(utf8('x\n'), true);
    tree = repo.text(['mktree', '-z'], { input: `100644 blob ${blob}\tx.txt\x00` });
  });

  function gitCommit(
    fields: { parents: string[]; message: string; author: Signature; committer: Signature },
    treeSha = tree,
  ): string {
    const args = ['commit-tree', treeSha];
    for (const p of fields.parents) args.push('-p', p);
    return repo.text(args, {
      input: fields.message,
      env: {
        GIT_AUTHOR_NAME: fields.author.name,
        GIT_AUTHOR_EMAIL: fields.author.email,
        GIT_AUTHOR_DATE: `@${fields.author.timestamp} ${fields.author.timezone}`,
        GIT_COMMITTER_NAME: fields.committer.name,
        GIT_COMMITTER_EMAIL: fields.committer.email,
        GIT_COMMITTER_DATE: `@${fields.committer.timestamp} ${fields.committer.timezone}`,
      },
    });
  }

  const ada: Signature = { name: 'Ada Lovelace', email: 'ada@example.com', timestamp: 1700000000, timezone: '+0000' };
  const zoe: Signature = {
    name: 'Zoë Ünïcødé 山田',
    email: 'zoe@example.org',
    timestamp: 1234567890,
    timezone: '+0530',
  };
  const west: Signature = { name: 'West', email: 'w@example.com', timestamp: 1600000000, timezone: '-0800' };

  /** Build with our encoder and with git; same id, and git's bytes decode to the same fields. */
  function check(fields: Omit<CommitFields, 'tree'>): string {
    const full: CommitFields = { tree, ...fields };
    const ours = hashObject('commit', encodeCommit(full));
    const theirs = gitCommit(fields);
    expect(ours).toBe(theirs);
    const raw = new Uint8Array(repo.git(['cat-file', 'commit', theirs]));
    expect(decodeCommit(raw)).toEqual(full);
    return ours;
  }

  it('0, 1 and 2 parents, non-UTC timezones, unicode names and messages', () => {
    const root = check({ parents: [], author: ada, committer: ada, message: 'root\n' });
    const second = check({ parents: [root], author: zoe, committer: west, message: 'héllo 🌍\n\nbody — ünïcode\n' });
    const side = check({ parents: [root], author: west, committer: zoe, message: 'side\n' });
    check({ parents: [second, side], author: ada, committer: zoe, message: 'Merge side\n' });
  });

  it('messages are kept byte for byte (no trailing newline, blank lines, empty)', () => {
    check({ parents: [], author: ada, committer: ada, message: 'no trailing newline' });
    check({ parents: [], author: ada, committer: ada, message: '\n\nleading blank lines\n\n\n' });
    check({ parents: [], author: ada, committer: ada, message: '' });
  });

  it('negative half-hour offsets and old timestamps', () => {
    const nf: Signature = { name: 'N', email: 'n@example.com', timestamp: 86400, timezone: '-0330' };
    check({ parents: [], author: nf, committer: nf, message: 'newfoundland\n' });
  });

  it('decodeCommit skips unknown and multi-line headers (gpgsig)', () => {
    const body = utf8(
      `tree ${tree}\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 -0100\nencoding UTF-8\n` +
        'gpgsig -----BEGIN PGP SIGNATURE-----\n \n abc\n -----END PGP SIGNATURE-----\n\nmsg\n',
    );
    expect(decodeCommit(body)).toEqual({
      tree,
      parents: [],
      author: { name: 'A', email: 'a@x', timestamp: 1, timezone: '+0000' },
      committer: { name: 'C', email: 'c@x', timestamp: 2, timezone: '-0100' },
      message: 'msg\n',
    });
  });

  it('rejects a commit without tree or signatures', () => {
    expect(() => decodeCommit(utf8('author A <a@x> 1 +0000\n\nmsg'))).toThrow(/malformed/);
    expect(() => decodeCommit(utf8(`tree ${tree}\nauthor nonsense\n\nmsg`))).toThrow(/malformed/);
  });

  it('signatureDate renders the signature in its own timezone, as GitHub does', () => {
    expect(signatureDate(ada)).toBe('2023-11-14T22:13:20Z');
    expect(signatureDate(zoe)).toBe('2009-02-14T05:01:30+05:30');
    expect(signatureDate(west)).toBe('2020-09-13T04:26:40-08:00');
  });
});
