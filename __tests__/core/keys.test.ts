/** Key rules (docs/keys.md): every rule, with the `data.rule` the error carries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidKey } from '../../src/core/errors.js';
import { gitPathRule } from '../../src/core/git-path.js';
import {
  assertValidKey,
  assertValidKeySlow,
  assertValidPrefix,
  isPlainKey,
  isValidKey,
  MAX_KEY_BYTES,
} from '../../src/core/keys.js';

function ruleOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidKey);
    const err = e as InvalidKey;
    expect(err.code).toBe('InvalidKey');
    expect(err.message.length).toBeGreaterThan(10);
    return err.data.rule as string;
  }
  return 'valid';
}

describe('assertValidKey', () => {
  const cases: [string, unknown, string][] = [
    ['not a string', 42, 'type'],
    ['undefined', undefined, 'type'],
    ['empty', '', 'empty'],
    ['lone high surrogate', 'a\uD800b', 'utf8'],
    ['lone low surrogate', '\uDC00', 'utf8'],
    ['NUL', 'a\u0000b', 'control-char'],
    ['newline', 'a\nb', 'control-char'],
    ['tab', 'a\tb', 'control-char'],
    ['DEL', 'a\u007fb', 'control-char'],
    ['leading slash', '/a', 'slash-edge'],
    ['trailing slash', 'a/', 'slash-edge'],
    ['only a slash', '/', 'slash-edge'],
    ['double slash', 'a//b', 'empty-segment'],
    ['dot segment', 'a/./b', 'dot-segment'],
    ['dot-dot segment', 'a/../b', 'dot-segment'],
    ['whole key is ..', '..', 'dot-segment'],
    ['.git segment', 'a/.git/config', 'dot-git'],
    ['.GIT segment (git fsck: hasDotgit)', '.GIT', 'dot-git'],
    ['.Git segment', 'x/.Git', 'dot-git'],
    ['too long', 'x'.repeat(MAX_KEY_BYTES + 1), 'too-long'],
    ['too long in UTF-8 bytes only', 'é'.repeat(MAX_KEY_BYTES / 2 + 1), 'too-long'],
  ];
  for (const [name, key, rule] of cases) {
    it(`rejects ${name} with rule ${rule}`, () => {
      expect(ruleOf(() => assertValidKey(key))).toBe(rule);
      expect(isValidKey(key)).toBe(false);
    });
  }

  const valid = [
    'a',
    'github/repo/octo/hello-world.json',
    '.hidden',
    'a/.b/..c/...',
    'a.git',
    '.gitignore',
    'with space/and-dash_underscore',
    'ünïcødé/日本語/😀.json',
    'x'.repeat(MAX_KEY_BYTES),
    `${'é'.repeat(MAX_KEY_BYTES / 2)}`,
    'a\u0080b', // C1 controls are not rejected: git and GitHub accept them in paths
  ];
  for (const key of valid) {
    it(`accepts ${JSON.stringify(key.length > 40 ? `${key.slice(0, 20)}…(${key.length})` : key)}`, () => {
      expect(ruleOf(() => assertValidKey(key))).toBe('valid');
      expect(isValidKey(key)).toBe(true);
    });
  }

  it('property: any string either passes or fails with InvalidKey carrying the key', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', 'é', '😀', '/', '.', 'git', '\u0000', '\n', '\u007f', '\uD800', ' '),
          maxLength: 30,
        }),
        (s) => {
          try {
            assertValidKey(s);
          } catch (e) {
            expect(e).toBeInstanceOf(InvalidKey);
            expect((e as InvalidKey).data.key).toBe(s);
          }
        },
      ),
    );
  });

  it('property: keys built from safe segments are valid', () => {
    const segment = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 10 })
      .filter(
        (s) =>
          !/[/\u0000-\u001f\u007f]/.test(s) &&
          s !== '.' &&
          s !== '..' &&
          s.normalize('NFC') === s &&
          gitPathRule(s) === null,
      );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segs) => {
        expect(isValidKey(segs.join('/'))).toBe(true);
      }),
    );
  });
});

describe('the plain-ASCII fast path (issue 21)', () => {
  it('property: a key it accepts passes every full check; it defers every key the full checks refuse', () => {
    // Segments built from the characters that matter to git's rules: dots, tildes, backslashes, colons,
    // spaces, "git", digits, non-ASCII and control characters.
    const piece = fc.constantFrom(
      'a',
      'git',
      'GIT',
      '.',
      '..',
      '~1',
      '~',
      '\\',
      ':',
      ' ',
      'gitmod',
      'gi7eba',
      '1',
      'é',
      '\u200c',
      '\u0001',
      'x',
    );
    const segment = fc.array(piece, { minLength: 0, maxLength: 5 }).map((p) => p.join(''));
    const key = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    fc.assert(
      fc.property(key, (k) => {
        if (isPlainKey(k)) expect(() => assertValidKeySlow(k)).not.toThrow();
        let slowOk = true;
        try {
          assertValidKeySlow(k);
        } catch {
          slowOk = false;
        }
        expect(isValidKey(k)).toBe(slowOk);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the keys documents have, defers the rest to the full checks', () => {
    expect(isPlainKey('github/repo/octo/hello-world.json')).toBe(true);
    expect(isPlainKey('a/o r#1/x.json')).toBe(true);
    for (const k of [
      '',
      '/a',
      'a/',
      'a//b',
      '.git',
      'a/.well-known',
      'git~1',
      'a\\b',
      'é',
      'a\u0000b',
      'x'.repeat(1025),
    ]) {
      expect(isPlainKey(k)).toBe(false);
    }
    expect(isPlainKey(`${'x'.repeat(256)}/y`, 255)).toBe(false);
  });
});

describe('assertValidPrefix', () => {
  it('accepts empty, key-shaped and directory prefixes', () => {
    for (const p of ['', 'a', 'a/', 'github/repo/', 'github/re'])
      expect(ruleOf(() => assertValidPrefix(p))).toBe('valid');
  });
  it('rejects malformed prefixes with the key rule', () => {
    expect(ruleOf(() => assertValidPrefix('/a'))).toBe('slash-edge');
    expect(ruleOf(() => assertValidPrefix('a//'))).toBe('slash-edge');
    expect(ruleOf(() => assertValidPrefix('a/../'))).toBe('dot-segment');
    expect(ruleOf(() => assertValidPrefix(3))).toBe('type');
    expect(ruleOf(() => assertValidPrefix('x/.git/'))).toBe('dot-git');
    expect(ruleOf(() => assertValidPrefix('x/GIT~1/'))).toBe('dot-git-ntfs');
    expect(ruleOf(() => assertValidPrefix('cafe\u0301'))).toBe('not-nfc');
  });
  it('accepts a last part that only starts like a forbidden name (x/.git lists x/.gitignore)', () => {
    for (const p of ['x/.git', 'x/.git.', 'git~1', '.gitmodules'])
      expect(ruleOf(() => assertValidPrefix(p))).toBe('valid');
  });
});
