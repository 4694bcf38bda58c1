/**
 * RemoteApiRefStore reaches its optional readers through the features seam (src/stores/remote-api/features.ts;
 * lazy chunks in the browser bundle): a piece that failed to load — a chunk the network dropped — fails that
 * call only, and the next call loads it again instead of failing for the store's lifetime.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { remoteApiFeatures } from '../../src/stores/remote-api/features.js';
import { emulatorPerFile, store } from './helpers.js';

const fx = emulatorPerFile();

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every value `readMany` yields, as text by key. */
async function readAll(s: ReturnType<typeof store>, keys: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for await (const { key, value } of s.readMany(keys)) out[key] = value ? new TextDecoder().decode(value) : null;
  return out;
}

describe('the remote-api features seam', () => {
  it('a section-archives piece that failed to load is loaded again by the next readMany', async () => {
    const s = store(fx.em, fx.repo);
    await s.commit([
      { op: 'put', key: 'a.json', value: '1' },
      { op: 'put', key: 'b.json', value: '2' },
    ]);
    const load = vi.spyOn(remoteApiFeatures, 'archives').mockRejectedValueOnce(new Error('chunk not fetched'));
    await expect(readAll(s, ['a.json', 'b.json'])).rejects.toThrow(/chunk not fetched/);
    expect(await readAll(s, ['a.json', 'b.json'])).toEqual({ 'a.json': '1', 'b.json': '2' });
    expect(await readAll(s, ['b.json'])).toEqual({ 'b.json': '2' });
    expect(load).toHaveBeenCalledTimes(2); // the failure, then once: the archives are built once and kept
  });

  it('history, changes and commits in parts load their pieces when called, and answer as before', async () => {
    const s = store(fx.em, fx.repo);
    const history = vi.spyOn(remoteApiFeatures, 'history');
    const parts = vi.spyOn(remoteApiFeatures, 'parts');
    const first = await s.put('a.json', '1');
    expect(history).not.toHaveBeenCalled();
    expect(parts).not.toHaveBeenCalled();
    async function* pages() {
      yield [{ op: 'put' as const, key: 'a.json', value: '2' }];
    }
    await s.commitParts(pages(), { message: 'in parts' });
    expect(parts).toHaveBeenCalledTimes(1);
    const { entries } = await s.history('a.json');
    expect(entries).toHaveLength(2);
    expect(history).toHaveBeenCalledTimes(1);
    const changes = await s.changes({ from: first.version as string });
    expect(changes.modified.map((m) => m.key)).toEqual(['a.json']);
  });
});
