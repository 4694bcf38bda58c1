/**
 * `docdb emulator --data-dir` killed with SIGKILL (issue 32 item 11), driven by request count, never by
 * time: after N acknowledged writes, and while a 2,000-document batch is being journaled — the emulator
 * kills itself at a chosen byte of its journal (the test-only DOCDB_EMULATOR_KILL_AT_JOURNAL_BYTE), in the
 * middle of the batch's objects, halfway through its ref update, or right after that record is whole but
 * before it is fsync'd and answered, and the restart must show the outcome that moment implies (the batch
 * absent, absent, present). A restart on the same directory serves every acknowledged write, and the
 * section is readable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/index.js';
import { DEMO_SEED, startEmulator } from '../../src/emulator/index.js';
import { decodeRecords } from '../../src/emulator/persist/journal.js';
import { KILL_AT_JOURNAL_BYTE } from '../../src/emulator/persist/kill-switch.js';
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
async function emulator(dir: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = cli(dir, ['--json'], env);
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

function cli(dir: string, flags: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(REPO, 'node_modules/tsx/dist/loader.mjs'),
      join(REPO, 'src/cli/main.ts'),
      'emulator',
      '--data-dir',
      dir,
      ...flags,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  running.add(child);
  return child;
}

/** `docdb emulator --data-dir DIR` (text): its URL and its `data:` line, once it says it listens. */
async function emulatorText(
  dir: string,
  flags: string[] = [],
): Promise<{ child: ChildProcess; url: string; dataLine: string }> {
  const child = cli(dir, flags);
  let out = '';
  const lines = await new Promise<string[]>((ok, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('press Ctrl-C to stop\n')) ok(out.split('\n'));
    });
    child.once('exit', (code) => fail(new Error(`docdb emulator exited (${code}): ${out}`)));
  });
  const url = lines[0]!.replace('GitHub API emulator listening on ', '');
  return { child, url, dataLine: lines.find((l) => l.startsWith('data: '))! };
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
    ['in the middle of the batch’s tree objects', 'objects', 1],
    ['halfway through the ref update’s record', 'half-ref', 1],
    ['right after the ref update’s record, before it is fsync’d and answered', 'whole-ref', 2_001],
  ] as const)(
    'killed %s while a 2,000-document batch is journaled: the outcome that moment implies, acknowledged writes kept',
    async (_, where, documents) => {
      const at = await batchLayout();
      const killAt = { objects: at.midObjects, 'half-ref': at.refStart + 20, 'whole-ref': at.refEnd }[where];
      const dir = tempDir('docdb-kill-');
      // The emulator kills itself (SIGKILL) the moment its journal reaches that byte.
      const first = await emulator(dir, { [KILL_AT_JOURNAL_BYTE]: String(killAt) });
      const acked = [{ n: 0, version: String((await docsAt(first.url).put(note(0))).version) }];
      await expect(docsAt(first.url).commit(batch())).rejects.toThrow();
      await exited(first.child);
      expect(first.child.signalCode).toBe('SIGKILL');
      running.delete(first.child);
      expect(statSync(join(dir, 'journal.docdb')).size).toBe(killAt);

      const second = await emulatorText(dir);
      // The record the kill cut short is dropped, and the start says so.
      const torn = killAt - at.recordStart(killAt);
      expect(second.dataLine).toBe(
        torn === 0
          ? `data: ${dir} (kept across restarts)`
          : `data: ${dir} (kept across restarts; dropped a torn last record of ${torn} bytes)`,
      );
      const page = await expectServed(second.url, acked);
      expect(page.documents.length).toBe(documents);
    },
    120_000,
  );
});

describe('docdb emulator --data-dir, a corrupt journal', () => {
  it('is refused naming the file, byte and record (exit 2); --data-dir-repair starts and names the side file', async () => {
    const dir = tempDir('docdb-corrupt-');
    const em = await startEmulator({ seed: DEMO_SEED, dataDir: dir });
    await docsAt(em.url).put(note(1));
    await docsAt(em.url).put(note(2));
    await em.stop();
    const file = join(dir, 'journal.docdb');
    const journal = readFileSync(file);
    const second = 8 + journal.readUInt32BE(0); // record 2: the first put's first object
    journal[second + 30]! ^= 0x10;
    writeFileSync(file, journal);

    const refused = cli(dir, []);
    let err = '';
    refused.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
    });
    await exited(refused);
    running.delete(refused);
    expect(refused.exitCode).toBe(2);
    expect(err).toContain(`${file} is corrupt at byte ${second}, record 2 (its CRC-32 does not match)`);
    expect(err).toContain(`start with --data-dir ${dir} --data-dir-repair`);

    const repaired = await emulatorText(dir, ['--data-dir-repair']);
    expect(repaired.dataLine).toBe(
      `data: ${dir} (kept across restarts; repaired: record 2 at byte ${second} was corrupt; it and what followed (${journal.length - second} bytes) moved to ${file}.damaged)`,
    );
    expect(readFileSync(`${file}.damaged`)).toEqual(journal.subarray(second));
  }, 60_000);
});

const batch = () => Array.from({ length: 2_000 }, (_, i) => ({ op: 'put' as const, document: note(1 + i) }));

/**
 * Where the batch's records lie in the journal, from the same writes made once in this process (the
 * journal of a fresh directory with the demo seed is the same length every time: objects and refs only).
 */
let layout: Promise<{ midObjects: number; refStart: number; refEnd: number; recordStart(at: number): number }>;
function batchLayout() {
  layout ??= (async () => {
    const dir = tempDir('docdb-kill-layout-');
    const em = await startEmulator({ seed: DEMO_SEED, dataDir: dir });
    await docsAt(em.url).put(note(0));
    const afterFirst = statSync(join(dir, 'journal.docdb')).size;
    await docsAt(em.url).commit(batch());
    await em.stop();
    const journal = readFileSync(join(dir, 'journal.docdb'));
    const starts: number[] = [];
    for (let at = 0; at < journal.length; at += 8 + journal.readUInt32BE(at)) starts.push(at);
    const { records } = decodeRecords(journal);
    expect(records.at(-1)?.meta.k).toBe('ref'); // the batch ends with its ref update
    const refStart = starts.at(-1)!;
    const objects = starts.filter((s) => s >= afterFirst && s < refStart);
    expect(objects.length).toBeGreaterThan(2_000); // its blobs, trees and commit
    const mid = objects[objects.length >> 1]!;
    return {
      midObjects: mid + 30,
      refStart,
      refEnd: journal.length,
      recordStart: (at: number) => (at === journal.length ? at : starts.filter((s) => s < at).at(-1)!),
    };
  })();
  return layout;
}
