/**
 * `startEmulator({ dataDir })` / `docdb emulator --data-dir` (issue 32 item 11): repositories, refs and
 * objects survive a restart; the journal is replayable when cut at ANY byte (what a kill at any moment
 * leaves), keeping every whole record; a torn last record is dropped and cut off; a corrupt record is
 * refused (or, with repair, moved to a side file with what follows it); another seed is refused. The SIGKILL tests (data-dir-kill.test.ts) kill a real `docdb emulator` process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { createEmulatorApp } from '../../src/emulator/app.js';
import { startEmulator } from '../../src/emulator/index.js';
import { type DataDirOptions, JOURNAL_FILE, openDataDir } from '../../src/emulator/persist/data-dir.js';
import { decodeRecords, encodeRecord } from '../../src/emulator/persist/journal.js';
import { applySeed, type EmulatorSeed } from '../../src/emulator/seed.js';
import type { EmulatorState } from '../../src/emulator/state.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/remote-api-refstore.js';
import { fetchTransport } from '../../src/transport/index.js';
import { tempDir } from '../temp-dir.js';

const TOKEN = 'ghp_data_dir_token';
const SEED: EmulatorSeed = { repos: [{ name: 'octo/data' }], tokens: [{ token: TOKEN, login: 'octo' }] };

function docsAt(url: string) {
  const store = new RemoteApiRefStore({
    transport: fetchTransport(),
    apiUrl: url,
    owner: 'octo',
    repo: 'data',
    token: TOKEN,
  });
  return new DocumentStore(store);
}

const id = (n: number) => ({ namespace: 'notes', doc_type: 'note', id: `n${n}` });
const note = (n: number, data: unknown) => ({ namespace: 'notes', type: 'note', id: `n${n}`, data });

/** Every ref of every repository names a commit whose whole tree (subtrees and blobs) is present. */
function assertReadable(state: EmulatorState): void {
  for (const repo of state.listRepos()) {
    for (const { ref, sha } of repo.db.listRefs()) {
      const commit = repo.db.getCommit(sha);
      for (const e of repo.db.flattenTree(commit.tree, { includeTrees: true })) {
        expect(repo.db.typeOf(e.sha), `${repo.fullName} ${ref}: ${e.path}`).toBe(e.type);
      }
    }
  }
}

/** A fresh emulator state, seeded, with the data directory `dir` replayed into it. */
function reopen(dir: string, seedKey = seedKeyOf(dir), options: DataDirOptions = {}) {
  const app = createEmulatorApp();
  applySeed(app.state, SEED, 'seed');
  const data = openDataDir(app.state, dir, seedKey, options);
  return { app, state: app.state, data };
}

/** Where each record of a journal ends (read from the length fields alone). */
function recordEnds(journal: Uint8Array): number[] {
  const ends: number[] = [];
  for (let at = 0, view = new DataView(journal.buffer, journal.byteOffset); at < journal.length; ) {
    at += 8 + view.getUint32(at);
    ends.push(at);
  }
  expect(ends.at(-1)).toBe(journal.length);
  return ends;
}

/** The seed key the journal at `dir` starts with (the test reopens with the same seed). */
function seedKeyOf(dir: string): string {
  return String(decodeRecords(readFileSync(join(dir, JOURNAL_FILE))).records[0]?.meta.key);
}

/** A data directory holding two puts (each journals 5 objects and a ref), its journal and where records end. */
async function twoPuts() {
  const dir = tempDir('docdb-data-');
  const em = await startEmulator({ seed: SEED, dataDir: dir });
  await docsAt(em.url).put(note(1, { n: 1 }));
  const firstTip = em.state.repo('octo/data').db.readRef('refs/docdb/documents');
  await docsAt(em.url).put(note(2, { n: 2 }));
  await em.stop();
  const journal = readFileSync(join(dir, JOURNAL_FILE));
  const ends = recordEnds(journal);
  expect(ends.length).toBe(13);
  return { dir, journal, ends, firstTip };
}

