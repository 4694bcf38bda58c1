/**
 * `docdb emulator --data-dir` killed with SIGKILL (issue 32 item 11), driven by request count, never by
 * time: after N acknowledged writes, and while a write is in flight (its request sent, its answer not yet
 * read; a batch of 2,000 documents, so the kill lands while the server journals its objects). A restart on
 * the same directory serves every acknowledged write, and the section is readable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/remote-api-refstore.js';
import { fetchTransport } from '../../src/transport/index.js';
import type { HttpTransport } from '../../src/transport/types.js';
import { tempDir } from '../temp-dir.js';

const REPO = resolve(import.meta.dirname, '../..');
const TOKEN = 'ghp_demo_write';
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** `docdb emulator --data-dir DIR --json` from this checkout's sources; resolves with its URL once it listens. */
async function emulator(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(REPO, 'node_modules/tsx/dist/loader.mjs'),
      join(REPO, 'src/cli/main.ts'),
      'emulator',
      '--data-dir',
      dir,
      '--json',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const url = await new Promise<string>((ok, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (!out.includes('\n')) return;
      // --json: the listening line, or an error line (then the process exits 2).
      const line = JSON.parse(out.split('\n')[0]!) as { url?: string; error?: { message: string } };
      if (line.url) ok(line.url);
      else fail(new Error(`docdb emulator failed: ${line.error?.message ?? out}`));
    });
    child.once('exit', (code) => fail(new Error(`docdb emulator exited (${code}): ${out}${err}`)));
  });
  return { child, url };
}

/** Resolves once the process has exited (at once when it already has). */
function exited(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', r));
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  await exited(child);
  running.delete(child);
}

function docsAt(url: string, transport: HttpTransport = fetchTransport()) {
  // No retries, no waits: a request to the killed emulator fails at once.
  const store = new RemoteApiRefStore({
    transport,
    apiUrl: url,
    owner: 'octo-org',
    repo: 'widgets',
    token: TOKEN,
    readRetries: 0,
    sleep: async () => {},
  });
  return new DocumentStore(store);
}

const note = (n: number) => ({ namespace: 'notes', type: 'note', id: `n${n}`, data: { n } });
const id = (n: number) => ({ namespace: 'notes', doc_type: 'note', id: `n${n}` });

/** Each acknowledged put is served again, at its version. */
async function expectServed(url: string, acked: { n: number; version: string }[]) {
  const docs = docsAt(url);
  for (const { n, version } of acked) {
    const got = await docs.get(id(n));
    expect(got?.data, `n${n}`).toEqual({ n });
    expect((await docs.get(id(n), { version }))?.data).toEqual({ n });
  }
  // The whole section reads (every tree and blob the tip names is there).
  return docs.list({ namespace: 'notes', withData: true });
}

describe('docdb emulator --data-dir, killed with SIGKILL', () => {
  it.each([1, 4])(
    'after %i acknowledged writes: a restart serves each of them',
    async (n) => {
      const dir = tempDir('docdb-kill-');
      const first = await emulator(dir);
      const acked: { n: number; version: string }[] = [];
      for (let i = 0; i < n; i++) acked.push({ n: i, version: String((await docsAt(first.url).put(note(i))).version) });
      await killed(first.child);
      const second = await emulator(dir);
      const page = await expectServed(second.url, acked);
      expect(page.documents.map((d) => d.id).sort()).toEqual(acked.map((a) => `n${a.n}`).sort());
    },
    60_000,
  );

  it('a second docdb emulator on the same directory is refused while the first runs; after a kill it starts', async () => {
    const dir = tempDir('docdb-kill-');
    const first = await emulator(dir);
    await expect(emulator(dir)).rejects.toThrow(
      new RegExp(`--data-dir ${dir} is in use by another emulator \\(process ${first.child.pid}\\)`),
    );
    await killed(first.child);
    const second = await emulator(dir); // the lock of a process that is gone is taken over
    expect(second.url).toMatch(/^http:/);
  }, 60_000);

  it.each([
    ['the tree upload', 'POST', '/git/trees'],
    ['the commit', 'POST', '/git/commits'],
    ['the ref update', 'PATCH', '/git/refs/'],
  ])(
    'while %s of a 2,000-document batch is in flight: acknowledged writes survive, the state is readable',
    async (_, method, path) => {
      const dir = tempDir('docdb-kill-');
      const first = await emulator(dir);
      const acked = [{ n: 0, version: String((await docsAt(first.url).put(note(0))).version) }];
      // The kill is sent as soon as the request is on its way, before its answer is read.
      const inner = fetchTransport();
      const killing: HttpTransport = {
        request(req) {
          const pending = inner.request(req);
          if (req.method === method && req.url.includes(path)) first.child.kill('SIGKILL');
          return pending;
        },
      };
      const batch = Array.from({ length: 2_000 }, (_, i) => ({ op: 'put' as const, document: note(1 + i) }));
      await expect(docsAt(first.url, killing).commit(batch)).rejects.toThrow();
      await killed(first.child);
      const second = await emulator(dir);
      const page = await expectServed(second.url, acked);
      // The batch is all there or not at all (its ref update either was journaled whole or not).
      expect([1, 2_001]).toContain(page.documents.length);
    },
    60_000,
  );
});
