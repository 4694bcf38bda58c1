/** Identity rules, canonical keys and their inverse. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidIdentity } from '../../src/core/errors.js';
import { gitPathRule } from '../../src/core/git-path.js';
import { MAX_KEY_BYTES } from '../../src/core/keys.js';
import { assertIdentityFields, plainIdentityKey } from '../../src/document/identity.js';
import {
  assertValidIdentity,
  deriveKey,
  type Identity,
  isValidIdentity,
  MAX_SEGMENT_BYTES,
  parseKey,
} from '../../src/document/index.js';

const ok: Identity = { namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' };

function failure(identity: unknown): { field: unknown; rule: unknown; message: string } | null {
  try {
    assertValidIdentity(identity);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidIdentity);
    const err = e as InvalidIdentity;
    expect(err.code).toBe('InvalidIdentity');
    return { field: err.data.field, rule: err.data.rule, message: err.message };
  }
}

describe('deriveKey / parseKey', () => {
  it('derives <namespace>/<doc_type>/<id>.json, with slashes and unicode in id', () => {
    expect(deriveKey(ok)).toBe('github/repo/octo/hello-world.json');
    expect(deriveKey({ namespace: 'ünï', doc_type: '日本', id: 'a/b/c 😀' })).toBe('ünï/日本/a/b/c 😀.json');
    expect(deriveKey({ namespace: 'n', doc_type: 't', id: 'file.json' })).toBe('n/t/file.json.json');
  });

  it('parseKey inverts deriveKey', () => {
    expect(parseKey('github/repo/octo/hello-world.json')).toEqual(ok);
    expect(parseKey('n/t/file.json.json')).toEqual({ namespace: 'n', doc_type: 't', id: 'file.json' });
    expect(parseKey('n/t/a/b/c.json')).toEqual({ namespace: 'n', doc_type: 't', id: 'a/b/c' });
  });

  it('parseKey returns null for keys that are not documents, never throwing', () => {
    for (const key of [
      'README.md',
      'n/t/x.txt',
      'n/t.json',
      'n/t/.json',
      '_docdb/state/x.json',
      '_private/t/x.json',
      'n/t/a/../b.json',
      'n/t/a//b.json',
      'n//x.json',
      '/n/t/x.json',
      'n/t/.git/x.json',
      '',
      42,
      null,
      undefined,
    ]) {
      expect(parseKey(key)).toBeNull();
    }
  });

  it('property: for valid identities parseKey(deriveKey(i)) === i', () => {
    const seg = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
      .filter(
        (s) =>
          !/[/\u0000-\u001f\u007f]/.test(s) &&
          s !== '.' &&
          s !== '..' &&
          s.normalize('NFC') === s &&
          gitPathRule(s) === null,
      );
    const identity = fc.record({
      namespace: seg.filter((s) => !s.startsWith('_')),
      doc_type: seg,
      id: fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/')),
    });
    fc.assert(
      fc.property(identity, (i) => {
        expect(isValidIdentity(i)).toBe(true);
        expect(parseKey(deriveKey(i))).toEqual(i);
      }),
      { numRuns: 300 },
    );
  });
});

describe('assertValidIdentity', () => {
  const cases: [string, Partial<Record<keyof Identity, unknown>>, string, string][] = [
    ['empty namespace', { namespace: '' }, 'namespace', 'empty'],
    ['empty doc_type', { doc_type: '' }, 'doc_type', 'empty'],
    ['empty id', { id: '' }, 'id', 'empty'],
    ['non-string namespace', { namespace: 3 }, 'namespace', 'type'],
    ['missing id', { id: undefined }, 'id', 'type'],
    ['namespace ..', { namespace: '..' }, 'namespace', 'dot-segment'],
    ['doc_type .', { doc_type: '.' }, 'doc_type', 'dot-segment'],
    ['id ..', { id: '..' }, 'id', 'dot-segment'],
    ['id with .. part', { id: 'octo/../etc' }, 'id', 'dot-segment'],
    ['id with . part', { id: './x' }, 'id', 'dot-segment'],
    ['id with .git part', { id: 'a/.git' }, 'id', 'dot-git'],
    ['namespace .git', { namespace: '.git' }, 'namespace', 'dot-git'],
    ['id part .GIT', { id: 'x/.GIT' }, 'id', 'dot-git'],
    ['id part .git. (NTFS)', { id: 'x/.git./y' }, 'id', 'dot-git-ntfs'],
    ['id part GIT~1 (NTFS short name)', { id: 'GIT~1/y' }, 'id', 'dot-git-ntfs'],
    ['doc_type .git with HFS-ignorable', { doc_type: '.gi\u200dt' }, 'doc_type', 'dot-git-hfs'],
    ['id part .gitmodules', { id: 'a/.GITMODULES' }, 'id', 'dot-gitmodules'],
    ['id not NFC', { id: 'cafe\u0301' }, 'id', 'not-nfc'],
    ['id leading slash', { id: '/octo' }, 'id', 'empty-segment'],
    ['id trailing slash', { id: 'octo/' }, 'id', 'empty-segment'],
    ['id double slash', { id: 'octo//x' }, 'id', 'empty-segment'],
    ['NUL in id', { id: 'a\u0000b' }, 'id', 'control-char'],
    ['newline in doc_type', { doc_type: 'a\nb' }, 'doc_type', 'control-char'],
    ['DEL in namespace', { namespace: 'a\u007f' }, 'namespace', 'control-char'],
    ['lone surrogate', { id: 'x\uD800' }, 'id', 'utf8'],
    ['slash in namespace', { namespace: 'a/b' }, 'namespace', 'slash'],
    ['slash in doc_type', { doc_type: 'a/b' }, 'doc_type', 'slash'],
    ['reserved namespace _docdb', { namespace: '_docdb' }, 'namespace', 'reserved'],
    ['reserved namespace _x', { namespace: '_x' }, 'namespace', 'reserved'],
    ['namespace too long', { namespace: 'n'.repeat(MAX_SEGMENT_BYTES + 1) }, 'namespace', 'too-long'],
    ['doc_type too long (bytes)', { doc_type: 'é'.repeat(128) }, 'doc_type', 'too-long'],
    ['id part too long with .json', { id: `a/${'x'.repeat(MAX_SEGMENT_BYTES - 4)}` }, 'id', 'too-long'],
    ['whole key too long', { id: Array.from({ length: 10 }, () => 'y'.repeat(120)).join('/') }, 'id', 'too-long'],
  ];
  for (const [name, patch, field, rule] of cases) {
    it(`rejects ${name} naming field ${field} (rule ${rule})`, () => {
      const f = failure({ ...ok, ...patch });
      expect(f).not.toBeNull();
      expect(f!.field).toBe(field);
      expect(f!.rule).toBe(rule);
      expect(f!.message).toContain(field);
      expect(() => deriveKey({ ...ok, ...patch } as Identity)).toThrow(InvalidIdentity);
    });
  }

  it('accepts the bounds exactly', () => {
    expect(failure({ ...ok, namespace: 'n'.repeat(MAX_SEGMENT_BYTES) })).toBeNull();
    expect(failure({ ...ok, id: `a/${'x'.repeat(MAX_SEGMENT_BYTES - 5)}` })).toBeNull();
    const id = 'z'.repeat(MAX_KEY_BYTES - 'github/repo/'.length - '.json'.length);
    // Too long as one part, so spread over parts of ≤ 250 bytes.
    const parts = id
      .match(/.{1,200}/g)!
      .join('/')
      .slice(0, id.length);
    expect(deriveKey({ ...ok, id: parts }).length).toBe(MAX_KEY_BYTES);
    expect(failure({ ...ok, id: `${parts}z` })?.rule).toBe('too-long');
  });

  it('accepts leading underscores outside the namespace and dots inside names', () => {
    expect(failure({ namespace: 'ns_', doc_type: '_type', id: '_id/.hidden/a.b' })).toBeNull();
  });

  it('rejects non-objects with field "identity"', () => {
    expect(failure(null)?.field).toBe('identity');
    expect(failure('github/repo/x')?.field).toBe('identity');
  });
});

describe('the plain-ASCII fast path of identities (issue 21)', () => {
  it('property: an identity it accepts passes every field check, with the same key', () => {
    const piece = fc.constantFrom('a', '_', '.', '..', 'git', '~1', '/', '\\', ' ', 'é', 'x'.repeat(130));
    const field = fc.array(piece, { minLength: 0, maxLength: 4 }).map((p) => p.join(''));
    fc.assert(
      fc.property(field, field, field, (namespace, doc_type, id) => {
        const key = plainIdentityKey(namespace, doc_type, id);
        if (key === undefined) return;
        expect(() => assertIdentityFields(namespace, doc_type, id)).not.toThrow();
        expect(key).toBe(`${namespace}/${doc_type}/${id}.json`);
      }),
      { numRuns: 2000 },
    );
  });
});
