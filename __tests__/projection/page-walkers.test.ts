/**
 * Every page walker is bounded (issue 18): page-walk.ts is shared by the REST list sources, the REST
 * `owner/*` listing, the REST branch list of `repository`, GraphQL branch completion past 100 branches and
 * the public `paginate()`. Each is fed a server whose next page points back at a page already read (a
 * loop) and one whose listing never ends (max-pages), over loopback, and must stop after exactly the
 * pages it may read, with a typed error naming the listing and committing nothing.
 */
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponse } from '../../src/core/errors.js';
import { paginate } from '../../src/projection/sources/index.js';
import { createOctokit } from '../../src/transport/create-octokit.js';
import { closeServers, json, originOf, project, serve } from './loopback.js';

afterEach(closeServers);

const reasonOf = (e: unknown) => (e as InvalidResponse).data?.reason;

/** A source's failure names the projection and the line of its `source` in the spec. */
function expectNamesProjection(e: unknown) {
  expect((e as Error).message).toMatch(/ \(projection "x", docdb\.yml:3\)$/);
  expect((e as InvalidResponse).data).toMatchObject({ projection: 'x', file: 'docdb.yml', line: 3 });
}

describe('REST owner/* listing', () => {
  const spec = (more = '') =>
    `projections:\n  x:\n    source: { type: repository, api: rest, repositories: ["o/*"]${more} }\n`;

  it('a Link back at the first page is a loop: 2 requests, nothing committed', async () => {
    let first = '';
    const api = await serve((req, res, n) => {
      if (n === 1) first = req.url!;
      const next = n === 1 ? '/orgs/o/repos?page=2' : first; // page 2 points back at page 1, exactly
      json(res, [], { link: `<${originOf(req)}${next}>; rel="next"` });
    });
    const { error, head } = await project(spec(), api.url);
    expect(error).toBeInstanceOf(InvalidResponse);
    expect(reasonOf(error)).toBe('pagination-loop');
    expectNamesProjection(error);
    expect((error as Error).message).toContain(
      'repositories of o/*: the pagination points back at a page already read',
    );
    expect(api.requests()).toBe(2);
    expect(head).toBeNull();
  });

  it('a listing that never ends stops at max-pages', async () => {
    const api = await serve((req, res, n) =>
      json(res, [], { link: `<${originOf(req)}/orgs/o/repos?page=${n + 1}>; rel="next"` }),
    );
    const { error, head } = await project(spec(', max-pages: 3'), api.url);
    expect(reasonOf(error)).toBe('too-many-pages');
    expectNamesProjection(error);
    expect(api.requests()).toBe(3);
    expect(head).toBeNull();
  });
});

describe('REST branch list of a repository (api: rest)', () => {
  const spec = (more = '') =>
    `projections:\n  x:\n    source: { type: repository, api: rest, repositories: [o/r]${more} }\n`;
  const refs = '/repos/o/r/git/matching-refs/heads';
  /** The repository, then branch pages; `nextOf(page)` is the path page `page` links to. */
  const server = (nextOf: (page: number, req: IncomingMessage) => string) =>
    serve((req, res, n) => {
      if (!req.url!.startsWith(refs)) return json(res, { full_name: 'o/r', default_branch: 'main' });
      const page = n - 1;
      const branch = { ref: `refs/heads/b${page}`, object: { sha: 'a'.repeat(40), type: 'commit' } };
      json(res, [branch], { link: `<${originOf(req)}${nextOf(page, req)}>; rel="next"` });
    });

  it('a Link back at the first branch page is a loop: the repository and 2 branch pages, nothing committed', async () => {
    const api = await server((page) => (page === 1 ? `${refs}?per_page=100&page=2` : `${refs}?per_page=100`));
    const { error, head } = await project(spec(), api.url);
    expect(reasonOf(error)).toBe('pagination-loop');
    expectNamesProjection(error);
    expect((error as Error).message).toContain('branches of o/r: the pagination points back at a page already read');
    expect(api.requests()).toBe(3);
    expect(head).toBeNull();
  });

  it('a branch list that never ends stops at max-pages', async () => {
    const api = await server((page) => `${refs}?per_page=100&page=${page + 1}`);
    const { error, head } = await project(spec(', max-pages: 3'), api.url);
    expect(reasonOf(error)).toBe('too-many-pages');
    expectNamesProjection(error);
    expect(api.requests()).toBe(1 + 3);
    expect(head).toBeNull();
  });
});

