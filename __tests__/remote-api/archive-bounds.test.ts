/**
 * Hostile archives through the whole read (issue 27 items 2, 3, 6): RemoteApiRefStore with
 * nodeArchiveReader, the API on the emulator, and codeload's answer served by a loopback server of this
 * test (the emulator's 302 is followed to it), so bombs, endless error bodies, corrupt bytes and lost
 * connections travel real sockets. Each test counts downloads and the bytes the reader pulled.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidResponse, TransportError } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { nodeArchiveReader } from '../../src/stores/remote-api/node-archive.js';
import { emulatorPerFile, OWNER, ops, store } from './helpers.js';
import { END, gzipAll, gzipStream, manyEntries, paxPathBomb, tarHeader, zeroFiles } from './tar-bombs.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
const MiB = 1024 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const loop = {
  server: undefined as Server | undefined,
  url: '',
  handler: undefined as Handler | undefined,
  hits: 0,
  /**
   * Codeload's answer made in this process instead (the bombs): a body generated only as the reader
   * pulls it, so where the read stopped shows in how much was generated — a socket would let the server
   * run megabytes ahead into the kernel's buffers.
   */
  inProcess: undefined as (() => Response) | undefined,
};

beforeAll(async () => {
  loop.server = createServer((req, res) => {
    loop.hits++;
    loop.handler?.(req, res);
  });
  await new Promise<void>((resolve) => loop.server?.listen(0, '127.0.0.1', resolve));
  loop.url = `http://127.0.0.1:${(loop.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  loop.server?.closeAllConnections();
  await new Promise((resolve) => loop.server?.close(resolve));
});
beforeEach(() => {
  loop.hits = 0;
  loop.handler = undefined;
  loop.inProcess = undefined;
});

/** A 500 whose body never ends (until the client goes away). */
function serveEndless500(res: ServerResponse): void {
  res.writeHead(500, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const more = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', more);
  };
  more();
}

/**
 * The archive reader's fetch: the API requests go to the emulator (or, with `apiTarball`, the tarball
 * request itself to the loopback server); codeload's go to the loopback server. Bodies from the loopback
 * server are counted as the reader pulls them.
 */
function routedFetch(pulled: { bytes: number }, apiTarball = false): typeof fetch {
  return async (input, init) => {
    const url = new URL(String(input));
    const toLoop = url.origin !== fx.em.url || (apiTarball && url.pathname.includes('/tarball/'));
    if (!toLoop) return fetch(input, init);
    if (loop.inProcess) loop.hits++;
    const res = loop.inProcess ? loop.inProcess() : await fetch(`${loop.url}${url.pathname}${url.search}`, init);
    const inner = res.body?.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(c) {
        const r = await (inner as ReadableStreamDefaultReader<Uint8Array>).read();
        if (r.done) return c.close();
        pulled.bytes += r.value.length;
        c.enqueue(r.value);
      },
      cancel: (reason) => inner?.cancel(reason),
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

const docText = (i: number) => `${JSON.stringify({ data: { i }, id: `item-${i}`, namespace: 'n', type: 't' })}\n`;

/** 100 documents in the emulator; the archive's top directory for their commit. */
function seed(): { commit: string; top: string } {
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < 100; i++) files[`n/t/item-${i}.json`] = docText(i);
  const commit = fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files });
  return { commit, top: `${OWNER}-${fx.repo}-${commit.slice(0, 7)}/` };
}

function storeWith(pulled: { bytes: number }, extra: Parameters<typeof store>[2] = {}, apiTarball = false) {
  return store(fx.em, fx.repo, {
    archive: nodeArchiveReader({ fetch: routedFetch(pulled, apiTarball) }),
    archiveLimits: { timeoutMs: 20_000 },
    ...extra,
  });
}

async function listError(s: ReturnType<typeof store>) {
  return new DocumentStore(s).list({ withData: true }).then(
    () => undefined,
    (e: unknown) => e as InvalidResponse,
  );
}

describe('hostile archives: refused with a typed error after one download', () => {
  it('600 entries with an 8 MB pax path each (4.8 GB of tar): the metadata cap, ~nothing pulled', async () => {
    const { top } = seed();
    const stats = { tarBytes: 0 };
    loop.inProcess = () => new Response(gzipStream(paxPathBomb(top, 600, 8 * MiB), stats));
    const pulled = { bytes: 0 };
    const err = await listError(storeWith(pulled));
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err?.message).toMatch(/'x' metadata record of \d+ bytes is over the limit of 16384 bytes/);
    expect(loop.hits).toBe(1);
    // Bounds leave room for stream buffers on both sides (Node 22's are 64 KiB per stream, Node 20's 16 KiB):
    // what they prove is that the read stopped near the start, not where exactly.
    expect(pulled.bytes).toBeLessThan(512 * 1024); // the whole bomb is ~4.8 MB of gzip
    expect(stats.tarBytes).toBeLessThan(4 * 8 * MiB); // of 4.8 GB: the first few paths
  });

  it('a path longer than a key can be is refused', async () => {
    const { top } = seed();
    const long = `${top}${'k/'.repeat(700)}x.json`;
    const bytes = await gzipAll([
      tarHeader({ name: top, type: '5' }),
      tarHeader({ name: '././@LongLink', type: 'L', size: long.length }),
      new TextEncoder().encode(long),
      new Uint8Array(512 - (long.length % 512)),
      tarHeader({ name: 'x' }),
      END,
    ]);
    loop.handler = (_req, res) => res.writeHead(200).end(bytes);
    const err = await listError(storeWith({ bytes: 0 }));
    expect(err?.message).toMatch(/has a path of \d+ bytes; at most 1184 are allowed/);
    expect(loop.hits).toBe(1);
  });

  it('a bad path in the middle stops the read there: the rest is never pulled', async () => {
    const { top } = seed();
    function* tar() {
      yield tarHeader({ name: top, type: '5' });
      for (let i = 0; i < 200_000; i++) {
        yield tarHeader({ name: i === 1_000 ? `${top}../outside.json` : `${top}n/t/x-${i}.json` });
      }
      yield END;
    }
    const stats = { tarBytes: 0 };
    loop.inProcess = () => new Response(gzipStream(tar(), stats));
    const pulled = { bytes: 0 };
    const err = await listError(storeWith(pulled));
    expect(err?.message).toMatch(/entry ".*\.\.\/outside\.json" has an unsafe path/);
    expect(loop.hits).toBe(1);
    expect(stats.tarBytes).toBeLessThan(16 * MiB); // of ~100 MB: generated only as far as it was read
    expect(pulled.bytes).toBeLessThan(512 * 1024);
  });
});

describe('an archive over maxBytes or maxEntries: a warning, then the values in batches', () => {
  async function fallback(
    limits: { maxBytes?: number; maxEntries?: number },
    tar: (top: string) => Iterable<Uint8Array>,
  ) {
    const { top } = seed();
    const stats = { tarBytes: 0 };
    loop.inProcess = () => new Response(gzipStream(tar(top), stats));
    const warnings: { message: string; data?: Record<string, unknown> }[] = [];
    const pulled = { bytes: 0 };
    const s = storeWith(pulled, {
      archiveLimits: { timeoutMs: 20_000, ...limits },
      logger: (e) => e.level === 'warn' && warnings.push(e),
    });
    const from = fx.em.requests.length;
    const page = await new DocumentStore(s).list({ withData: true });
    return { page, warnings, stats, pulled, log: ops(fx.em, from) };
  }

  it('2,000,000 empty entries (over maxEntries): read in one GraphQL batch, every value right', async () => {
    const r = await fallback({ maxEntries: 1_000 }, (top) => manyEntries(top, 2_000_000));
    expect(r.page.documents.map((d) => d.document?.data)).toEqual(
      Array.from({ length: 100 }, (_, i) => ({ i })).sort((a, b) => (`item-${a.i}` < `item-${b.i}` ? -1 : 1)),
    );
    expect(r.warnings).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(/more than 1000 entries \(maxEntries\); reading the values in batches/),
        data: { limit: 'maxEntries', allowed: 1_000 },
      },
    ]);
    // The archive first (values follow the listing); over its limit, the tree is listed, and GraphQL reads the values.
    expect(r.log).toEqual([
      'GET git/get-ref 200',
      'GET git/get-commit 200',
      'GET repos/download-tarball-archive 302',
      'GET git/get-tree 200',
      'POST graphql 200',
    ]);
    expect(r.page.requests).toBe(6); // ref, commit, the archive's 2 (302, codeload), the listing's 1, GraphQL's 1
    expect(loop.hits).toBe(1);
    expect(r.stats.tarBytes).toBeLessThan(16 * MiB); // of 1 GB
    expect(r.pulled.bytes).toBeLessThan(512 * 1024);
  });

  it('a gzip bomb of zeros under valid paths (1 GiB, over maxBytes): the same fallback', async () => {
    const r = await fallback({ maxBytes: 4 * MiB }, (top) => zeroFiles(top, 1024, MiB));
    expect(r.page.documents.filter((d) => d.document?.data !== undefined)).toHaveLength(100);
    expect(r.page.documents.find((d) => d.document?.id === 'item-42')?.document?.data).toEqual({ i: 42 });
    expect(r.warnings.map((w) => w.data)).toEqual([{ limit: 'maxBytes', allowed: 4 * MiB }]);
    expect(r.page.requests).toBe(6);
    expect(loop.hits).toBe(1);
    expect(r.stats.tarBytes).toBeLessThan(64 * MiB); // of 1 GiB
    expect(r.pulled.bytes).toBeLessThan(512 * 1024);
  });
});

describe('error answers: only their head is read', () => {
  it('codeload answers 500 with an endless body: UpstreamUnavailable, a few KB pulled', async () => {
    seed();
    loop.handler = (_req, res) => serveEndless500(res);
    const pulled = { bytes: 0 };
    const err = await listError(storeWith(pulled));
    expect(err).toMatchObject({ code: 'UpstreamUnavailable' });
    expect(loop.hits).toBe(1);
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });

  it('the API answers the tarball request with a 500 and an endless body: the same', async () => {
    seed();
    loop.handler = (_req, res) => serveEndless500(res);
    const pulled = { bytes: 0 };
    const err = await listError(storeWith(pulled, {}, true));
    expect(err).toMatchObject({ code: 'UpstreamUnavailable' });
    expect(loop.hits).toBe(1);
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });
});

describe('corrupt bytes are InvalidResponse, downloaded once; a lost connection is retried', () => {
  it.each([
    [
      'not gzip',
      async () => new TextEncoder().encode('<html>not an archive</html>'.repeat(100)),
      /not a complete gzip stream/,
    ],
    [
      'a truncated gzip',
      async (top: string) => (await gzipAll(manyEntries(top, 5_000))).slice(0, 2_000),
      /not a complete gzip stream \(unexpected end of file\)/,
    ],
    [
      'a bad header checksum',
      async (top: string) => gzipAll([tarHeader({ name: top, type: '5', badChecksum: true }), END]),
      /checksum/,
    ],
    [
      'a truncated tar',
      async (top: string) =>
        gzipAll([tarHeader({ name: top, type: '5' }), tarHeader({ name: `${top}a`, size: 4096 }), new Uint8Array(10)]),
      /ends inside entry .* \(truncated\)/,
    ],
  ])('%s', async (_name, body, message) => {
    const { top } = seed();
    const bytes = await body(top);
    loop.handler = (_req, res) => res.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
    const err = await listError(storeWith({ bytes: 0 }));
    expect(err).toBeInstanceOf(InvalidResponse);
    expect(err?.message).toMatch(message);
    expect(loop.hits).toBe(1);
  });

  it('a connection lost mid-body is a TransportError (network), tried three times', async () => {
    const { top } = seed();
    const bytes = await gzipAll(zeroFiles(top, 64, 256 * 1024));
    loop.handler = (_req, res) => {
      res.writeHead(200, { 'content-length': String(bytes.length) });
      res.write(bytes.subarray(0, bytes.length >> 1), () => res.socket?.destroy());
    };
    const err = await listError(storeWith({ bytes: 0 }));
    expect(err).toBeInstanceOf(TransportError);
    expect(err?.data).toMatchObject({ reason: 'network' });
    expect(loop.hits).toBe(3);
  });
});
