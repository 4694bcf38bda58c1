/**
 * The playground's projection (spec §4 "Projection procedure", browser half): fetch a repository's
 * description and its branch refs, reduce them to one `github/repo/<owner>/<name>` envelope, and keep
 * it in memory only (a MemoryRefStore, so the envelope gets a real version without persisting).
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import type { RateLimit } from '../core/refstore.js';
import { DocumentStore } from '../document/document-store.js';
import type { Envelope } from '../document/envelope.js';
import { MemoryRefStore } from '../stores/memory/memory-refstore.js';
import { DEFAULT_API_URL } from '../stores/remote-api/config.js';
import { mapStatusError, parseRateLimit } from '../stores/remote-api/status.js';
import type { HttpTransport } from '../transport/types.js';

export interface RepoProjectionData {
  fullName: string;
  description: string | null;
  defaultBranch: string;
  branches: { name: string; sha: string }[];
}

export interface RepoProjectionResult {
  /** The envelope as stored in the in-memory section (namespace `github`, type `repo`, id `owner/name`). */
  envelope: Envelope<RepoProjectionData>;
  /** Upstream requests made. */
  requests: number;
  rateLimit?: RateLimit;
}

export interface RepoProjectionOptions {
  transport: HttpTransport;
  /** `owner/name`. */
  repository: string;
  apiUrl?: string;
  /** Optional token (public repositories need none). */
  token?: string;
}

const REPOSITORY_RE = /^([A-Za-z0-9](?:[A-Za-z0-9_-]{0,98}[A-Za-z0-9])?)\/([A-Za-z0-9._-]{1,100})$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Fetch and project one repository (2 requests: `GET /repos/{o}/{r}` and
 * `GET /repos/{o}/{r}/git/matching-refs/heads`, plus one per further page of branches).
 *
 * @example
 * const { envelope, requests, rateLimit } = await projectRepository({ transport: fetchTransport(), repository: 'octocat/hello-world' });
 * envelope.data.branches; // [{ name: 'master', sha: '…' }]
 */
export async function projectRepository(options: RepoProjectionOptions): Promise<RepoProjectionResult> {
  const m = REPOSITORY_RE.exec(options.repository?.trim() ?? '');
  if (!m || m[2] === '.' || m[2] === '..') {
    throw new InvalidConfig(
      'repository',
      `repository must look like "owner/name", got ${JSON.stringify(options.repository)}`,
      {
        allowed: 'owner/name',
      },
    );
  }
  const [owner, name] = [m[1] as string, m[2] as string];
  let api: URL;
  try {
    api = new URL(options.apiUrl ?? DEFAULT_API_URL);
  } catch {
    throw new InvalidConfig('apiUrl', `apiUrl ${JSON.stringify(options.apiUrl)} is not an absolute URL`, {
      allowed: 'https://api.github.com or an emulator URL',
    });
  }
  const base = `${api.origin}${api.pathname.replace(/\/+$/, '')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  let requests = 0;
  let rateLimit: RateLimit | undefined;
  const get = async (step: string, url: string) => {
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    };
    // The token only ever goes to the API origin.
    if (options.token && new URL(url).origin === api.origin) headers.authorization = `Bearer ${options.token}`;
    requests++;
    const res = await options.transport.request({ method: 'GET', url, headers });
    rateLimit = parseRateLimit(res.headers) ?? rateLimit;
    if (res.status !== 200) {
      throw mapStatusError(
        {
          operation: 'project',
          step,
          method: 'GET',
          path: new URL(url).pathname,
          repo: `${owner}/${name}`,
          authenticated: headers.authorization !== undefined,
        },
        res,
      );
    }
    try {
      return { json: JSON.parse(new TextDecoder().decode(res.body)) as unknown, link: res.headers.link };
    } catch (e) {
      throw new InvalidResponse(`project: ${step} answered with a body that is not JSON`, { step }, { cause: e });
    }
  };
  const repo = (await get('read repository', base)).json;
  if (!isObject(repo) || typeof repo.full_name !== 'string' || typeof repo.default_branch !== 'string') {
    throw new InvalidResponse('project: read repository returned no full_name / default_branch', {});
  }
  const branches: { name: string; sha: string }[] = [];
  let next: string | undefined = `${base}/git/matching-refs/heads`;
  while (next) {
    const page = await get('list branches', next);
    if (!Array.isArray(page.json)) throw new InvalidResponse('project: list branches did not return a list', {});
    for (const r of page.json) {
      if (isObject(r) && typeof r.ref === 'string' && isObject(r.object) && typeof r.object.sha === 'string') {
        branches.push({ name: r.ref.replace(/^refs\/heads\//, ''), sha: r.object.sha });
      }
    }
    const link = /<([^>]+)>\s*;\s*rel="next"/.exec(page.link ?? '')?.[1];
    // Follow pagination only on the API origin.
    next = link && new URL(link).origin === api.origin ? link : undefined;
  }
  const data: RepoProjectionData = {
    fullName: repo.full_name,
    description: typeof repo.description === 'string' ? repo.description : null,
    defaultBranch: repo.default_branch,
    branches,
  };
  const docs = new DocumentStore(new MemoryRefStore());
  const put = await docs.put({ namespace: 'github', type: 'repo', id: data.fullName, data });
  return { envelope: put.document as Envelope<RepoProjectionData>, requests, ...(rateLimit ? { rateLimit } : {}) };
}
