/**
 * Document identity `(namespace, doc_type, id)` and its canonical key `<namespace>/<doc_type>/<id>.json`.
 * See docs/documents.md.
 */
import { InvalidIdentity, InvalidKey } from '../core/errors.js';
import { GIT_PATH_RULE_TEXT, gitPathRule } from '../core/git-path.js';
import { assertValidKey, isPlainKey, MAX_KEY_BYTES } from '../core/keys.js';

/**
 * Identifies one document. `id` may contain `/` (for example `octo/hello-world`). The type field is
 * `doc_type` here and `type` in an envelope or a `put` (the specification's names); each side's error
 * names the other's word.
 */
export type Identity = { namespace: string; doc_type: string; id: string };

/** Which identity field an error is about. */
export type IdentityField = 'namespace' | 'doc_type' | 'id';

/** Suffix of every document key. */
export const DOCUMENT_SUFFIX = '.json';

/**
 * Keys under this prefix belong to docdb itself (state, metadata); they are never documents. Any
 * namespace starting with `_` is reserved for the same reason, so user documents can never collide.
 */
export const RESERVED_PREFIX = '_docdb/';

/**
 * Longest namespace, doc_type, or single id segment, in UTF-8 bytes: 255 is the file-name limit of
 * common file systems, so a checkout of the section ref always works. (The last id segment also
 * carries `.json`, so it may be at most 250 bytes.) The whole key is bounded by `MAX_KEY_BYTES`.
 */
export const MAX_SEGMENT_BYTES = 255;

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).length;

function fail(field: IdentityField, rule: string, value: unknown, why: string): never {
  const shown =
    typeof value === 'string' ? JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value) : String(value);
  throw new InvalidIdentity(field, `${field} ${shown} is invalid: ${why}`, {
    rule,
    value: typeof value === 'string' ? value : String(value),
  });
}

function checkSegment(field: IdentityField, value: string, segment: string, maxBytes: number): void {
  if (segment === '') {
    fail(
      field,
      'empty-segment',
      value,
      field === 'id' ? 'it must not start or end with "/" or contain "//"' : 'it must not be empty',
    );
  }
  if (segment === '.' || segment === '..') fail(field, 'dot-segment', value, 'no part of it may be "." or ".."');
  const gitRule = gitPathRule(segment);
  if (gitRule) fail(field, gitRule, value, `its part ${JSON.stringify(segment)} ${GIT_PATH_RULE_TEXT[gitRule]}`);
  if (byteLength(segment) > maxBytes) {
    fail(field, 'too-long', value, `each part may be at most ${maxBytes} UTF-8 bytes`);
  }
}

function checkField(field: IdentityField, value: unknown): asserts value is string {
  if (typeof value !== 'string') fail(field, 'type', value, `it must be a string, got ${typeof value}`);
  if (value.length === 0) fail(field, 'empty', value, 'it must not be empty');
  if (!value.isWellFormed()) fail(field, 'utf8', value, 'it is not valid UTF-8 (lone surrogate)');
  if (/[\u0000-\u001f\u007f]/.test(value))
    fail(field, 'control-char', value, 'it must not contain NUL or control characters');
  if (value.normalize('NFC') !== value) {
    fail(field, 'not-nfc', value, `it is not in Unicode form NFC; use ${JSON.stringify(value.normalize('NFC'))}`);
  }
  if (field !== 'id' && value.includes('/')) {
    fail(field, 'slash', value, `${field} is a single key segment and must not contain "/" (only id may)`);
  }
  if (field === 'namespace' && value.startsWith('_')) {
    fail(field, 'reserved', value, 'namespaces starting with "_" are reserved for docdb metadata (such as _docdb/)');
  }
  const segments = field === 'id' ? value.split('/') : [value];
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    checkSegment(
      field,
      value,
      seg,
      field === 'id' && last ? MAX_SEGMENT_BYTES - DOCUMENT_SUFFIX.length : MAX_SEGMENT_BYTES,
    );
  });
}

/**
 * Throw `InvalidIdentity` (with `data.field` and `data.rule`) unless the identity is valid. Runs before
 * any I/O. Rules: every field a non-empty, well-formed string without NUL/control characters; no
 * `.`, `..` or `.git` parts; namespace and doc_type without `/`; namespace not starting with `_`; each
 * part at most 255 UTF-8 bytes and the derived key at most `MAX_KEY_BYTES`.
 *
 * @example
 * assertValidIdentity({ namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' }); // ok
 * assertValidIdentity({ namespace: 'github', doc_type: 'repo', id: '../x' }); // InvalidIdentity { field: 'id', rule: 'dot-segment' }
 */
