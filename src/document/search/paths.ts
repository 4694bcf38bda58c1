/**
 * Where the files of one type's search index live in the section:
 *
 *   _docdb/search/<namespace>/<type>/manifest.json
 *   _docdb/search/<namespace>/<type>/terms/<shard name>.txt   (term shards, by term range)
 *   _docdb/search/<namespace>/<type>/delta.txt                (recent postings and tombstones)
 *   _docdb/search/<namespace>/<type>/delta/<part>.txt         (older pending ones, by term range)
 *   _docdb/search/<namespace>/<type>/table/<part>.json        (ordinal → id, 256 ordinals a part)
 *   _docdb/search/<namespace>/<type>/ids/<bucket>.json        (id → ordinal, by a hash of the id)
 *
 * Namespaces and types follow the identity rules, and every other segment is a decimal number, so each
 * path is a plain key.
 */
import { RESERVED_PREFIX } from '../identity.js';

export const SEARCH_ROOT = `${RESERVED_PREFIX}search/`;

/** The directory of one `(namespace, type)`'s search index. */
export function searchDir(namespace: string, type: string): string {
  return `${SEARCH_ROOT}${namespace}/${type}/`;
}

/**
 * @example
 * searchManifestPath('github', 'repo'); // '_docdb/search/github/repo/manifest.json'
 */
export function searchManifestPath(namespace: string, type: string): string {
  return `${searchDir(namespace, type)}manifest.json`;
}

/**
 * @example
 * shardPath('github', 'repo', '3'); // '_docdb/search/github/repo/terms/3.txt'
 */
export function shardPath(namespace: string, type: string, name: string): string {
  return `${searchDir(namespace, type)}terms/${name}.txt`;
}

/**
 * @example
 * deltaPath('github', 'repo'); // '_docdb/search/github/repo/delta.txt'
 */
export function deltaPath(namespace: string, type: string): string {
  return `${searchDir(namespace, type)}delta.txt`;
}

/**
 * @example
 * deltaPartPath('github', 'repo', '3'); // '_docdb/search/github/repo/delta/3.txt'
 */
export function deltaPartPath(namespace: string, type: string, name: string): string {
  return `${searchDir(namespace, type)}delta/${name}.txt`;
}

/**
 * @example
 * tablePartPath('github', 'repo', 0); // '_docdb/search/github/repo/table/0.json'
 */
export function tablePartPath(namespace: string, type: string, part: number): string {
  return `${searchDir(namespace, type)}table/${part}.json`;
}

/**
 * @example
 * bucketPath('github', 'repo', 5); // '_docdb/search/github/repo/ids/5.json'
 */
export function bucketPath(namespace: string, type: string, bucket: number): string {
  return `${searchDir(namespace, type)}ids/${bucket}.json`;
}
