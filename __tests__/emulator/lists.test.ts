import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from './checked-emulator.js';
import { apiClient } from './openapi-validator.js';

let em: EmulatorHandle;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  api = apiClient(em.url, 'ghp_demo_write');
});
afterAll(() => em.stop());

function links(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (m) out[m[2] as string] = m[1] as string;
  }
  return out;
}

describe('GET /commits', () => {
  it('pages history with Link headers that point back at the emulator, costing one request per page', async () => {
    const repo = 'acme/history';
    em.state.createRepo(repo);
    const shas: string[] = [];
    for (let i = 0; i < 7; i++) {
      shas.push(
        em.state.commitFiles(repo, {
          branch: 'refs/docdb/documents',
          files: { [i % 2 ? 'odd.json' : 'even.json']: String(i) },
        }),
      );
    }
    em.clearLog();
    const seen: string[] = [];
    let url: string | undefined = `/repos/${repo}/commits?sha=refs/docdb/documents&per_page=3`;
    let pages = 0;
    while (url) {
      const r = await api('GET', url);
      pages++;
      seen.push(...r.body.map((c: { sha: string }) => c.sha));
      const next = links(r.headers.get('link')).next;
      if (next) expect(next.startsWith(em.url)).toBe(true);
      url = next?.slice(em.url.length);
    }
    expect(pages).toBe(3);
    expect(em.requests).toHaveLength(3);
    // Newest first, ending with the repository's initial commit.
    expect(seen.slice(0, 7)).toEqual([...shas].reverse());
    expect(seen).toHaveLength(8);

    const odd = await api('GET', `/repos/${repo}/commits?sha=refs/docdb/documents&path=odd.json`);
    expect(odd.body.map((c: { sha: string }) => c.sha)).toEqual([shas[5], shas[3], shas[1]]);
    expect(odd.headers.get('link')).toBeNull();
    const p2 = await api('GET', `/repos/${repo}/commits?sha=refs/docdb/documents&per_page=3&page=2`);
    const l = links(p2.headers.get('link'));
    expect(Object.keys(l).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(l.last).toContain('page=3');
    expect((await api('GET', `/repos/${repo}/commits?sha=refs/docdb/documents&per_page=500`)).body).toHaveLength(8);
  });

  it('defaults to the default branch and rejects unknown starting points', async () => {
    const r = await api('GET', '/repos/octo-org/gadgets/commits');
    expect(r.body[0].sha).toBe(em.state.repo('octo-org/gadgets').db.readRef('refs/heads/trunk'));
    expect(r.body[0].commit.tree.sha).toMatch(/^[0-9a-f]{40}$/);
    const bad = await api('GET', '/repos/octo-org/gadgets/commits?sha=nope');
    expect(bad.status).toBe(404);
    expect(bad.body.message).toBe('No commit found for SHA: nope');
    expect((await api('GET', '/repos/octo-org/gadgets/commits?per_page=x')).status).toBe(422);
  });
});

describe('projection sources', () => {
  it('lists branches via matching-refs/heads and /branches', async () => {
    const m = await api('GET', '/repos/octo-org/widgets/git/matching-refs/heads');
    expect(m.body.map((r: { ref: string }) => r.ref)).toEqual([
      'refs/heads/develop',
      'refs/heads/feature/login',
      'refs/heads/main',
    ]);
    const b = await api('GET', '/repos/octo-org/widgets/branches');
    expect(b.body.map((x: { name: string }) => x.name)).toEqual(['develop', 'feature/login', 'main']);
  });

  it('lists issues (pull requests included) with state, since, labels and pagination', async () => {
    const open = await api('GET', '/repos/octo-org/widgets/issues');
    expect(open.body.map((i: { title: string }) => i.title)).toEqual([
      'Next version',
      'Login support',
      'Add a blue widget',
      'Widgets wobble',
    ]);
    expect(open.body[0].pull_request).toBeDefined();
    expect(open.body[3].pull_request).toBeUndefined();
    const closed = await api('GET', '/repos/octo-org/widgets/issues?state=closed');
    expect(closed.body.map((i: { title: string }) => i.title)).toEqual(['Old crash']);
    expect(closed.body[0].closed_at).toBe('2024-01-05T09:00:00Z');
    const since = await api('GET', '/repos/octo-org/widgets/issues?state=all&since=2024-01-05T00:00:00Z');
    expect(since.body.map((i: { title: string }) => i.title)).toEqual(['Next version', 'Login support', 'Old crash']);
    const bugs = await api('GET', '/repos/octo-org/widgets/issues?state=all&labels=bug&direction=asc');
    expect(bugs.body.map((i: { title: string }) => i.title)).toEqual(['Widgets wobble', 'Old crash']);
    expect(bugs.body[0].labels[0]).toMatchObject({ name: 'bug' });
    const paged = await api('GET', '/repos/octo-org/widgets/issues?state=all&per_page=2');
    expect(paged.body).toHaveLength(2);
    expect(links(paged.headers.get('link')).last).toContain('page=3');
    expect((await api('GET', '/repos/octo-org/widgets/issues?state=weird')).status).toBe(422);
  });

  it('lists pulls with head/base and state', async () => {
    const pulls = await api('GET', '/repos/octo-org/widgets/pulls?state=all');
    expect(pulls.body.map((p: { number: number; draft: boolean }) => [p.number, p.draft])).toEqual([
      [5, true],
      [4, false],
    ]);
    const login = pulls.body[1];
    expect(login.head).toMatchObject({
      ref: 'feature/login',
      sha: em.state.repo('octo-org/widgets').db.readRef('refs/heads/feature/login'),
    });
    expect(login.base.ref).toBe('main');
    expect((await api('GET', '/repos/octo-org/widgets/pulls?state=closed')).body).toEqual([]);
  });

  it('lists releases newest first, drafts only for writers', async () => {
    const w = await api('GET', '/repos/octo-org/widgets/releases');
    expect(w.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v2.0.0', 'v1.1.0-rc.1', 'v1.0.0']);
    const anon = await apiClient(em.url)('GET', '/repos/octo-org/widgets/releases');
    expect(anon.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v1.1.0-rc.1', 'v1.0.0']);
    expect(em.state.repo('octo-org/widgets').db.readRef('refs/tags/v1.0.0')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('describes repositories and lists an owner’s repositories, hiding private ones', async () => {
    const repo = await api('GET', '/repos/octo-org/gadgets');
    expect(repo.body).toMatchObject({
      full_name: 'octo-org/gadgets',
      default_branch: 'trunk',
      description: 'Gadgets and gizmos',
    });
    expect(repo.body.organization.login).toBe('octo-org');
    const anonList = await apiClient(em.url)('GET', '/orgs/octo-org/repos?sort=full_name');
    expect(anonList.body.map((r: { name: string }) => r.name)).toEqual(['gadgets', 'widgets']);
    const mine = await api('GET', '/orgs/octo-org/repos?sort=full_name');
    expect(mine.body.map((r: { name: string }) => r.name)).toEqual(['gadgets', 'secret-plans', 'widgets']);
    // GitHub's defaults: organisations sort by creation, newest first; `type` filters.
    em.state.createRepo('octo-org/zz-fork', { fork: true, archived: true, createdAt: '2025-01-01T00:00:00Z' });
    expect((await api('GET', '/orgs/octo-org/repos')).body[0].name).toBe('zz-fork');
    const forks = await api('GET', '/orgs/octo-org/repos?type=forks');
    expect(
      forks.body.map((r: { name: string; fork: boolean; archived: boolean }) => [r.name, r.fork, r.archived]),
    ).toEqual([['zz-fork', true, true]]);
    expect((await api('GET', '/orgs/octo-org/repos?type=sources&sort=full_name')).body).toHaveLength(3);
    expect((await api('GET', '/orgs/octo-org/repos?type=nope')).status).toBe(422);
    // A user is not an organisation.
    expect((await api('GET', '/orgs/octocat/repos')).status).toBe(404);
    expect((await api('GET', '/users/octocat/repos')).body.map((r: { name: string }) => r.name)).toEqual([
      'empty',
      'hello-world',
    ]);
    expect((await api('GET', '/orgs/nobody/repos')).status).toBe(404);
    // Repository names are case-insensitive, as on GitHub.
    expect((await api('GET', '/repos/Octo-Org/Widgets')).body.full_name).toBe('octo-org/widgets');
  });
});
