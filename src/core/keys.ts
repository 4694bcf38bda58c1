/**
 * Key rules for every RefStore. A key is a slash-separated path inside the section's tree, so the
 * rules are git's path rules plus a length bound. See docs/keys.md.
 */
import { InvalidKey } from './errors.js';
import { GIT_PATH_RULE_TEXT, gitPathRule } from './git-path.js';

/** Longest key accepted, in UTF-8 bytes. git allows longer paths, but GitHub's UI and many file
 * systems stop near 4096; 1024 leaves room for a checkout root and keeps URLs (history `?path=`) short. */
export const MAX_KEY_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * Throw `InvalidKey` (with `data.rule`) unless `key` is a valid key. Runs before any I/O.
 *
 * @example
 * assertValidKey('github/repo/octo/hello.json'); // ok
 * assertValidKey('a//b'); // throws InvalidKey { rule: 'empty-segment' }
 */
export function assertValidKey(key: unknown): asserts key is string {
  if (typeof key !== 'string') throw new InvalidKey(key, 'type', `key must be a string, got ${typeof key}`);
  if (isPlainKey(key)) return; // one scan decides for the keys nearly every caller writes
  assertValidKeySlow(key);
}

/**
 * The fast path of {@link assertValidKey}: true when `key` is certainly valid because every segment is
 * plain printable ASCII — no control character, backslash or `~`, not starting with `.` — and non-empty,
 * and the key and each segment are short enough. Such a key is NFC and well-formed, and none of git's
 * path rules can match it (they all need a leading `.`, a `~` or a backslash: see git-path.ts). False
 * means "not proven here", never "invalid": the full checks then decide.
 *
 * @example
 * isPlainKey('github/repo/octo/hello.json'); // true
 * isPlainKey('docs/.well-known/x');          // false: the full checks decide
 */
export function isPlainKey(key: string, maxSegment = MAX_KEY_BYTES): boolean {
  const n = key.length;
  if (n === 0 || n > MAX_KEY_BYTES) return false;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c === 0x2f) {
      if (i === start || i - start > maxSegment) return false; // empty segment, or too long
      start = i + 1;
    } else if (c < 0x20 || c > 0x7e || c === 0x5c || c === 0x7e || (c === 0x2e && i === start)) return false;
  }
  return start < n && n - start <= maxSegment;
}

/**
 * Every rule, one by one, with the message that names the one broken (exported for the test that
 * checks the fast path never accepts a key these reject).
 *
 * @example
 * assertValidKeySlow('a/.git/b'); // throws InvalidKey { rule: 'dot-git' }
 */
export function assertValidKeySlow(key: string): void {
  if (key.length === 0) throw new InvalidKey(key, 'empty', 'key must not be empty');
  if (!key.isWellFormed()) {
    throw new InvalidKey(key, 'utf8', `key ${JSON.stringify(key)} is not valid UTF-8 (lone surrogate)`);
  }
  if (/[\u0000-\u001f\u007f]/.test(key)) {
    throw new InvalidKey(key, 'control-char', `key ${JSON.stringify(key)} contains a NUL or control character`);
  }
  // One spelling per key: macOS (and many editors) write NFD, Linux keeps bytes as given, so two
  // spellings of "é" would be two keys in git but one file on a Mac checkout. See docs/keys.md.
  if (key.normalize('NFC') !== key) {
    throw new InvalidKey(
      key,
      'not-nfc',
      `key ${JSON.stringify(key)} is not in Unicode normalisation form NFC; use ${JSON.stringify(key.normalize('NFC'))} (key.normalize('NFC'))`,
    );
  }
  if (key.startsWith('/') || key.endsWith('/')) {
    throw new InvalidKey(key, 'slash-edge', `key ${JSON.stringify(key)} must not start or end with "/"`);
  }
  const bytes = encoder.encode(key).length;
  if (bytes > MAX_KEY_BYTES) {
    throw new InvalidKey(key, 'too-long', `key is ${bytes} bytes; the limit is ${MAX_KEY_BYTES} UTF-8 bytes`);
  }
  for (const seg of key.split('/')) {
    if (seg === '') throw new InvalidKey(key, 'empty-segment', `key ${JSON.stringify(key)} must not contain "//"`);
    if (seg === '.' || seg === '..') {
      throw new InvalidKey(key, 'dot-segment', `key ${JSON.stringify(key)} must not contain "." or ".." segments`);
    }
    // git's verify_path rules with NTFS and HFS protection (see git-path.ts): `.git`, `.git.`,
    // `GIT~1`, `.git::$INDEX_ALLOCATION`, `.g\u200Cit`, `.gitmodules` variants.
    const rule = gitPathRule(seg);
    if (rule) {
      throw new InvalidKey(
        key,
        rule,
        `key ${JSON.stringify(key)} has the part ${JSON.stringify(seg)}, which ${GIT_PATH_RULE_TEXT[rule]}`,
        { component: seg },
      );
    }
  }
}

/** Non-throwing form of {@link assertValidKey}. */
export function isValidKey(key: unknown): key is string {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Validate a list prefix: empty, or a key-shaped path optionally ending in "/". */
export function assertValidPrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string') throw new InvalidKey(prefix, 'type', `prefix must be a string, got ${typeof prefix}`);
  if (prefix === '') return;
  if (prefix.endsWith('/')) return assertValidKey(prefix.slice(0, -1));
  try {
    assertValidKey(prefix);
  } catch (e) {
    // The last part of a prefix may be the start of a longer name: `x/.git` lists `x/.gitignore`.
    if (e instanceof InvalidKey && isValidKey(`${prefix}x`)) return;
    throw e;
  }
}