describe('emulator --data-dir', () => {
  it('documents, their history and a repository created later survive a stop and a start', async () => {
    const dir = tempDir('docdb-data-');
    const em = await startEmulator({ seed: SEED, dataDir: dir });
    const docs = docsAt(em.url);
    const versions: string[] = [];
    for (let n = 0; n < 3; n++) {
      versions.push(String((await docs.put(note(n, { n }))).version));
    }
    await docs.delete(id(0));
    em.state.createRepo('octo/later', { description: 'made after start' });
    const laterMain = em.state.repo('octo/later').db.readRef('refs/heads/main');
    const tip = em.state.repo('octo/data').db.readRef('refs/docdb/documents');
    await em.stop();

    const again = await startEmulator({ seed: SEED, dataDir: dir });
    try {
      const docs2 = docsAt(again.url);
      expect(await docs2.get(id(0))).toBeNull();
      expect((await docs2.get(id(2)))?.data).toEqual({ n: 2 });
      expect((await docs2.get(id(1), { version: versions[1] }))?.data).toEqual({ n: 1 });
      expect(again.state.repo('octo/data').db.readRef('refs/docdb/documents')).toBe(tip);
      expect((await docs2.history(id(1))).entries.length).toBeGreaterThan(0);
      expect(again.state.repo('octo/later').description).toBe('made after start');
      expect(again.state.repo('octo/later').db.readRef('refs/heads/main')).toBe(laterMain);
      // The restarted emulator keeps journaling: a write after the restart survives the next one.
      await docs2.put(note(9, { n: 9 }));
    } finally {
      await again.stop();
    }
    const third = await startEmulator({ seed: SEED, dataDir: dir });
    expect((await docsAt(third.url).get(id(9)))?.data).toEqual({ n: 9 });
    await third.stop();
  });

  it('cut anywhere (a kill at any moment): replays the whole records before the cut, and is readable', async () => {
    const dir = tempDir('docdb-data-');
    const em = await startEmulator({ seed: SEED, dataDir: dir });
    const docs = docsAt(em.url);
    for (let n = 0; n < 3; n++) await docs.put(note(n, { n }));
    await em.stop();
    const journal = readFileSync(join(dir, JOURNAL_FILE));
    const seedKey = seedKeyOf(dir);
    const ends = recordEnds(journal);
    // Every byte of the last put's records (header, meta, body), and around and inside every earlier record.
    const lastPut = ends[ends.length - 7]!; // a put journals 5 objects and 1 ref
    const cuts = new Set<number>();
    for (let cut = lastPut; cut <= journal.length; cut++) cuts.add(cut);
    for (const [i, end] of ends.entries()) {
      const start = i === 0 ? 0 : ends[i - 1]!;
      for (const cut of [start + 1, start + 4, start + 8, start + 12, (start + end) >> 1, end - 1, end]) cuts.add(cut);
    }
    const cutDir = tempDir('docdb-cut-');
    const tips = new Set<string | undefined>();
    // Inside the first record (the seed's) too: every byte of it, and the empty file.
    for (let cut = 0; cut < ends[0]!; cut++) cuts.add(cut);
    for (const cut of [...cuts].sort((a, b) => a - b)) {
      writeFileSync(join(cutDir, JOURNAL_FILE), journal.subarray(0, cut));
      const { state, data } = reopen(cutDir, seedKey);
      const whole = ends.filter((e) => e <= cut);
      const kept = whole.at(-1) ?? 0;
      expect(data.replayed).toEqual({ records: whole.length, droppedBytes: cut - kept });
      // The torn tail is cut off the file, so what is appended next follows a whole record; a journal
      // left without its seed record gets it back.
      const after = readFileSync(join(cutDir, JOURNAL_FILE));
      expect(after.length).toBe(Math.max(kept, ends[0]!));
      expect(decodeRecords(after).records[0]?.meta).toEqual({ k: 'seed', key: seedKey });
      assertReadable(state);
      tips.add(state.repo('octo/data').db.readRef('refs/docdb/documents'));
      data.close();
    }
    // Every state in between was seen: none, then each of the three puts' commits.
    expect(tips.size).toBe(4);
  }, 300_000); // ~1,300 reopens: minutes on a loaded machine, seconds on a quiet one

  it('a flipped bit in the middle of the journal is refused, naming the file, byte and record; nothing is dropped', async () => {
    const { dir, journal, ends } = await twoPuts();
    const file = join(dir, JOURNAL_FILE);
    // Record 9 (the first put's ref update is record 7; 8 on are the second put's): whole records follow it.
    const at = ends[7]!;
    const flipped = Uint8Array.from(journal);
    flipped[at + 20]! ^= 0x04;
    writeFileSync(file, flipped);
    expect(() => reopen(dir)).toThrow(InvalidConfig);
    expect(() => reopen(dir)).toThrow(
      `${file} is corrupt at byte ${at}, record 9 (its CRC-32 does not match), with ${journal.length - at} bytes from there on; the 8 records before it are whole`,
    );
    expect(() => reopen(dir)).toThrow(`start with --data-dir ${dir} --data-dir-repair`);
    // Refusing changed nothing: the file is as it was, and the lock was released.
    expect(readFileSync(file)).toEqual(Buffer.from(flipped));
  });

  it('a whole last record that fails its checksum is corruption too (a kill leaves a short record, not a wrong one)', async () => {
    const { dir, journal, ends } = await twoPuts();
    const flipped = Uint8Array.from(journal);
    flipped[journal.length - 3]! ^= 0xff; // inside the last record (the second put's ref update)
    writeFileSync(join(dir, JOURNAL_FILE), flipped);
    expect(() => reopen(dir)).toThrow(`corrupt at byte ${ends.at(-2)}, record ${ends.length}`);
  });

  it('a half record that later records were appended after is corruption, not a torn tail', async () => {
    const { dir, journal, ends } = await twoPuts();
    // What the emulator before issue 37 left after an append failed part-way: half a record (of a blob
    // longer than everything after it, so it looks like it runs past the end), then acknowledged records.
    const big = encodeRecord({
      meta: { k: 'object', repo: 'octo/data', sha: 'x', type: 'blob' },
      body: new Uint8Array(20_000),
    });
    const half = Buffer.concat([journal.subarray(0, ends[7]!), big.subarray(0, 10_000), journal.subarray(ends[7]!)]);
    writeFileSync(join(dir, JOURNAL_FILE), half);
    expect(() => reopen(dir)).toThrow(
      `corrupt at byte ${ends[7]}, record 9 (it says ${big.length - 8} bytes, ${half.length - ends[7]! - 8} follow its header)`,
    );
  });

  it('--data-dir-repair keeps the records before the corrupt one and moves it and the rest to a side file', async () => {
    const { dir, journal, ends, firstTip } = await twoPuts();
    const file = join(dir, JOURNAL_FILE);
    const at = ends[7]!;
    const flipped = Uint8Array.from(journal);
    flipped[at + 20]! ^= 0x04;
    writeFileSync(file, flipped);
    const { state, data } = reopen(dir, undefined, { repair: true });
    const side = `${file}.damaged`;
    expect(data.replayed).toEqual({
      records: 8,
      droppedBytes: 0,
      moved: { file: side, bytes: journal.length - at, offset: at, record: 9 },
    });
    expect(readFileSync(side)).toEqual(Buffer.from(flipped.subarray(at))); // every byte of it kept
    expect(state.repo('octo/data').db.readRef('refs/docdb/documents')).toBe(firstTip);
    assertReadable(state);
    data.close();
    expect(readFileSync(file)).toEqual(journal.subarray(0, at));
    // A second repair never overwrites the first side file.
    writeFileSync(file, flipped);
    const again = reopen(dir, undefined, { repair: true });
    expect(again.data.replayed.moved?.file).toBe(`${side}-1`);
    expect(readFileSync(side)).toEqual(Buffer.from(flipped.subarray(at)));
    again.data.close();
  });

  it('refuses a directory another running emulator uses; takes it once that one stopped', async () => {
    const dir = tempDir('docdb-data-');
    const first = await startEmulator({ seed: SEED, dataDir: dir });
    await expect(startEmulator({ seed: SEED, dataDir: dir })).rejects.toThrow(
      new RegExp(`--data-dir ${dir} is in use by another emulator \\(process ${process.pid}\\)`),
    );
    await first.stop();
    await (await startEmulator({ seed: SEED, dataDir: dir })).stop();
  });

  it('refuses a data directory grown from another seed, naming --data-dir and --seed', async () => {
    const dir = tempDir('docdb-data-');
    await (await startEmulator({ seed: SEED, dataDir: dir })).stop();
    const other = startEmulator({ seed: { repos: [{ name: 'octo/other' }] }, dataDir: dir });
    await expect(other).rejects.toThrow(InvalidConfig);
    await expect(other).rejects.toThrow(/--data-dir .* another seed; start it with the same --seed/);
  });
});
