/**
 * The publisher's one way to GitHub: every request goes through `ReviewApi.send`, which counts it and
 * turns an Octokit failure into docdb's typed error through THE status mapping (`mapStatusError`), built
 * from the status, headers and body only — never from the failed request, whose headers hold the token.
 * The callers then tell a refusal they report (`isDenial`) from a failure they throw.
 */
import { utf8 } from '../../core/bytes.js';
import { DocDbError, Forbidden, NotFound, TransportError } from '../../core/errors.js';
import type { SourceClient } from '../../projection/sources/types.js';
import { mapStatusError } from '../../stores/remote-api/status.js';

/** Operation name the publisher's errors carry in `data.operation`. */
export const PUBLISH_OPERATION = 'review publish';

interface OctokitFailure {
  status?: unknown;
  response?: { status: number; headers?: Record<string, unknown>; data?: unknown };
}

/** A route like `GET /repos/{owner}/{repo}/pulls/{pull_number}` and its parameters. */
export type Params = Record<string, unknown>;

/**
 * A counting, error-mapping view of a `SourceClient` (Octokit's `request`) for one repository.
 *
 * @example
 * const api = new ReviewApi(octokit, 'octo/data');
 * const { data } = await api.send('GET /repos/{owner}/{repo}/pulls/{pull_number}', { pull_number: 7 }, 'read the pull request');
 * api.requests; // 1
 */
export class ReviewApi {
  /** Requests sent so far. */
  requests = 0;
  private readonly owner: string;
  private readonly repo: string;

  constructor(
    private readonly client: SourceClient,
    readonly repository: string,
  ) {
    const [owner, repo] = repository.split('/') as [string, string];
    this.owner = owner;
    this.repo = repo;
  }

  /** Send one request (`owner` and `repo` filled in); a failure is a DocDbError naming `step`, token-free. */
  async send(
    route: string,
    params: Params,
    step: string,
  ): Promise<{ headers: Record<string, unknown>; data: unknown }> {
    this.requests++;
    try {
      const res = await this.client.request(route, { owner: this.owner, repo: this.repo, ...params });
      return { headers: res.headers, data: res.data };
    } catch (e) {
      throw this.failure(e, route, params, step);
    }
  }

  private failure(e: unknown, route: string, params: Params, step: string): DocDbError {
    if (e instanceof DocDbError) return e;
    const [method = 'GET', template = ''] = route.split(' ');
    const path = template.replace(/\{(\w+)\}/g, (_m, k: string) =>
      encodeURIComponent(String({ owner: this.owner, repo: this.repo, ...params }[k] ?? k)),
    );
    const f = e as OctokitFailure;
    if (!f?.response) {
      return new TransportError(`${PUBLISH_OPERATION}: ${step} (${method} ${path}) failed without a response`, {
        operation: PUBLISH_OPERATION,
        step,
        method,
        path,
      });
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(f.response.headers ?? {}))
      if (v !== undefined) headers[k.toLowerCase()] = String(v);
    const data = f.response.data;
    const body = data === undefined ? new Uint8Array() : utf8(typeof data === 'string' ? data : JSON.stringify(data));
    const ctx = { operation: PUBLISH_OPERATION, step, method, path, repo: this.repository, authenticated: true };
    return mapStatusError(ctx, { status: f.response.status, headers, body });
  }
}

/**
 * A refusal of the token (403 that is not a rate limit, or 404: GitHub hides what a token may not see):
 * reported as a missing permission, never thrown.
 *
 * @example
 * try { await api.send(...) } catch (e) { if (!isDenial(e)) throw e; missing.add('checks: write'); }
 */
export function isDenial(e: unknown): boolean {
  return e instanceof Forbidden || e instanceof NotFound;
}
