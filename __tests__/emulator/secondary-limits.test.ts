/**
 * GitHub's secondary rate limits in the emulator (src/emulator/rations.ts): content creation per minute
 * and per hour, REST and GraphQL points, concurrency — per token, on an injected clock (no test waits),
 * answered as GitHub documents (403, its message, documentation_url, retry-after when the end is known).
 * https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
 */
import { describe, expect, it } from 'vitest';
import { createEmulatorApp, type EmulatorAppOptions } from '../../src/emulator/index.js';
import { isGraphqlMutation, resolveSecondaryLimits, SECONDARY_DOC } from '../../src/emulator/rations.js';

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

function world(options: EmulatorAppOptions = {}) {
  let t = T0;
  const app = createEmulatorApp({ now: () => t, ...options });
  app.state.createRepo('octo/r');
  app.state.addToken('tok', { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  app.state.addToken('other', { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  const call = async (method: string, path: string, body?: unknown, token = 'tok') => {
    const res = await app.fetch(
      new Request(`http://em.local${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  let n = 0;
  const blob = (token = 'tok') => call('POST', '/repos/octo/r/git/blobs', { content: `v${n++}` }, token);
  const read = () => call('GET', '/repos/octo/r/git/ref/heads/main');
  return {
    app,
    call,
    blob,
    read,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

describe('content creation: 80 a minute, 500 an hour, per token', () => {
  it('the 81st content-creating request of a minute gets 403 with GitHub body and an exact retry-after', async () => {
    const w = world({ secondaryLimits: true });
    for (let i = 0; i < 80; i++) {
      expect((await w.blob()).status).toBe(201);
      w.advance(100); // 80 requests over 8 s
    }
    const refused = await w.blob();
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message:
        'You have exceeded a secondary rate limit and have been temporarily blocked from content creation. Please retry your request again later.',
      documentation_url: SECONDARY_DOC,
      status: '403',
    });
    // The first of the 80 ages out of the sliding minute 60 s after it was sent: 52 s from now.
    expect(refused.headers.get('retry-after')).toBe('52');
    expect(refused.headers.get('x-ratelimit-remaining')).not.toBe('0'); // a secondary limit, not the primary
    expect(w.app.requests.at(-1)).toMatchObject({ limited: 'content-minute', status: 403 });
    // Reads still pass (points are far from 900), and another token has its own windows.
    expect((await w.read()).status).toBe(200);
    expect((await w.blob('other')).status).toBe(201);
    // A request 1 s before the window ends is refused again and marked as sent inside retry-after.
    w.advance(51_000);
    expect((await w.blob()).status).toBe(403);
    expect(w.app.requests.at(-1)?.insideRetryAfter).toBe(true);
    w.advance(1_000);
    expect((await w.blob()).status).toBe(201);
    expect(w.app.requests.at(-1)?.insideRetryAfter).toBeUndefined();
  });

  it('500 an hour: spread over minutes, the 501st waits for the first to be an hour old', async () => {
    const w = world({ secondaryLimits: true });
    for (let i = 0; i < 500; i++) {
      expect((await w.blob()).status, `request ${i}`).toBe(201);
      w.advance(1_000); // 60 a minute: under the minute limit
    }
    const refused = await w.blob();
    expect(refused.status).toBe(403);
    expect(w.app.requests.at(-1)?.limited).toBe('content-hour');
    expect(refused.headers.get('retry-after')).toBe(String(3600 - 500));
    w.advance(3_100 * 1000);
    expect((await w.blob()).status).toBe(201);
  });

  it('every mutating REST request counts (a ref update too), reads do not', async () => {
    const w = world({ secondaryLimits: { contentPerMinute: 2 } });
    const tip = (await w.read()).body.object.sha;
    expect((await w.call('PATCH', '/repos/octo/r/git/refs/heads/main', { sha: tip, force: false })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await w.read()).status).toBe(200);
    expect((await w.blob()).status).toBe(201);
    expect((await w.call('POST', '/repos/octo/r/git/refs', { ref: 'refs/x/y', sha: tip })).status).toBe(403);
  });
});

describe('points a minute', () => {
  it('REST: 900 points, a read 1 and a write 5', async () => {
    const w = world({ secondaryLimits: { contentPerMinute: 1000, contentPerHour: 1000 } });
    for (let i = 0; i < 896; i++) await w.read();
    expect(w.app.requests.filter((r) => r.status === 200)).toHaveLength(896);
    const write = await w.blob(); // 896 + 5 > 900
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/^You have exceeded a secondary rate limit\. Please wait a few minutes/);
    expect(w.app.requests.at(-1)?.limited).toBe('rest-points');
    expect(write.headers.get('retry-after')).toBe('60');
    expect((await w.read()).status).toBe(200); // 897: a read still fits
  });

  it('GraphQL: its own points (a query 1, a mutation 5), and a mutation creates content', async () => {
    const w = world({ secondaryLimits: { graphqlPointsPerMinute: 7, contentPerMinute: 1 } });
    const query = { query: 'query { viewer { login } }' };
    const mutation = {
      query: '# a comment: mutation\nmutation M { addStar(input: {starrableId: "x"}) { clientMutationId } }',
    };
    expect((await w.call('POST', '/graphql', query)).status).toBe(200);
    expect((await w.call('POST', '/graphql', mutation)).status).toBe(200); // 1 + 5 points; 1 content
    expect((await w.blob()).status).toBe(403); // the content minute is used up by the mutation
    expect(w.app.requests.at(-1)?.limited).toBe('content-minute');
    expect((await w.call('POST', '/graphql', query)).status).toBe(200); // 7 points
    expect((await w.call('POST', '/graphql', query)).status).toBe(403);
    expect(w.app.requests.at(-1)?.limited).toBe('graphql-points');
  });

  it('tells a mutation from a query lexically (strings, comments and field names do not count)', () => {
    const body = (query: string) => new TextEncoder().encode(JSON.stringify({ query }));
    expect(isGraphqlMutation(body('mutation { a }'))).toBe(true);
    expect(isGraphqlMutation(body('query Q { a } mutation { b }'))).toBe(true);
    expect(isGraphqlMutation(body('{ mutation }'))).toBe(false);
    expect(isGraphqlMutation(body('query { a(s: "mutation {") } # mutation'))).toBe(false);
    expect(isGraphqlMutation(new TextEncoder().encode('not json'))).toBe(false);
  });
});

describe('concurrency', () => {
  it('more requests in flight than allowed: 403 without retry-after (no known end)', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => {
      open = r;
    });
    // Answers wait in the ETag digest until the test lets them go: requests stay in flight.
    const subtle = {
      digest: async (alg: AlgorithmIdentifier, data: BufferSource) => {
        await gate;
        return crypto.subtle.digest(alg, data);
      },
    } as SubtleCrypto;
    const w = world({ secondaryLimits: { concurrent: 2 }, subtle });
    const held = [w.read(), w.read()];
    await new Promise((r) => setTimeout(r, 20));
    const third = await w.read();
    expect(third.status).toBe(403);
    expect(third.headers.get('retry-after')).toBeNull();
    expect(w.app.requests.at(-1)?.limited).toBe('concurrent');
    open();
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
    expect((await w.read()).status).toBe(200); // released
  });
});

describe('switching and configuring', () => {
  it('off by default: 200 writes in one minute all pass', async () => {
    const w = world();
    expect(w.app.secondaryLimits).toBeUndefined();
    for (let i = 0; i < 200; i++) expect((await w.blob()).status).toBe(201);
  });

  it('true is GitHub figures; bad figures are refused naming the figure', () => {
    expect(resolveSecondaryLimits(true)).toEqual({
      contentPerMinute: 80,
      contentPerHour: 500,
      concurrent: 100,
      restPointsPerMinute: 900,
      graphqlPointsPerMinute: 2000,
      status: 403,
    });
    expect(() => createEmulatorApp({ secondaryLimits: { contentPerMinute: 0 } })).toThrow(
      /secondaryLimits\.contentPerMinute must be an integer of at least 1, got 0/,
    );
    expect(() => createEmulatorApp({ secondaryLimits: { restPointsPerMinute: 4 } })).toThrow(/at least 5/);
    expect(() => createEmulatorApp({ secondaryLimits: { perDay: 1 } as never })).toThrow(
      /secondaryLimits\.perDay is not a figure/,
    );
    expect(() => createEmulatorApp({ now: 5 as never })).toThrow(/now must be a function/);
  });

  it('status 429 on request', async () => {
    const w = world({ secondaryLimits: { contentPerMinute: 1, status: 429 } });
    await w.blob();
    const refused = await w.blob();
    expect(refused.status).toBe(429);
    expect(refused.body.status).toBe('429');
  });
});
