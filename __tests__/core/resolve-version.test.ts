/**
 * `resolveVersion`: the one place an abbreviated version (as docdb prints it) becomes a commit of the
 * section — its errors (malformed, ambiguous with the candidates, not in the section with how far it
 * looked, a store that cannot list commits) and what it costs on GitHub's API (a full SHA: nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidVersion } from '../../src/core/errors.js';
import type { HistoryEntry, RefStore } from '../../src/core/refstore.js';
import { RESOLVE_VERSION_DEPTH, resolveVersion } from '../../src/core/resolve-version.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';
import { fetchTransport, type RecordingTransport, recordingTransport } from '../../src/transport/index.js';
import { store as apiStore, emulator, freshRepo } from '../remote-api/helpers.js';

const person = { name: 'a', email: 'a@b', date: '2026-11-27T10:00:00Z' };
const entry = (version: string, message: string): HistoryEntry => ({
  version,
  message,
  author: person,
  committer: person,
  parents: [],
});

/** A store whose commits are given: two of them share the prefix 2ce8 (a collision real SHAs make rarely). */
function listed(entries: HistoryEntry[]): Pick<RefStore, 'ref' | 'commits'> & { asked: number[] } {
  const asked: number[] = [];
  return {
    ref: 'refs/docdb/documents',
    asked,
    commits: async (o = {}) => {
      asked.push(o.limit ?? -1);
      return { entries: entries.slice(0, o.limit ?? entries.length) };
    },
  };
}

const A = `2ce87ab${'1'.repeat(33)}`;
const B = `2ce81f0${'2'.repeat(33)}`;
const C = `9f00d00${'3'.repeat(33)}`;

async function rejection(p: Promise<unknown>): Promise<InvalidVersion> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(InvalidVersion);
  return e as InvalidVersion;
}

describe('resolveVersion', () => {
  it('an ambiguous abbreviation lists every candidate; one more character resolves it', async () => {
    const s = listed([entry(A, 'put a\nbody'), entry(B, 'put b'), entry(C, 'put c')]);
    const e = await rejection(resolveVersion(s, '2ce8'));
    expect(e.data).toMatchObject({ reason: 'ambiguous', candidates: [A, B] });
    expect(e.message).toContain('"2ce8" is ambiguous: 2 commits of refs/docdb/documents start with it');
    expect(e.message).toContain(`${A.slice(0, 12)} 2026-11-27T10:00:00Z put a;`);
    expect(e.message).toContain('give more characters');
    expect(await resolveVersion(s, '2ce87')).toBe(A);
    expect(s.asked).toEqual([RESOLVE_VERSION_DEPTH, RESOLVE_VERSION_DEPTH]);
  });

  it('malformed input (too short, not hex) is refused before any I/O; a full SHA needs none', async () => {
    const s = listed([entry(A, 'a')]);
    for (const bad of ['2ce', 'xyz1234', '', `${A}0`, ' 2ce87ab']) {
      expect((await rejection(resolveVersion(s, bad))).data.reason).toBe('malformed');
    }
    expect((await rejection(resolveVersion(s, 42 as unknown as string))).data.reason).toBe('malformed');
    expect(await resolveVersion(s, C)).toBe(C); // returned as is; reading at it checks the section
    expect(s.asked).toEqual([]);
  });

  it('the search is bounded by depth, and the error says so (and that a full SHA always works)', async () => {
    const s = listed([entry(A, 'new'), entry(B, 'old'), entry(C, 'oldest')]);
    const e = await rejection(resolveVersion(s, '9f00', { depth: 2 }));
    expect(e.data).toMatchObject({ reason: 'not-in-section', searched: 2 });
    expect(e.message).toContain('searched its newest 2 commits; a full 40-character SHA always works');
    expect(await resolveVersion(s, '9f00', { depth: 3 })).toBe(C);
    await expect(resolveVersion(s, '9f00', { depth: 0 })).rejects.toThrow(/depth must be a positive integer/);
  });

  it('a store that cannot list its commits asks for the full SHA', async () => {
    const e = await rejection(resolveVersion({ ref: 'refs/x/y' }, '2ce87ab'));
    expect(e.data.reason).toBe('unsupported');
    expect(e.message).toContain('give the full 40-character SHA');
  });

  it('DocumentStore.resolveVersion is the same resolver', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    const { version } = await docs.put({ namespace: 'n', type: 't', id: 'i', data: 1 });
    expect(await docs.resolveVersion(version!.slice(0, 7))).toBe(version);
    expect((await rejection(docs.resolveVersion('0000000'))).data.reason).toBe('not-in-section');
  });
});

describe('resolveVersion on the GitHub API: requests', () => {
  let em: EmulatorHandle;
  let transport: RecordingTransport;
  let versions: string[];
  let store: ReturnType<typeof apiStore>;
  beforeAll(async () => {
    em = await emulator();
    transport = recordingTransport({ inner: fetchTransport({ timeoutMs: 10_000 }) });
    store = apiStore(em, freshRepo(em), { transport });
    versions = [];
    for (let i = 0; i < 150; i++) versions.push((await store.put('k.json', String(i))).version!);
  }, 60_000);
  afterAll(async () => {
    await em?.stop();
  });

  it('a full SHA costs no request; an abbreviation 1 per 100 commits of the section, within the depth', async () => {
    transport.clear();
    expect(await resolveVersion(store, versions[3]!)).toBe(versions[3]);
    expect(transport.requests).toHaveLength(0);

    expect(await resolveVersion(store, versions[3]!.slice(0, 7))).toBe(versions[3]);
    expect(transport.requests.map((r) => new URL(r.url).pathname)).toEqual([
      `/repos/${store.repository}/commits`,
      `/repos/${store.repository}/commits`,
    ]);
    expect(new URL(transport.requests[0]!.url).searchParams.has('path')).toBe(false);

    transport.clear();
    const e = await rejection(resolveVersion(store, versions[3]!.slice(0, 7), { depth: 100 }));
    expect(e.message).toContain('searched its newest 100 commits');
    expect(transport.requests).toHaveLength(1);
  });
});
