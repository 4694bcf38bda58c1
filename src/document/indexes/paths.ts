/**
 * Where index files live in the section:
 *
 *   _docdb/index/<namespace>/<type>/manifest.json
 *   _docdb/index/<namespace>/<type>/<field dir>/<part name>.jsonl
 *
 * A field dir is the field path with every character outside `[A-Za-z0-9_.-]` written `%XX` (its UTF-8
 * bytes), so it always starts with `d` (`data.…`) or `i` (`id`), holds no `~` or backslash, and is
 * therefore a plain key segment that none of git's path rules can match (core/keys.ts `isPlainKey`,
 * core/git-path.ts). Namespaces and types already follow the identity rules.
 */
import { RESERVED_PREFIX } from '../identity.js';

export const INDEX_ROOT = `${RESERVED_PREFIX}index/`;

/** The directory of one `(namespace, type)`'s index. */
export function indexDir(namespace: string, type: string): string {
  return `${INDEX_ROOT}${namespace}/${type}/`;
}

/**
 * @example
 * manifestPath('github', 'repo'); // '_docdb/index/github/repo/manifest.json'
 */
export function manifestPath(namespace: string, type: string): string {
  return `${indexDir(namespace, type)}manifest.json`;
}

/**
 * @example
 * fieldDir('data.owner.login'); // 'data.owner.login'
 * fieldDir('data.größe');       // 'data.gr%C3%B6%C3%9Fe'
 */
export function fieldDir(field: string): string {
  let out = '';
  for (const ch of field) {
    if (/[A-Za-z0-9_.-]/.test(ch)) out += ch;
    else for (const b of new TextEncoder().encode(ch)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * @example
 * partPath('github', 'repo', 'data.stars', '3'); // '_docdb/index/github/repo/data.stars/3.jsonl'
 */
export function partPath(namespace: string, type: string, field: string, name: string): string {
  return `${indexDir(namespace, type)}${fieldDir(field)}/${name}.jsonl`;
}
