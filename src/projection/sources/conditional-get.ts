/**
 * A GET through Octokit with `If-None-Match`: the request half of conditional reads (conditional.ts keeps
 * the ETags). A 304 costs no primary rate-limit budget when authorized
 * (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate).
 */
import type { SourceClient } from './types.js';

export type ConditionalResult =
  | { status: 200; data: unknown; headers: Record<string, unknown>; etag: string | undefined }
  | { status: 304; headers: Record<string, unknown> };

/**
 * GET through Octokit with `If-None-Match` when an ETag is known. Octokit reports a 304 as an error
 * (`status: 304`); here it is an answer. Other failures are rethrown for the caller's error mapping.
 *
 * @example
 * const res = await conditionalGet(octokit, { method: 'GET', url }, {}, etag);
 * if (res.status === 304) console.log('unchanged');
 */
export async function conditionalGet(
  client: SourceClient,
  route: string | { method: string; url: string },
  params: Record<string, unknown>,
  etag: string | undefined,
): Promise<ConditionalResult> {
  try {
    const headers = etag ? { headers: { 'if-none-match': etag } } : {};
    // Octokit ignores the parameters argument when the route is an object: merge them into it.
    const res =
      typeof route === 'string'
        ? await client.request(route, { ...params, ...headers })
        : await client.request({ ...route, ...params, ...headers });
    return { status: 200, data: res.data, headers: res.headers, etag: headerString(res.headers, 'etag') };
  } catch (e) {
    const f = e as { status?: unknown; response?: { headers?: Record<string, unknown> } };
    if (etag && f?.status === 304) return { status: 304, headers: f.response?.headers ?? {} };
    throw e;
  }
}

function headerString(headers: Record<string, unknown>, name: string): string | undefined {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return typeof v === 'string' && v ? v : undefined;
}
