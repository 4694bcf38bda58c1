/**
 * `--data-dir` when the disk fails a journal append part-way (issue 37 item 1): the half record is cut
 * back, the request answers GitHub's 500 with nothing of it in memory, later writes are journaled after a
 * whole record, and a restart serves every acknowledged write. When the journal cannot be cut back, the
 * emulator answers every write 503 and still serves reads. Faults go through the journal's file seam
 * (`DataDirOptions.fs`), the app through the same durable wrapper `startEmulator` serves.
 */
import { fsyncSync, ftruncateSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashObject } from '../../src/core/git/objects.js';
import { createEmulatorApp } from '../../src/emulator/app.js';
import { type DataDirOptions, JOURNAL_FILE, openDataDir } from '../../src/emulator/persist/data-dir.js';
import { durable } from '../../src/emulator/persist/durable.js';
import { decodeRecords } from '../../src/emulator/persist/journal.js';
import type { JournalFs } from '../../src/emulator/persist/journal-file.js';
import { applySeed, type EmulatorSeed } from '../../src/emulator/seed.js';
import { tempDir } from '../temp-dir.js';

const TOKEN = 'ghp_faults_token';
const SEED: EmulatorSeed = { repos: [{ name: 'octo/data' }], tokens: [{ token: TOKEN, login: 'octo' }] };
const API = 'http://emulator.local/repos/octo/data';

/**
 * node:fs, except that once `failAfter(k)` is called the journal's next writes put k more bytes in the file
 * (a short write, as a full disk gives) and then fail with `code`; `ftruncate` fails too when `cutFails`.
 */
function faultyFs() {
  let left: number | undefined;
  const faults = { code: 'ENOSPC', cutFails: false, failAfter: (k: number) => (left = k) };
  const fs: JournalFs = {
    writeSync(fd, buffer, offset, length) {
      if (left === undefined) return writeSync(fd, buffer, offset, length);
      if (left === 0) {
        left = undefined;
        throw Object.assign(new Error(`${faults.code}: injected`), { code: faults.code });
      }
      const n = writeSync(fd, buffer, offset, Math.min(length, left));
      left -= n;
      return n;
    },
    ftruncateSync(fd, length) {
      if (faults.cutFails) throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
      ftruncateSync(fd, length);
    },
    fsyncSync,
  };
  return { fs, faults };
}

