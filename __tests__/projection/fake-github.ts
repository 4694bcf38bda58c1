/** A tiny in-memory stand-in for the GitHub list endpoints the sources use (duck-typed SourceClient). */
import type { SourceClient } from '../../src/projection/sources/index.js';

export interface FakeRepo {
  full_name: string;
  default_branch: string;
  description: string | null;
  branches: Record<string, string>;
  issues: Record<string, unknown>[];
  pulls: Record<string, unknown>[];
  releases: Record<string, unknown>[];
}

export const API = 'https://api.example.test';

export function fakeGitHub(repos: FakeRepo[]) {
  const calls: { route: string; params: Record<string, unknown> }[] = [];
  const byName = new Map(repos.map((r) => [r.full_name, r]));
  const page = (all: unknown[], params: Record<string, unknown>, path: string) => {
    const per = Number(params.per_page ?? 30);
    const p = Number(params.page ?? 1);
    const items = all.slice((p - 1) * per, p * per);
    const headers: Record<string, unknown> = {};
    if (p * per < all.length) {
      const q = new URLSearchParams(
        Object.entries({ ...params, page: p + 1 })
          .filter(([k]) => k !== 'owner' && k !== 'repo')
          .map(([k, v]) => [k, String(v)]),
      );
      headers.link = `<${API}${path}?${q}>; rel="next"`;
    }
    return { status: 200, headers, data: items };
  };
  // Shaped like Octokit's RequestError: a status and the response it came with.
  const notFound = () =>
    Object.assign(new Error('Not Found'), {
      status: 404,
      response: { status: 404, headers: {}, data: { message: 'Not Found' } },
    });
  const client: SourceClient = {
    async request(route, params = {}) {
      let method: string;
      let path: string;
      let all: Record<string, unknown> = { ...params };
      if (typeof route === 'string') {
        const [m, tpl] = route.split(' ') as [string, string];
        method = m;
        path = tpl.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k]));
      } else {
        method = route.method;
        const u = new URL(route.url);
        if (u.origin !== API) throw new Error(`request to foreign origin ${u.origin}`);
        path = u.pathname;
        all = Object.fromEntries(u.searchParams);
      }
      calls.push({ route: `${method} ${path}`, params: all });
      const m = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(path);
      const repo = m ? byName.get(m[1]!) : undefined;
      if (!repo) throw notFound();
      const rest = m![2] ?? '';
      if (rest === '') return { status: 200, headers: {}, data: repo };
      if (rest === '/git/matching-refs/heads') {
        const refs = Object.entries(repo.branches).map(([b, sha]) => ({
          ref: `refs/heads/${b}`,
          object: { sha, type: 'commit' },
        }));
        return page(refs, all, path);
      }
      if (rest === '/issues') {
        let items = repo.issues;
        const state = String(all.state ?? 'open');
        if (state !== 'all') items = items.filter((i) => i.state === state);
        if (all.since) items = items.filter((i) => String(i.updated_at) >= String(all.since));
        if (all.labels) {
          const want = String(all.labels).split(',');
          items = items.filter((i) => want.every((l) => (i.labels as { name: string }[]).some((x) => x.name === l)));
        }
        items = [...items].sort((a, b) => String(a.updated_at).localeCompare(String(b.updated_at)));
        return page(items, all, path);
      }
      if (rest === '/pulls') {
        let items = repo.pulls;
        const state = String(all.state ?? 'open');
        if (state !== 'all') items = items.filter((i) => i.state === state);
        items = [...items].sort((a, b) => String(b.updated_at).localeCompare(String(a.updated_at)));
        return page(items, all, path);
      }
      if (rest === '/releases') return page(repo.releases, all, path);
      throw notFound();
    },
  };
  return { client, calls, byName };
}

export function issue(n: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1000 + n,
    number: n,
    title: `Issue ${n}`,
    state: 'open',
    state_reason: null,
    locked: false,
    user: { login: 'octocat' },
    labels: [{ name: 'bug' }],
    assignees: [],
    milestone: null,
    comments: 0,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: `2024-01-${String(n).padStart(2, '0')}T00:00:00Z`,
    closed_at: null,
    html_url: `https://github.com/x/y/issues/${n}`,
    ...over,
  };
}

export function fakeRepo(full: string, over: Partial<FakeRepo> = {}): FakeRepo {
  return {
    full_name: full,
    default_branch: 'main',
    description: `the ${full} repo`,
    branches: { main: 'a'.repeat(40), dev: 'b'.repeat(40) },
    issues: [],
    pulls: [],
    releases: [],
    ...over,
  };
}
