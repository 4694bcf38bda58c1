/**
 * The demo section `docdb view --demo` opens (src/cli/demo-section.ts) is worth looking at, read back
 * through the library over the emulator's API as the viewer reads it: several types, an indexed type of
 * thousands of documents on three fields that a query answers from the index, documents with a version
 * per commit whose number moves (the charts), a few dozen dated commits — and the same SHAs every run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SECTION, seedDemoSection } from '../../src/cli/demo-section.js';
import { DocumentStore } from '../../src/document/index.js';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';

let em: EmulatorHandle;
let tip: string;
let docs: DocumentStore;

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  tip = await seedDemoSection(em.state);
  const [owner, repo] = DEMO_SECTION.repo.split('/') as [string, string];
  const store = new RemoteApiRefStore({
    transport: fetchTransport(),
    apiUrl: em.url,
    owner,
    repo,
    token: 'ghp_demo_read',
  });
  docs = new DocumentStore(store);
});
afterAll(async () => {
  await em?.stop();
});

describe('the demo section', () => {
  it('is the tip of refs/docdb/documents in octo-org/widgets, a public repository', async () => {
    expect(await docs.head()).toBe(tip);
    expect(em.state.repo(DEMO_SECTION.repo).private).toBe(false);
  });

  it('holds several types; the indexed one has thousands of documents', async () => {
    const counts = new Map<string, number>();
    let cursor: string | undefined;
    do {
      const page = await docs.list({ limit: 1000, ...(cursor ? { cursor } : {}) });
      for (const d of page.documents)
        counts.set(`${d.namespace}/${d.doc_type}`, (counts.get(`${d.namespace}/${d.doc_type}`) ?? 0) + 1);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    // 3,000 imported, one added every third day (13), one removed every seventh (5).
    expect(Object.fromEntries(counts)).toEqual({
      'app/settings': 1,
      'github/release': 4,
      'github/repo': 3008,
      'weather/station': DEMO_SECTION.stations,
    });
  });

  it('declares an index on three fields, and a query is answered from it', async () => {
    expect((await docs.indexes()).indexes).toEqual([DEMO_SECTION.index]);
    const r = await docs.query({
      namespace: 'github',
      type: 'repo',
      where: [{ field: 'data.language', op: '=', value: 'Go' }],
      orderBy: { field: 'data.stars', direction: 'desc' },
      limit: 5,
      fields: ['data.stars', 'data.open_issues'],
    });
    expect(r.answeredBy).toBe('index');
    expect(r.rows).toHaveLength(5);
    const stars = r.rows.map((row) => row.values['data.stars'] as number);
    expect(stars).toEqual([...stars].sort((a, b) => b - a));
  });

  it('declares search on the repositories, and the viewer’s demo search finds what a scan finds', async () => {
    expect((await docs.searchDeclaration()).search).toEqual([DEMO_SECTION.search]);
    const r = await docs.search('rust osl', { namespace: 'github', limit: 100 });
    const { documents } = await docs.list({ namespace: 'github', type: 'repo', withData: true });
    const scan = documents.filter((e) => {
      const text = String((e.document?.data as { description?: string } | undefined)?.description).toLowerCase();
      return /\brust\b/.test(text) && /\bosl/.test(text);
    });
    expect(r.total).toBeGreaterThan(0);
    expect(r.hits.map((h) => h.id).sort()).toEqual(scan.map((e) => e.id).sort());
  });

  it('a station has one version per commit, its temperature moving; the commits are a day apart', async () => {
    const oslo = { namespace: 'weather', doc_type: 'station', id: 'oslo' };
    const { entries } = await docs.history(oslo, { limit: 100 });
    expect(entries).toHaveLength(DEMO_SECTION.updates + 1);
    const temperatures = new Set<number>();
    for (const e of entries.slice(0, 8)) {
      const station = await docs.get<{ temperature_c: number }>(oslo, { version: e.version });
      temperatures.add(station!.data.temperature_c);
    }
    expect(temperatures.size).toBeGreaterThan(4);
    const days = entries.map((e) => Date.parse(e.committer.date));
    expect(days.at(-1)).toBe(DEMO_SECTION.start);
    expect(days[0]! - days[1]!).toBe(24 * 60 * 60 * 1000);
  });

  it('has a day that adds, changes and removes documents (the section diff)', async () => {
    const { entries } = await docs.history({ namespace: 'weather', doc_type: 'station', id: 'oslo' }, { limit: 100 });
    // Day 21 (entries are newest first; the import is the last): a removal and an addition.
    const day21 = entries[DEMO_SECTION.updates - 21]!;
    const r = await docs.changes({ from: day21.parents[0]!, to: day21.version });
    expect([r.added.length, r.removed.length]).toEqual([1, 1]);
    expect(r.modified.length).toBeGreaterThan(40);
  });

  it('has plain data files on the main branch: JSON, JSON Lines and CSV (the file view)', async () => {
    const read = async (path: string) => {
      const r = await fetch(`${em.url}/repos/${DEMO_SECTION.repo}/contents/${path}?ref=main`);
      expect(r.status).toBe(200);
      return Buffer.from(((await r.json()) as { content: string }).content, 'base64').toString('utf8');
    };
    const [csv, json, jsonl] = await Promise.all(DEMO_SECTION.files.map(read));
    expect(csv!.split('\n')[0]).toBe('city,temperature_c,humidity');
    expect(csv!.trim().split('\n')).toHaveLength(DEMO_SECTION.stations + 1);
    expect(JSON.parse(json!)).toHaveLength(25);
    const lines = jsonl!
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { city: string });
    expect(lines.map((l) => l.city)).toContain('Oslo');
  });

  it('is the same section on every run (seeded generator, injected clock)', async () => {
    const other = await startEmulator({ seed: DEMO_SEED });
    try {
      expect(await seedDemoSection(other.state)).toBe(tip);
    } finally {
      await other.stop();
    }
  });
});