/** An emulator over `dir`, served as startEmulator serves it (answers after flush). */
function open(dir: string, options: DataDirOptions = {}) {
  const app = createEmulatorApp();
  applySeed(app.state, SEED, 'seed');
  const logged: string[] = [];
  const data = openDataDir(app.state, dir, 'seed-key', { log: (l) => logged.push(l), ...options });
  const served = durable(app, data);
  const call = async (method: string, path: string, body?: unknown) => {
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const init = { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const res = await served.fetch(new Request(`${API}${path}`, init));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { state: app.state, data, call, logged, db: () => app.state.repo('octo/data').db };
}

const blob = (text: string) => ({ content: text, encoding: 'utf-8' });
const blobSha = (text: string) => hashObject('blob', new TextEncoder().encode(text));

describe('emulator --data-dir, a journal append that fails part-way', () => {
  it('at every byte of a record: 500, nothing kept; the retry and the next write are acknowledged and survive a restart', async () => {
    // The record of one blob: its length is what the loop walks.
    const probe = tempDir('docdb-faults-');
    const p = open(probe);
    const before = readFileSync(join(probe, JOURNAL_FILE)).length;
    expect((await p.call('POST', '/git/blobs', blob('failed once'))).status).toBe(201);
    const recordBytes = readFileSync(join(probe, JOURNAL_FILE)).length - before;
    p.data.close();
    expect(recordBytes).toBeGreaterThan(60);

    for (let k = 0; k < recordBytes; k++) {
      const dir = tempDir('docdb-faults-');
      const { fs, faults } = faultyFs();
      const em = open(dir, { fs });
      const whole = readFileSync(join(dir, JOURNAL_FILE)).length;
      faults.failAfter(k);
      const failed = await em.call('POST', '/git/blobs', blob('failed once'));
      expect(failed.status, `cut at byte ${k}`).toBe(500);
      expect(failed.body).toEqual({
        message: 'Server Error: the emulator could not journal this write (ENOSPC); nothing of it was kept',
        documentation_url: 'https://docs.github.com/rest',
        status: '500',
      });
      expect(em.db().has(blobSha('failed once')), `byte ${k}: not in memory`).toBe(false);
      expect(readFileSync(join(dir, JOURNAL_FILE)).length, `byte ${k}: cut back`).toBe(whole);
      // The client's retry, then another write: both acknowledged.
      expect((await em.call('POST', '/git/blobs', blob('failed once'))).status).toBe(201);
      expect((await em.call('POST', '/git/blobs', blob('the next one'))).status).toBe(201);
      em.data.close();

      const again = open(dir);
      expect(again.data.replayed, `byte ${k}`).toEqual({ records: 3, droppedBytes: 0 });
      expect(again.db().has(blobSha('failed once'))).toBe(true);
      expect(again.db().has(blobSha('the next one'))).toBe(true);
      again.data.close();
    }
  }, 180_000); // two opens per byte of the record

  it('a ref update whose append fails leaves the ref where it was, in memory and after a restart', async () => {
    const dir = tempDir('docdb-faults-');
    const { fs, faults } = faultyFs();
    const em = open(dir, { fs });
    const tip = em.db().readRef('refs/heads/main');
    const tree = (await em.call('POST', '/git/trees', { tree: [{ path: 'a', mode: '100644', content: 'a' }] })).body;
    const commit = await em.call('POST', '/git/commits', { message: 'm', tree: tree.sha, parents: tip ? [tip] : [] });
    faults.code = 'EIO';
    faults.failAfter(20);
    const patched = await em.call('PATCH', '/git/refs/heads/main', { sha: commit.body.sha });
    expect(patched.status).toBe(500);
    expect(em.db().readRef('refs/heads/main')).toBe(tip);
    expect((await em.call('PATCH', '/git/refs/heads/main', { sha: commit.body.sha })).status).toBe(200);
    em.data.close();
    expect(open(dir).db().readRef('refs/heads/main')).toBe(commit.body.sha);
  });

  it('when the file cannot be cut back: every write answers 503 saying why, reads are served, a restart drops the half record', async () => {
    const dir = tempDir('docdb-faults-');
    const { fs, faults } = faultyFs();
    const em = open(dir, { fs });
    expect((await em.call('POST', '/git/blobs', blob('kept'))).status).toBe(201);
    faults.cutFails = true;
    faults.failAfter(30);
    const failed = await em.call('POST', '/git/blobs', blob('half written'));
    expect(failed.status).toBe(503);
    expect(em.db().has(blobSha('half written'))).toBe(false);
    expect(em.data.stopped).toMatch(/could not be cut back .* \(ENOSPC\): EIO/);
    expect(em.logged.join('\n')).toContain(em.data.stopped);
    for (const write of [
      () => em.call('POST', '/git/blobs', blob('another')),
      () => em.call('POST', '/issues', { title: 'not a git write, refused all the same' }),
    ]) {
      const refused = await write();
      expect(refused.status).toBe(503);
      expect(refused.body.message).toBe(`Service Unavailable: ${em.data.stopped}`);
      expect(refused.body.documentation_url).toBe('https://docs.github.com/rest');
    }
    expect(em.db().has(blobSha('another'))).toBe(false);
    const read = await em.call('GET', `/git/blobs/${blobSha('kept')}`);
    expect(read.status).toBe(200);
    em.data.close();

    const journal = readFileSync(join(dir, JOURNAL_FILE));
    expect(decodeRecords(journal).damage?.kind).toBe('torn'); // the half record, with nothing after it
    const again = open(dir);
    expect(again.data.replayed).toEqual({ records: 2, droppedBytes: 30 });
    expect(again.db().has(blobSha('kept'))).toBe(true);
    again.data.close();
  });
});
