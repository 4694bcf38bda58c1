/**
 * Paging a document list: the opaque cursor (`<version>\n<last key>`, base64url) that pins later pages to the
 * first page's version, and the `limit` rule.
 */
import { fromBase64, fromUtf8, toBase64, utf8 } from '../core/bytes.js';
import { InvalidConfig } from '../core/errors.js';
import type { VersionId } from '../core/version.js';

/** Opaque cursor = base64url of `<version>\n<last key>`; it pins later pages to the first page's version. */
export function encodeCursor(version: VersionId, lastKey: string): string {
  return toBase64(utf8(`${version}\n${lastKey}`))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

export function decodeCursor(cursor: unknown): { version: VersionId; after: string } {
  const bad = (): never => {
    throw new InvalidConfig('cursor', 'cursor is not a nextCursor returned by DocumentStore.list', {
      allowed: 'the nextCursor string of a previous list() result',
    });
  };
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]+$/.test(cursor)) return bad();
  let text: string;
  try {
    text = fromUtf8(fromBase64(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return bad();
  }
  const version = text.slice(0, 40);
  if (text[40] !== '\n' || !/^[0-9a-f]{40}$/.test(version)) return bad();
  return { version, after: text.slice(41) };
}

export function assertLimit(limit: unknown): asserts limit is number | undefined {
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)) {
    throw new InvalidConfig('limit', `limit must be a positive integer, got ${JSON.stringify(limit)}`, {
      allowed: 'an integer ≥ 1',
    });
  }
}
