/**
 * Where GitHttpRefStore's token may go: only in an Authorization header to the remote's own origin.
 * A redirect to another origin is refused before anything is sent there (checked on a second loopback
 * server, not trusted to fetch); a redirect within the origin is followed. The token is in no error,
 * log event or cache entry, nor in what util.inspect or JSON.stringify show of the store. Every read
 * is bounded: a reply over the size cap and a server that never answers both end in TransportError.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCacheBackend } from '../../src/cache/backend.js';
import { InvalidConfig, TransportError } from '../../src/core/errors.js';
import type { RemoteApiLogEvent } from '../../src/stores/remote-api/index.js';
import { type GitHttpFixture, gitHttpFixture, TOKEN } from './helpers.js';

let fx: GitHttpFixture | undefined;
const servers: Server[] = [];
afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A loopback server; returns its origin and the headers of every request it got. */
async function serve(
  handler: (req: { method: string; url: string }, res: import('node:http').ServerResponse) => void,
): Promise<{ origin: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    handler({ method: req.method ?? '', url: req.url ?? '' }, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const basic = `Basic ${Buffer.from(`docdb:${TOKEN}`).toString('base64')}`;

describe('GitHttpRefStore keeps its token on the remote origin', () => {
  it('a redirect to another origin is refused; the other server gets no request, let alone the token', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end('stolen?'));
    const first = await serve((req, res) => res.writeHead(302, { Location: `${other.origin}${req.url}` }).end());
    const { GitHttpRefStore } = await import('../../src/stores/git-http/index.js');
    const store = new GitHttpRefStore({ remote: `${first.origin}/o/r.git`, token: TOKEN });
    const e = await store.get('a.json').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as Error).message).toMatch(
      new RegExp(`redirected to another origin \\(${other.origin}\\); docdb never sends the token to another origin`),
    );
    expect(first.seen[0]?.authorization).toBe(basic); // the remote's origin did get it
    expect(other.seen).toEqual([]);
    expect(JSON.stringify(e)).not.toContain(TOKEN);
  });

  it('a POST redirected (to any origin) is refused: git follows redirects on the first GET only', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end());
    const pkt = (text: string) => (text.length + 4).toString(16).padStart(4, '0') + text;
    const advert = `${pkt('version 2\n')}${pkt('fetch=shallow\n')}${pkt('ls-refs\n')}0000`;
    const first = await serve((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement' }).end(advert);
      } else res.writeHead(307, { Location: `${other.origin}/o/r.git/git-upload-pack` }).end();
    });
    const { GitHttpRefStore } = await import('../../src/stores/git-http/index.js');
    const e = await new GitHttpRefStore({ remote: `${first.origin}/o/r.git`, token: TOKEN }).head().catch((x) => x);
    expect(e).toBeInstanceOf(InvalidConfig);
    expect(other.seen).toEqual([]);
  });

  it('a GET redirected within the origin is followed, and later requests use the new URL', async () => {
    fx = await gitHttpFixture();
    await fx.store().put('a.json', '"moved"');
    const git = fx.server.url;
    const paths: string[] = [];
    const proxy = createServer(async (req, res) => {
      paths.push(`${req.method} ${req.url}`);
      if (req.url?.startsWith('/old.git/')) {
        res.writeHead(301, { Location: req.url.replace('/old.git/', '/data.git/') }).end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host')) as Record<
        string,
        string
      >;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const r = await fetch(`${git}${req.url}`, { method: req.method ?? 'GET', headers, ...(body ? { body } : {}) });
      res.writeHead(r.status, Object.fromEntries(r.headers)).end(Buffer.from(await r.arrayBuffer()));
    });
    servers.push(proxy);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const { GitHttpRefStore } = await import('../../src/stores/git-http/index.js');
    const store = new GitHttpRefStore({ remote: `${origin}/old.git`, token: TOKEN });
    expect(new TextDecoder().decode((await store.get('a.json'))?.value)).toBe('"moved"');
    expect(paths[0]).toBe('GET /old.git/info/refs?service=git-upload-pack');
    expect(paths.slice(1).every((p) => p.includes('/data.git/'))).toBe(true);
  });

  it('the token is in no log event, error or cache entry of a whole session', async () => {
    fx = await gitHttpFixture();
    const events: RemoteApiLogEvent[] = [];
    const cache = new MemoryCacheBackend();
    const store = fx.store({ logger: (e) => events.push(e), cache });
    await store.put('a.json', '1');
    await fx.store().put('a.json', '2'); // another writer: the next write loses a race and retries
    await store.put('b.json', '3');
    await store.history('a.json');
    const failure = await fx
      .store({ token: 'another-secret-token' })
      .put('c.json', '4')
      .catch((e) => e);
    const text = JSON.stringify({ events, failure, stack: String((failure as Error).stack) });
    expect(events.length).toBeGreaterThan(0);
    for (const secret of [TOKEN, basic, Buffer.from(TOKEN).toString('base64'), 'another-secret-token']) {
      expect(text).not.toContain(secret);
      for (const [key, value] of cache.entries()) {
        const bytes = (value as { body: Uint8Array }).body;
        expect(key).not.toContain(secret);
        expect(Buffer.from(bytes).toString('latin1')).not.toContain(secret);
      }
    }
  });
});

