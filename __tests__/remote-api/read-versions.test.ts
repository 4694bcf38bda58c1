/**
 * One key at many versions on the GitHub API store (`readVersions`, issue 29 item 6): a document's last 100
 * versions in ONE GraphQL request with a token (after the one history request that names them), one
 * contents request per version without one, each (commit, key) answer cached; `sharedBlobs` reads each
 * distinct blob once. Values equal what `get` reads at each version.
 */
import { describe, expect, it } from 'vitest';
import { readVersionsFrom } from '../../src/core/read-versions.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { mirrorSteps, starSteps } from '../document/series-section.js';
import { emulatorPerFile, meteredTransport, newMeter, OWNER, since, store } from './helpers.js';

const fx = emulatorPerFile();
const KEY = 'github/repo/octo/hello.json';
const identity = { namespace: 'github', doc_type: 'repo', id: 'octo/hello' };
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

describe('readVersions on the GitHub API', () => {
  it('with a token: history (1 request) then the last 100 versions in ONE GraphQL request, each equal to get', async () => {
    await mirrorSteps(
      fx.em,
      `${OWNER}/${fx.repo}`,
      starSteps(120, (i) => i * 3),
    );
    const s = store(fx.em, fx.repo);
    const start = fx.em.requests.length;
    const { entries } = await s.history(KEY, { limit: 100 });
    expect(entries).toHaveLength(100);
    expect(since(fx.em, start)).toHaveLength(1);
    const mark = fx.em.requests.length;
    let cost = 0;
    const items = await readVersionsFrom(
      s,
      entries.map((e) => ({ key: KEY, version: e.version })),
      { onMeta: (m) => (cost = m.requests ?? -1) },
    );
    const sent = since(fx.em, mark);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql']);
    expect(cost).toBe(1);
    const fresh = store(fx.em, fx.repo);
    for (const [i, item] of items.entries()) {
      expect(item.version).toBe(entries[i]?.version);
      const got = await fresh.get(KEY, { version: item.version });
      expect(text(item.value)).toBe(text(got?.value ?? null));
      expect(item.blobSha).toBe(got?.blobSha);
    }
    expect(JSON.parse(text(items[0]?.value ?? null) ?? '{}').data.stars).toBe(119 * 3);
    // Asked again: every (commit, key) is cached — no request at all.
    const again = fx.em.requests.length;
    await readVersionsFrom(
      s,
      entries.map((e) => ({ key: KEY, version: e.version })),
    );
    expect(since(fx.em, again)).toHaveLength(0);
  });

  it('DocumentStore.versionsOf: envelopes in the order asked, null where the document was deleted', async () => {
    const versions = await mirrorSteps(
      fx.em,
      `${OWNER}/${fx.repo}`,
      starSteps(6, (i) => (i === 3 ? undefined : i)),
    );
    const docs = new DocumentStore(store(fx.em, fx.repo));
    const start = fx.em.requests.length;
    const { documents, requests } = await docs.versionsOf<{ stars: number }>(identity, [...versions].reverse());
    expect(documents.map((d) => d?.data.stars ?? null)).toEqual([5, 4, null, 2, 1, 0]);
    expect(documents[0]?.version).toBe(versions[5]);
    // Proving 6 commits are in the section (one listing) and reading them (one query).
    expect(since(fx.em, start).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      `GET /repos/${OWNER}/${fx.repo}/commits`,
      'POST /graphql',
    ]);
    expect(requests).toBe(2);
  });

  it('without a token: one contents request per version (the anonymous cost the viewer warns about)', async () => {
    const versions = await mirrorSteps(
      fx.em,
      `${OWNER}/${fx.repo}`,
      starSteps(8, (i) => i),
    );
    fx.em.state.anonymousBudget.used = 0;
    const anon = store(fx.em, fx.repo, { token: undefined });
    const { entries } = await anon.history(KEY, { limit: 100 });
    expect(entries.map((e) => e.version)).toEqual([...versions].reverse());
    const mark = fx.em.requests.length;
    const items = await readVersionsFrom(
      anon,
      entries.map((e) => ({ key: KEY, version: e.version })),
    );
    const sent = since(fx.em, mark);
    expect(sent).toHaveLength(8);
    expect(sent.every((r) => r.path.includes('/contents/'))).toBe(true);
    expect(items.map((i) => JSON.parse(text(i.value) ?? '{}').data.stars)).toEqual([7, 6, 5, 4, 3, 2, 1, 0]);
  });

  it('sharedBlobs: the SHAs first, then each distinct blob once (20 versions of a file that changed twice)', async () => {
    const steps = Array.from({ length: 20 }, (_, i) => async (docs: DocumentStore) => {
      await docs.put({ namespace: 'n', type: 'other', id: `o${i}`, data: {} });
      if (i === 0 || i === 10)
        await docs.put({ namespace: 'n', type: 't', id: 'shared', data: { big: 'x'.repeat(20_000), i } });
    });
    const versions = await mirrorSteps(fx.em, `${OWNER}/${fx.repo}`, steps);
    const meter = newMeter();
    const s = store(fx.em, fx.repo, { transport: meteredTransport(meter) });
    await s.commits({ limit: 100 }); // names the versions (the viewer's section chart starts here)
    const mark = fx.em.requests.length;
    const received = meter.received;
    const items = await readVersionsFrom(
      s,
      versions.map((version) => ({ key: 'n/t/shared.json', version })),
      { sharedBlobs: true },
    );
    const sent = since(fx.em, mark);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /graphql', 'POST /graphql']);
    expect(new Set(items.map((i) => i.blobSha)).size).toBe(2);
    // Two 20 KB blobs once each, not twenty.
    expect(meter.received - received).toBeLessThan(3 * 20_000);
    expect(items.map((i) => JSON.parse(text(i.value) ?? '{}').data.i)).toEqual(
      versions.map((_, i) => (i < 10 ? 0 : 10)),
    );
  });
});
