/**
 * Listing a section's quarantine refs (`GET /git/matching-refs/…`, docdb section quarantine list) reads an
 * untrusted, paged answer: a next-page link to another origin is refused before anything is sent there (the
 * token would go with it), and a listing past the page cap is an error, never the first 1,000 refs as if they
 * were all.
 */
import { describe, expect, it } from 'vitest';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/transport/types.js';
import { noSleep, OWNER, TOKEN } from './helpers.js';

const API = 'https://api.github.example';
const PREFIX = 'refs/docdb/documents.quarantine/';

/** A GitHub that answers every matching-refs page with 100 quarantine refs and a `next` link from `link(page)`. */
function pagedGitHub(link: (page: number) => string | undefined, sent: HttpRequest[]): HttpTransport {
  return {
    async request(req): Promise<HttpResponse> {
      sent.push(req);
      const page = Number(new URL(req.url).searchParams.get('page') ?? '1');
      const refs = Array.from({ length: 100 }, (_, i) => ({
        ref: `${PREFIX}${page}.${i}`,
        object: { sha: 'a'.repeat(40), type: 'commit' },
      }));
      const next = link(page);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (next) headers.link = `<${next}>; rel="next"`;
      return { status: 200, headers, body: new TextEncoder().encode(JSON.stringify(refs)) };
    },
  };
}

function storeOn(transport: HttpTransport): RemoteApiRefStore {
  return new RemoteApiRefStore({ transport, apiUrl: API, owner: OWNER, repo: 'r', token: TOKEN, sleep: noSleep });
}

describe('listing refs under a prefix (quarantine list)', () => {
  it('follows next pages on the API origin and returns every ref', async () => {
    const sent: HttpRequest[] = [];
    const url = (p: number) =>
      `${API}/repos/${OWNER}/r/git/matching-refs/docdb/documents.quarantine?per_page=100&page=${p}`;
    const refs = await storeOn(pagedGitHub((p) => (p < 3 ? url(p + 1) : undefined), sent)).listRefs(PREFIX);
    expect(refs).toHaveLength(300);
    expect(sent.map((r) => new URL(r.url).origin)).toEqual([API, API, API]);
  });

  it('a next page on another origin is refused, and nothing is sent there', async () => {
    const sent: HttpRequest[] = [];
    const github = pagedGitHub(() => 'https://evil.example/steal?page=2', sent);
    await expect(storeOn(github).listRefs(PREFIX)).rejects.toMatchObject({
      code: 'InvalidResponse',
      message: expect.stringMatching(/points to https:\/\/evil\.example, not the configured API origin/),
    });
    expect(sent.map((r) => new URL(r.url).origin)).toEqual([API]);
  });

  it('past 10 pages (1,000 refs) the listing is an error naming the prefix, not a silent cut', async () => {
    const sent: HttpRequest[] = [];
    const url = (p: number) => `${API}/repos/${OWNER}/r/git/matching-refs/docdb/documents.quarantine?page=${p}`;
    await expect(storeOn(pagedGitHub((p) => url(p + 1), sent)).listRefs(PREFIX)).rejects.toMatchObject({
      code: 'InvalidResponse',
      message: expect.stringMatching(/more than 1000 refs under refs\/docdb\/documents\.quarantine\//),
    });
    expect(sent).toHaveLength(10);
  });
});
