/**
 * Pieces every JSON shape uses: GitHub's (legacy) node ids and the base URLs of a repository.
 * The shapes under this folder follow GitHub's OpenAPI description (@octokit/openapi, api.github.com)
 * field for field and in GitHub's key order, since clients and recorded fixtures compare bodies.
 */
import { toBase64, utf8 } from '../../core/bytes.js';
import type { Urls } from '../model.js';

/**
 * A legacy global node id: base64 of `0<kind length>:<kind><id>`, as GitHub's REST API still sends.
 *
 * @example
 * nodeId('Repository', 1001); // 'MDEwOlJlcG9zaXRvcnkxMDAx'
 */
export function nodeId(kind: string, id: number | string): string {
  return toBase64(utf8(`0${kind.length}:${kind}${id}`));
}

/**
 * The API URL of a repository, the base of most URLs in its resources.
 *
 * @example
 * repoApiUrl({ fullName: 'octo/data' }, urls); // 'http://127.0.0.1:PORT/repos/octo/data'
 */
export function repoApiUrl(repo: { fullName: string }, urls: Urls): string {
  return `${urls.api}/repos/${repo.fullName}`;
}
