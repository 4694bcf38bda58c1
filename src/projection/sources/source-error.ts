/**
 * What every source reader shares for talking to GitHub: the `Link` header parser and the mapping of an
 * Octokit failure to docdb's typed errors (through the one status mapping). It depends on no reader, so
 * every reader (select, list-pages, repository-rest, graphql-request, http) can use it without an import
 * cycle.
 */
import { utf8 } from '../../core/bytes.js';
import { DocDbError, NotFound, TransportError } from '../../core/errors.js';
import { mapStatusError } from '../../stores/remote-api/status.js';

/** Parse a `Link` header into rel → URL (the one parser lives in transport/headers.ts). */
export { parseLinkHeader } from '../../transport/headers.js';

/** Operation name source errors carry in `data.operation` (the Action's failure hints key on it). */
export const SOURCE_OPERATION = 'projection source';

interface OctokitFailure {
  status?: unknown;
  message?: string;
  response?: { status: number; headers?: Record<string, unknown>; data?: unknown };
  request?: { headers?: Record<string, unknown> };
}

/**
 * Turn an Octokit failure on a source request into docdb's typed error through the ONE status mapping
 * (`mapStatusError`), so sources and the store report 401/403/404/409/429/5xx alike. Octokit reports a
 * connection failure as status 500 without a `response`: that is a TransportError, not an upstream 500.
 *
 * @example
 * await octokit.request(route).catch((e) => {
 *   throw sourceError(e, 'octo/hello', '/repos/octo/hello/issues');
 * });
 */
export function sourceError(e: unknown, repository: string, path: string): unknown {
  if (e instanceof DocDbError) return e;
  const f = e as OctokitFailure;
  if (!f?.response) {
    if (typeof f?.status !== 'number') return e;
    return new TransportError(
      `${SOURCE_OPERATION}: GET ${path} failed without a response: ${f.message ?? 'connection error'}`,
      {
        operation: SOURCE_OPERATION,
        repository,
        path,
      },
      { cause: e },
    );
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(f.response.headers ?? {}))
    if (v !== undefined) headers[k.toLowerCase()] = String(v);
  const body =
    f.response.data === undefined
      ? new Uint8Array()
      : utf8(typeof f.response.data === 'string' ? f.response.data : JSON.stringify(f.response.data));
  const mapped = mapStatusError(
    {
      operation: SOURCE_OPERATION,
      step: `read ${repository}`,
      method: 'GET',
      path,
      repo: repository,
      // Octokit keeps the (redacted) authorization header on the error's request.
      authenticated: Boolean(f.request?.headers?.authorization),
    },
    { status: f.response.status, headers, body },
  );
  if (mapped instanceof NotFound) {
    return new NotFound(
      `source repository ${repository} not found (GET ${path} answered 404): check the name in the projection spec, and that the token can read it (private repositories of another owner need a token with access; the workflow's GITHUB_TOKEN only sees its own repository)`,
      { ...mapped.data, repository },
    );
  }
  return mapped;
}