describe('GraphQL branch completion (more than 100 branches)', () => {
  const spec = (more = '') => `projections:\n  x:\n    source: { type: repository, repositories: [o/r]${more} }\n`;
  const rateLimit = { cost: 1, limit: 5000, remaining: 4999, used: 1, resetAt: '2030-01-01T00:00:00Z' };
  const branchPage = (cursor: string) => ({
    totalCount: 1000,
    pageInfo: { hasNextPage: true, endCursor: cursor },
    nodes: [{ name: `b-${cursor}`, target: { oid: 'a'.repeat(40) } }],
  });
  const repository = {
    databaseId: 1,
    name: 'r',
    nameWithOwner: 'o/r',
    owner: { login: 'o' },
    description: null,
    isPrivate: false,
    visibility: 'PUBLIC',
    isArchived: false,
    isFork: false,
    url: 'https://github.com/o/r',
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
    pushedAt: null,
    defaultBranchRef: { name: 'main' },
    repositoryTopics: { nodes: [] },
    refs: branchPage('C1'),
  };
  /** The repository query, then branch queries answering with the cursor `cursorOf(query number)`. */
  const server = (cursorOf: (n: number) => string) =>
    serve((req, res, n) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const query = String(JSON.parse(body).query);
        if (query.startsWith('query DocdbRepositories')) return json(res, { data: { rateLimit, r0: repository } });
        json(res, { data: { rateLimit, r0: { refs: branchPage(cursorOf(n)) } } });
      });
    });

  it('an endCursor seen before is a loop: the repository query and one branch query, nothing committed', async () => {
    const api = await server(() => 'C1');
    const { error, head } = await project(spec(), api.url);
    expect(reasonOf(error)).toBe('pagination-loop');
    expectNamesProjection(error);
    expect((error as InvalidResponse).data).toMatchObject({ page: 'C1' });
    expect((error as Error).message).toContain(
      'GraphQL branches of o/r: the pagination points back at a page already read (C1)',
    );
    expect(api.requests()).toBe(2);
    expect(head).toBeNull();
  });

  it('branch pages that never end stop at max-pages', async () => {
    const api = await server((n) => `C${n}`);
    const { error, head } = await project(spec(', max-pages: 3'), api.url);
    expect(reasonOf(error)).toBe('too-many-pages');
    expectNamesProjection(error);
    expect(api.requests()).toBe(3); // the first page came with the repository, then 2 branch queries
    expect(head).toBeNull();
  });
});

describe('paginate()', () => {
  const pages = async (api: string, maxPages?: number) => {
    const client = createOctokit({ baseUrl: api, writeSpacingMs: 0 });
    const seen: unknown[][] = [];
    const error = await (async () => {
      for await (const page of paginate(client, 'GET /things', { per_page: 1 }, api, maxPages)) seen.push(page);
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    return { seen, error };
  };

  it('a Link back at the first page is refused before the first page is read again', async () => {
    const api = await serve((req, res, n) =>
      json(res, [n], { link: `<${originOf(req)}/things?per_page=1${n === 1 ? '&page=2' : ''}>; rel="next"` }),
    );
    const { seen, error } = await pages(api.url);
    expect(reasonOf(error)).toBe('pagination-loop');
    expect(seen).toEqual([[1], [2]]);
    expect(api.requests()).toBe(2);
  });

  it('a listing that never ends stops at maxPages', async () => {
    const api = await serve((req, res, n) =>
      json(res, [n], { link: `<${originOf(req)}/things?per_page=1&page=${n + 1}>; rel="next"` }),
    );
    const { seen, error } = await pages(api.url, 3);
    expect(reasonOf(error)).toBe('too-many-pages');
    expect(seen).toEqual([[1], [2], [3]]);
    expect(api.requests()).toBe(3);
  });
});
