/**
 * Git Database blobs: `POST /git/blobs` (UTF-8 or base64 content) and `GET /git/blobs/{sha}`
 * (https://docs.github.com/rest/git/blobs). Objects live in the repository's shared ObjectDb, so every
 * SHA is the one real git computes.
 */
import { fromBase64, utf8 } from '../../core/bytes.js';
import { ApiError, invalidRequest, notFound } from '../http.js';
import type { RouteContext, RouteDef } from '../route-context.js';
import { repoApiUrl } from '../shapes/common.js';
import { blobShape } from '../shapes/git-objects.js';
import { checkProps, objectBody, requireKeys, shaParam } from '../validate.js';

const DOC = {
  createBlob: 'https://docs.github.com/rest/git/blobs#create-a-blob',
  getBlob: 'https://docs.github.com/rest/git/blobs#get-a-blob',
};

function createBlob(ctx: RouteContext) {
  const doc = DOC.createBlob;
  const body = objectBody(ctx.body, doc);
  requireKeys(body, ['content'], doc);
  checkProps(body, { content: 'string', encoding: 'string' }, doc);
  const bytes = decodeContent(body.content as string, (body.encoding as string | undefined) ?? 'utf-8', doc);
  const sha = ctx.repo.db.putBlob(bytes);
  const url = `${repoApiUrl(ctx.repo, ctx.urls)}/git/blobs/${sha}`;
  return { status: 201, body: { sha, url }, headers: { Location: url } };
}

function decodeContent(content: string, encoding: string, doc: string): Uint8Array {
  if (encoding === 'utf-8') return utf8(content);
  if (encoding !== 'base64') {
    throw new ApiError(422, `encoding must be "utf-8" or "base64", got ${JSON.stringify(encoding)}`, doc);
  }
  try {
    return fromBase64(content);
  } catch {
    throw invalidRequest('content is not valid Base64.', doc);
  }
}

function getBlob(ctx: RouteContext) {
  const sha = shaParam(ctx.params.file_sha as string, DOC.getBlob);
  const o = ctx.repo.db.get(sha);
  if (o?.type !== 'blob') throw notFound(DOC.getBlob);
  return { status: 200, body: blobShape(ctx.repo, sha, o.body, ctx.urls), blobs: [sha] };
}

const R = '/repos/{owner}/{repo}/git';

export const gitBlobRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: `${R}/blobs`,
    operation: 'git/create-blob',
    doc: DOC.createBlob,
    write: true,
    emptyConflict: true,
    handler: createBlob,
  },
  {
    method: 'GET',
    path: `${R}/blobs/{file_sha}`,
    operation: 'git/get-blob',
    doc: DOC.getBlob,
    emptyConflict: true,
    handler: getBlob,
  },
];
