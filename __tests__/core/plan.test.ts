/** Write planning shared by every store: validation, no-op detection, path conflicts, messages. */
import { describe, expect, it } from 'vitest';
import { utf8 } from '../../src/core/bytes.js';
import { InvalidKey } from '../../src/core/errors.js';
import { blobSha } from '../../src/core/git/objects.js';
import { assertNoPathConflicts, defaultCommitMessage, normalizeChanges, planWrite } from '../../src/core/plan.js';

describe('normalizeChanges', () => {
  it('converts values to bytes with their blob SHA', () => {
    const [c] = normalizeChanges([{ op: 'put', key: 'k', value: 'hi' }]);
    expect(c).toEqual({ op: 'put', key: 'k', value: utf8('hi'), sha: blobSha(utf8('hi')) });
  });
  it('rejects bad keys, duplicates, bad ops and bad values before anything else', () => {
    expect(() => normalizeChanges([{ op: 'put', key: 'a//b', value: '' }])).toThrow(InvalidKey);
    try {
      normalizeChanges([
        { op: 'put', key: 'a', value: '' },
        { op: 'delete', key: 'a' },
      ]);
      expect.unreachable();
    } catch (e) {
      expect((e as InvalidKey).data.rule).toBe('duplicate');
    }
    expect(() => normalizeChanges([{ op: 'move', key: 'a' } as never])).toThrow(/op must be/);
    expect(() => normalizeChanges([{ op: 'put', key: 'a', value: 5 } as never])).toThrow(/string or Uint8Array/);
    expect(() => normalizeChanges('x' as never)).toThrow(/array/);
  });
});

describe('planWrite', () => {
  it('skips identical puts and deletes of absent keys', () => {
    const current = new Map([['same', blobSha(utf8('x'))]]);
    const plan = planWrite(
      normalizeChanges([
        { op: 'put', key: 'same', value: 'x' },
        { op: 'put', key: 'new', value: 'y' },
        { op: 'delete', key: 'absent' },
        { op: 'delete', key: 'same2' },
      ]),
      (k) => (k === 'same2' ? 'f'.repeat(40) : current.get(k)),
    );
    expect(plan.written).toEqual(['new']);
    expect(plan.deleted).toEqual(['same2']);
    expect(plan.unchanged).toBe(2);
    expect(plan.treeChanges.map((c) => [c.path, c.sha])).toEqual([
      ['new', blobSha(utf8('y'))],
      ['same2', null],
    ]);
  });

  it('default messages name the key or count the keys', () => {
    const one = planWrite(normalizeChanges([{ op: 'put', key: 'a/b.json', value: '' }]), () => undefined);
    expect(defaultCommitMessage(one)).toBe('docdb: put a/b.json');
    const del = planWrite(normalizeChanges([{ op: 'delete', key: 'a' }]), () => 'f'.repeat(40));
    expect(defaultCommitMessage(del)).toBe('docdb: delete a');
    const many = planWrite(
      normalizeChanges([
        { op: 'put', key: 'a', value: '' },
        { op: 'put', key: 'b', value: '' },
        { op: 'delete', key: 'c' },
      ]),
      (k) => (k === 'c' ? 'f'.repeat(40) : undefined),
    );
    expect(defaultCommitMessage(many)).toBe('docdb: write 2, delete 1 keys');
  });
});

describe('assertNoPathConflicts', () => {
  const base = { isFile: (p: string) => p === 'f' || p === 'd/f', isDir: (p: string) => p === 'd' };
  const rule = (changes: Parameters<typeof normalizeChanges>[0]) => {
    try {
      assertNoPathConflicts(normalizeChanges(changes), base);
      return 'ok';
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidKey);
      return `${(e as InvalidKey).data.rule}:${(e as InvalidKey).data.key}`;
    }
  };
  it('refuses to turn a directory into a value or write below a value', () => {
    expect(rule([{ op: 'put', key: 'd', value: '' }])).toBe('conflict:d');
    expect(rule([{ op: 'put', key: 'f/x', value: '' }])).toBe('conflict:f/x');
    expect(rule([{ op: 'put', key: 'd/f/x', value: '' }])).toBe('conflict:d/f/x');
    expect(
      rule([
        { op: 'put', key: 'n', value: '' },
        { op: 'put', key: 'n/x', value: '' },
      ]),
    ).toBe('conflict:n/x');
  });
  it('allows replacing a value by a directory when the value is deleted in the same batch', () => {
    expect(
      rule([
        { op: 'delete', key: 'f' },
        { op: 'put', key: 'f/x', value: '' },
      ]),
    ).toBe('ok');
    expect(rule([{ op: 'put', key: 'd/new', value: '' }])).toBe('ok');
    expect(rule([{ op: 'put', key: 'f', value: 'overwrite' }])).toBe('ok');
  });
});