export function assertValidIdentity(identity: unknown): asserts identity is Identity {
  if (typeof identity !== 'object' || identity === null) {
    throw new InvalidIdentity(
      'identity',
      `identity must be an object { namespace, doc_type, id }, got ${identity === null ? 'null' : typeof identity}`,
      {
        rule: 'type',
      },
    );
  }
  const { namespace, doc_type, id } = identity as Record<string, unknown>;
  if (plainIdentityKey(namespace, doc_type, id) !== undefined) return;
  if (doc_type === undefined && Object.hasOwn(identity, 'type')) {
    // An envelope (and put) says `type`; an identity says `doc_type` (the seed's names, docs/documents.md).
    throw new InvalidIdentity(
      'doc_type',
      'doc_type is missing: an identity calls it doc_type, not type (an envelope and put call it type): { namespace, doc_type, id }',
      { rule: 'named-type' },
    );
  }
  assertIdentityFields(namespace, doc_type, id);
}

/**
 * Every identity rule, field by field, with the error that names the field and the rule (exported for
 * the test that checks the fast path never accepts what these refuse).
 *
 * @example
 * assertIdentityFields('github', 'repo', '../x'); // InvalidIdentity { field: 'id', rule: 'dot-segment' }
 */
export function assertIdentityFields(namespace: unknown, doc_type: unknown, id: unknown): void {
  checkField('namespace', namespace);
  checkField('doc_type', doc_type);
  checkField('id', id);
  const key = `${namespace}/${doc_type}/${id}${DOCUMENT_SUFFIX}`;
  if (byteLength(key) > MAX_KEY_BYTES) {
    fail(
      'id',
      'too-long',
      id,
      `the document key ${key.slice(0, 40)}… would be ${byteLength(key)} bytes; the limit is ${MAX_KEY_BYTES}`,
    );
  }
  // Belt and braces: the derived key must satisfy the RefStore key rules.
  try {
    assertValidKey(key);
  } catch (e) {
    if (e instanceof InvalidKey) fail('id', String(e.data.rule), id, e.message);
    throw e;
  }
}

/**
 * The key of an identity proven valid by one scan (every part plain printable ASCII: see `isPlainKey`),
 * or undefined when the full, field-by-field checks must decide. Each part is at most 255 bytes; the last
 * key segment carries `.json`, which bounds the last id segment at 250 as the full checks do.
 *
 * @example
 * plainIdentityKey('github', 'repo', 'octo/hello'); // 'github/repo/octo/hello.json'
 * plainIdentityKey('_docdb', 'x', 'y');             // undefined (reserved: the full checks say why)
 */
export function plainIdentityKey(namespace: unknown, docType: unknown, id: unknown): string | undefined {
  if (typeof namespace !== 'string' || typeof docType !== 'string' || typeof id !== 'string') return undefined;
  if (namespace.charCodeAt(0) === 0x5f || namespace.includes('/') || docType.includes('/')) return undefined;
  const key = `${namespace}/${docType}/${id}${DOCUMENT_SUFFIX}`;
  return isPlainKey(key, MAX_SEGMENT_BYTES) ? key : undefined;
}

/** Non-throwing form of {@link assertValidIdentity}. */
export function isValidIdentity(identity: unknown): identity is Identity {
  try {
    assertValidIdentity(identity);
    return true;
  } catch {
    return false;
  }
}

/**
 * The canonical key of a document: `<namespace>/<doc_type>/<id>.json`. Validates the identity first.
 *
 * @example
 * deriveKey({ namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' })
 * // 'github/repo/octo/hello-world.json'
 */
export function deriveKey(identity: Identity): string {
  assertValidIdentity(identity);
  return `${identity.namespace}/${identity.doc_type}/${identity.id}${DOCUMENT_SUFFIX}`;
}

/**
 * The identity a key belongs to, or `null` when the key is not a document key (wrong shape, no
 * `.json` suffix, under the reserved `_docdb/` prefix, or an identity that would be invalid).
 * Never throws: lists use it to skip foreign keys.
 *
 * @example
 * parseKey('github/repo/octo/hello-world.json') // { namespace: 'github', doc_type: 'repo', id: 'octo/hello-world' }
 * parseKey('_docdb/state/x.json') // null
 */
export function parseKey(key: unknown): Identity | null {
  if (typeof key !== 'string' || !key.endsWith(DOCUMENT_SUFFIX)) return null;
  const first = key.indexOf('/');
  const second = first < 0 ? -1 : key.indexOf('/', first + 1);
  if (second < 0) return null;
  const identity: Identity = {
    namespace: key.slice(0, first),
    doc_type: key.slice(first + 1, second),
    id: key.slice(second + 1, key.length - DOCUMENT_SUFFIX.length),
  };
  return isValidIdentity(identity) ? identity : null;
}
