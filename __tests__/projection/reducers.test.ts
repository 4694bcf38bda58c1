import { describe, expect, it } from 'vitest';
import {
  BUILTINS,
  issueReducer,
  pullReducer,
  releaseReducer,
  repositoryReducer,
} from '../../src/projection/reducers/index.js';
import { fetchSource, type SourceClient } from '../../src/projection/sources/index.js';

describe('built-in reducers', () => {
  it('repository: the seed shape, branches as full ref names sorted by name', () => {
    const data = repositoryReducer({
      repository: { full_name: 'octo/hello', default_branch: 'main', description: null, stargazers_count: 5 },
      branches: [
        { ref: 'refs/heads/main', object: { sha: '1'.repeat(40), type: 'commit' } },
        { ref: 'refs/heads/dev', object: { sha: '2'.repeat(40), type: 'commit' } },
      ],
    });
    expect(data).toEqual({
      fullName: 'octo/hello',
      defaultBranch: 'main',
      description: null,
      branches: [
        { name: 'refs/heads/dev', sha: '2'.repeat(40) },
        { name: 'refs/heads/main', sha: '1'.repeat(40) },
      ],
    });
  });

  it('issue: stable fields only, labels and assignees sorted', () => {
    const base = {
      number: 3,
      title: 'Bug',
      state: 'closed',
      state_reason: 'completed',
      user: { login: 'a' },
      labels: [{ name: 'z' }, 'a'],
      assignees: [{ login: 'y' }, { login: 'x' }],
      milestone: { title: 'v1' },
      comments: 2,
      reactions: { total_count: 9 },
      created_at: 'c',
      updated_at: 'u',
      closed_at: 'd',
      html_url: 'h',
      url: 'api',
    };
    const data = issueReducer(base);
    expect(data).toEqual({
      number: 3,
      title: 'Bug',
      state: 'closed',
      stateReason: 'completed',
      locked: false,
      author: 'a',
      labels: ['a', 'z'],
      assignees: ['x', 'y'],
      milestone: 'v1',
      comments: 2,
      createdAt: 'c',
      updatedAt: 'u',
      closedAt: 'd',
      url: 'h',
    });
    // Reaction counts are not part of the document: they change without the issue changing.
    expect(issueReducer({ ...base, reactions: { total_count: 10 } })).toEqual(data);
  });

  it('pull: merged flag, base/head', () => {
    const data = pullReducer({
      number: 5,
      title: 'Fix',
      state: 'closed',
      draft: false,
      merged_at: '2024-01-01T00:00:00Z',
      user: { login: 'a' },
      base: { ref: 'main' },
      head: { ref: 'fix', sha: 'f'.repeat(40) },
      labels: [],
      requested_reviewers: [{ login: 'r' }],
    });
    expect(data).toMatchObject({
      merged: true,
      base: 'main',
      head: 'fix',
      headSha: 'f'.repeat(40),
      requestedReviewers: ['r'],
    });
  });

  it('release: assets without download counts', () => {
    const one = releaseReducer({
      tag_name: 'v1',
      assets: [{ name: 'a', size: 1, content_type: 'x', download_count: 1 }],
    });
    const two = releaseReducer({
      tag_name: 'v1',
      assets: [{ name: 'a', size: 1, content_type: 'x', download_count: 99 }],
    });
    expect(one).toEqual(two);
    expect(one.assets).toEqual([{ name: 'a', size: 1, contentType: 'x' }]);
    expect(one.tag).toBe('v1');
  });

  it('raw passes the item through', () => {
    const item = { a: 1 };
    expect(BUILTINS.raw!(item, {} as never)).toBe(item);
  });
});

describe('repository source', () => {
  it('keeps only refs/heads/* from matching-refs/heads (a prefix match that can return refs/heads-old/…)', async () => {
    const sha = 'a'.repeat(40);
    const client: SourceClient = {
      async request(route) {
        if ((typeof route === 'string' ? route : route.url).includes('/repos/o/r/git/matching-refs/heads'))
          return {
            status: 200,
            headers: {},
            data: ['refs/heads/main', 'refs/heads-old/x', 'refs/headsup'].map((ref) => ({ ref, object: { sha } })),
          };
        return { status: 200, headers: {}, data: { full_name: 'o/r', default_branch: 'main' } };
      },
    };
    const pages = [];
    for await (const p of fetchSource(client, { type: 'repository', api: 'rest', repositories: ['o/r'] }, 'o/r'))
      pages.push(p);
    const data = repositoryReducer(pages[0]!.items[0]!.item);
    expect(data.branches).toEqual([{ name: 'refs/heads/main', sha }]);
  });
});