describe('inspecting or serialising a GitHttpRefStore never shows its token', () => {
  /** JSON.stringify writing a repeated object once (a used store's modules refer to each other). */
  const stringify = (value: unknown) => {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v !== 'object' || v === null) return v;
      if (seen.has(v)) return '[seen]';
      seen.add(v);
      return v;
    });
  };

  it('util.inspect (depth ∞, hidden too) and JSON.stringify of the store, its config and its client', async () => {
    fx = await gitHttpFixture();
    const store = fx.store();
    await store.put('a.json', '1'); // the token works, and the store has state to show
    expect(new TextDecoder().decode((await store.get('a.json'))?.value)).toBe('1');
    const parts = store as unknown as { o: object; client: object };
    for (const value of [store, parts.o, parts.client]) {
      for (const text of [
        inspect(value, { depth: Number.POSITIVE_INFINITY }),
        inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
        stringify(value),
      ]) {
        expect(text).toContain('data.git'); // the rendering reached the remote's settings
        for (const secret of [TOKEN, Buffer.from(`docdb:${TOKEN}`).toString('base64')]) {
          expect(text).not.toContain(secret);
        }
      }
    }
  });
});

describe('GitHttpRefStore bounds every read', () => {
  it('a fetch reply over maxFetchBytes is TransportError (too-large), not a buffer that grows forever', async () => {
    fx = await gitHttpFixture();
    await fx.store().put('big.bin', new Uint8Array(randomBytes(200_000))); // incompressible
    const e = await fx
      .store({ maxFetchBytes: 50_000 })
      .get('big.bin')
      .catch((x) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).data).toMatchObject({ reason: 'too-large', limit: 'maxFetchBytes', max: 50_000 });
    expect((e as TransportError).message).toMatch(/answered more than 50000 bytes; raise the store's maxFetchBytes/);
  });

  it('the default maxFetchBytes keeps a refused reply within the memory target (64 MiB: ~3x while received)', async () => {
    const { resolveGitHttp } = await import('../../src/stores/git-http/options.js');
    const { limits } = resolveGitHttp({ remote: 'http://127.0.0.1:1/o/r.git' });
    expect(limits.maxFetchBytes).toBe(64 * 1024 * 1024);
    expect(limits.maxInflatedBytes).toBe(256 * 1024 * 1024);
  });

  it('a server that never answers is TransportError (timeout)', async () => {
    const silent = await serve(() => {
      /* never answers */
    });
    const { GitHttpRefStore } = await import('../../src/stores/git-http/index.js');
    const e = await new GitHttpRefStore({ remote: `${silent.origin}/o/r.git`, timeoutMs: 200 }).head().catch((x) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect((e as TransportError).data.reason).toBe('timeout');
  });
});
