/**
 * The live suite: the GitHub API store and the DocumentStore against a real GitHub repository (or any
 * server that claims to be one), on a scratch section `refs/docdb-live/<random>` that is deleted at the
 * end, and a compaction of a second scratch ref `refs/docdb-live/<random>-compaction` (GraphQL `updateRefs`
 * on a ref outside refs/heads and refs/tags, which GitHub does not document either way). Each step asserts
 * what it costs in requests — the budget of ARCHITECTURE.md. With `recordTo`, the
 * session is saved (token removed) in the replay format, so a recording made on GitHub becomes a test here
 * (`__tests__/fixtures/live/*.json`, replayed by recorded-replay.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreconditionFailed } from '../../src/core/errors.js';
import type { HistoryEntry, ReplacementCommit } from '../../src/core/refstore.js';
import { watch } from '../../src/core/watch.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { compactSection } from '../../src/retention/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/remote-api-refstore.js';
import { UPDATE_REFS_MUTATION } from '../../src/stores/remote-api/update-refs.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import { type Recorder, recorder } from './recorder.js';

export interface LiveTarget {
  apiUrl: string;
  token: string;
  /** owner/name of a repository the token can write (it must have at least one commit). */
  repo: string;
  /** Save the session's exchanges here (token removed). */
  recordTo?: string;
  /** Section name (default `docdb-live/<random>`): a recording replays with the same name. */
  section?: string;
}

const repo = { namespace: 'live', type: 'item' } as const;
/** GitHub's REST headers for the suite's own requests (the scratch refs' deletion). */
const restHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  accept: 'application/vnd.github+json',
  'x-github-api-version': '2022-11-28',
  'user-agent': 'docdb-live-suite',
});
/** A commit made again as a compaction makes it: same tree, people and message. */
const again = (e: HistoryEntry): ReplacementCommit => ({
  tree: e.tree!,
  message: `${e.message}\n\nDocdb-Compacted-From: ${e.version}`,
  author: e.author,
  committer: e.committer,
});
const id = (n: string) => ({ namespace: repo.namespace, doc_type: repo.type, id: n });

/**
 * Register the live suite; `target()` is read when it starts. When `enabled` is false the suite is skipped
 * (the caller prints why).
 *
 * @example
 * describeLiveSuite('GitHub', true, () => ({ apiUrl: 'https://api.github.com', token, repo: 'me/scratch' }));
 */
export function describeLiveSuite(name: string, enabled: boolean, target: () => LiveTarget): void {
  describe.skipIf(!enabled)(`live suite: ${name}`, () => {
    let t: LiveTarget;
    let owner: string;
    let repoName: string;
    let ref: string;
    let apiUrl: string;
    let token: string;
    let rec: Recorder;
    const store = (transport = rec) =>
      new RemoteApiRefStore({ transport, apiUrl, owner, repo: repoName, ref, token, writeBackoffBaseMs: 1 });
    let docs: DocumentStore;
    const cost = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      const before = rec.count;
      const out = await fn();
      return [out, rec.count - before];
    };
    const versions: string[] = [];

    beforeAll(() => {
      t = target();
      ({ apiUrl, token } = t);
      [owner, repoName] = t.repo.split('/') as [string, string];
      ref = `refs/docdb-live/${t.section ?? randomBytes(6).toString('hex')}`;
      rec = recorder(fetchTransport(), apiUrl, token);
      docs = new DocumentStore(store());
    });
    afterAll(async () => {
      // The scratch refs go away whatever happened (not recorded: it is not part of the session).
      for (const r of [ref, `${ref}-compaction`]) {
        await fetchTransport().request({
          method: 'DELETE',
          url: `${apiUrl}/repos/${owner}/${repoName}/git/refs/${r.slice('refs/'.length)}`,
          headers: restHeaders(token),
        });
      }
      if (t?.recordTo) {
        mkdirSync(dirname(t.recordTo), { recursive: true });
        writeFileSync(t.recordTo, `${JSON.stringify({ repo: t.repo, ref, exchanges: rec.exchanges }, null, 2)}\n`);
      }
    });

    it('put: the first write creates the section (≤ 4 requests)', async () => {
      const [r, n] = await cost(() => docs.put({ ...repo, id: 'a', data: { n: 1 } }));
      expect(r.changed).toBe(true);
      expect(r.previousVersion).toBeNull();
      expect(n).toBeLessThanOrEqual(4);
      versions.push(r.version!);
    });

    it('put right after the own write: tree, commit, ref update (≤ 4 requests)', async () => {
      const [r, n] = await cost(() =>
        docs.putMany([
          { ...repo, id: 'b', data: { n: 2 } },
          { ...repo, id: 'c', data: 3 },
        ]),
      );
      expect(r.changed).toBe(true);
      expect(n).toBeLessThanOrEqual(4);
      versions.push(r.version!);
    });

    it('get: cold in a new store (≤ 4 requests), warm with the tip unchanged (1 request, 304)', async () => {
      const cold = new DocumentStore(store());
      const [doc, n] = await cost(() => cold.get(id('a')));
      expect(doc?.data).toEqual({ n: 1 });
      expect(doc?.version).toBe(versions[1]);
      expect(n).toBeLessThanOrEqual(4);
      const [again, warm] = await cost(() => cold.get(id('b')));
      expect(again?.data).toEqual({ n: 2 });
      expect(warm).toBeLessThanOrEqual(2);
      const [, same] = await cost(() => cold.get(id('b')));
      expect(same).toBe(1);
    });

    it('pinned get of an older version, cold (≤ 3 requests)', async () => {
      const cold = new DocumentStore(store());
      const [doc, n] = await cost(() => cold.get(id('a'), { version: versions[0]! }));
      expect(doc?.version).toBe(versions[0]);
      expect(await cold.get(id('b'), { version: versions[0]! })).toBeNull();
      expect(n).toBeLessThanOrEqual(3);
    });

    it('list: right after the own write 1 request (the ref read), cold in a new store ≤ 3 (ref, commit, tree)', async () => {
      const [listed, n] = await cost(() => docs.list({ namespace: 'live' }));
      expect(listed.documents.map((d) => d.id)).toEqual(['a', 'b', 'c']);
      expect(listed.version).toBe(versions[1]);
      expect(n).toBe(1);
      const [cold, m] = await cost(() => new DocumentStore(store()).list({ namespace: 'live' }));
      expect(cold.documents).toEqual(listed.documents);
      expect(m).toBeLessThanOrEqual(3);
    });

    it('history of one document: 1 request per 100 commits', async () => {
      const [h, n] = await cost(() => docs.history(id('a')));
      expect(h.entries.map((e) => e.version)).toEqual([versions[0]]);
      expect(n).toBeLessThanOrEqual(2);
    });

    it('changes between two versions (≤ 3 requests)', async () => {
      const [c, n] = await cost(() => docs.changes({ from: versions[0]!, to: versions[1]! }));
      expect(c.added.map((d) => d.id)).toEqual(['b', 'c']);
      expect(c.changed).toEqual([]);
      expect(n).toBeLessThanOrEqual(3);
    });

    it('ifMatch: of two editors of one document exactly one wins', async () => {
      const read = await docs.read(id('a'));
      const other = new DocumentStore(store());
      const first = await other.put({ ...repo, id: 'a', data: { n: 10 } }, { ifMatch: read.etag });
      expect(first.changed).toBe(true);
      const lost = await docs.put({ ...repo, id: 'a', data: { n: 11 } }, { ifMatch: read.etag }).catch((e) => e);
      expect(lost).toBeInstanceOf(PreconditionFailed);
      expect((await docs.get(id('a')))?.data).toEqual({ n: 10 });
      versions.push(first.version!);
    });

    it('a lost fast-forward race (a writer that trusts its cached tip, opt-in): 422, then compare, tree, commit, ref update', async () => {
      // trustCachedTipMs skips the write's ref read: the same race as a write landing between that read and
      // the ref update, made deterministic. The loser's orphan commit is the documented cost of the option.
      const trusting = new DocumentStore(
        new RemoteApiRefStore({
          transport: rec,
          apiUrl,
          owner,
          repo: repoName,
          ref,
          token,
          writeBackoffBaseMs: 1,
          trustCachedTipMs: Number.MAX_SAFE_INTEGER,
        }),
      );
      await trusting.put({ ...repo, id: 'h', data: 0 }); // learns the tip and its tree levels (its own write)
      const moved = await new DocumentStore(store()).put({ ...repo, id: 'g', data: 7 });
      const [r, n] = await cost(() => trusting.put({ ...repo, id: 'h', data: 8 }));
      expect(r.changed).toBe(true);
      expect(r.previousVersion).toBe(moved.version);
      expect(n).toBeLessThanOrEqual(7); // tree, commit, 422; compare, tree, commit, ref update
      versions.push(r.version!);
    });

    // A put on a tip another writer moved moments ago (issue 21): the write confirms its cached tip first,
    // so it costs the ref read, one compare and the 3 writes, and no commit is made on the stale tip.
    it('a put on a tip another writer just moved: lands on the new tip (≤ 5 requests, no orphan commit)', async () => {
      const other = new DocumentStore(store());
      const moved = await other.put({ ...repo, id: 'd', data: 4 });
      const first = rec.exchanges.length;
      const [r, n] = await cost(() => docs.put({ ...repo, id: 'e', data: 5 }));
      expect(r.changed).toBe(true);
      expect(r.previousVersion).toBe(moved.version);
      expect(n).toBeLessThanOrEqual(5);
      // One commit created, and the ref update was never refused: nothing was built on the old tip.
      const mine = rec.exchanges.slice(first);
      expect(mine.filter((x) => x.method === 'post' && x.path.endsWith('/git/commits'))).toHaveLength(1);
      expect(mine.filter((x) => x.status === 422)).toEqual([]);
      const h = await docs.history(id('e'));
      expect(h.entries).toHaveLength(1);
      versions.push(r.version!);
    });

    it('watch: polls cost a 304 each while nothing moves, one change is reported once', async () => {
      const stop = new AbortController();
      const seen: string[] = [];
      let polls = 0;
      let byOther = 0;
      const since = (await docs.head())!;
      const [, n] = await cost(() =>
        watch(
          docs.store,
          {
            prefix: 'live/',
            since,
            signal: stop.signal,
            visibility: null,
            sleep: async () => {
              polls++;
              if (polls === 2) {
                const before = rec.count;
                await new DocumentStore(store()).put({ ...repo, id: 'f', data: 6 });
                byOther = rec.count - before;
              }
              if (polls === 4) stop.abort();
            },
          },
          (c) => {
            seen.push(...c.added.map((k) => k.key));
          },
        ),
      );
      expect(seen).toEqual(['live/item/f.json']);
      // One ref read per poll (304 while nothing moved), and the changes of the one move (≤ 3).
      expect(n - byOther).toBeLessThanOrEqual(polls + 1 + 3);
    });

    // GitHub documents updateRefs for refs in general but shows only branches and tags; compaction moves
    // refs/<root>/<section> with it (src/stores/remote-api/update-refs.ts). This is that very path.
    it("compaction's updateRefs moves a ref under refs/docdb-live/ with beforeOid; a wrong beforeOid moves nothing", async () => {
      const scratchRef = `${ref}-compaction`;
      const scratch = new RemoteApiRefStore({ transport: rec, apiUrl, owner, repo: repoName, ref: scratchRef, token });
      for (const n of ['1', '2', '3']) await scratch.put('c.json', n);
      const before = (await scratch.commits()).entries; // newest first
      expect(before).toHaveLength(3);
      const first = rec.exchanges.length;
      // beforeOid = the tip's parent, not the tip: refused, the ref where it was.
      const stale = await scratch.replaceHistory({
        from: before[1]!.version,
        onto: null,
        commits: [again(before[0]!)],
      });
      expect(stale.moved).toBe(false);
      expect(stale.tip).toBe(before[0]!.version);
      // The compaction: the newest 2 re-created on a new root, the ref moved from the tip it read.
      const [r, n] = await cost(() => compactSection(scratch, { keepCommits: 2 }));
      expect(r.compacted).toBe(true);
      expect(n).toBeLessThanOrEqual(2 + 10);
      const after = (
        await new RemoteApiRefStore({ transport: rec, apiUrl, owner, repo: repoName, ref: scratchRef, token }).commits()
      ).entries;
      expect(after.map((e) => e.version)).toEqual([r.version, after[1]!.version]);
      expect(after.map((e) => e.tree)).toEqual(before.slice(0, 2).map((e) => e.tree));
      expect(after[1]!.parents).toEqual([]);
      // Both moves went through the GraphQL mutation; no REST ref update was sent (a forced PATCH has no compare).
      const mine = rec.exchanges.slice(first);
      const moves = mine.filter(
        (x) => x.path === '/graphql' && (x.body as { query?: string })?.query === UPDATE_REFS_MUTATION,
      );
      expect(moves).toHaveLength(2);
      expect(mine.filter((x) => x.method === 'patch')).toEqual([]);
      // Delete it: REST DELETE of the ref, then the section is gone.
      const del = await rec.request({
        method: 'DELETE',
        url: `${apiUrl}/repos/${owner}/${repoName}/git/refs/${scratchRef.slice('refs/'.length)}`,
        headers: restHeaders(token),
      });
      expect(del.status).toBe(204);
      expect(
        await new RemoteApiRefStore({ transport: rec, apiUrl, owner, repo: repoName, ref: scratchRef, token }).head(),
      ).toBeNull();
    });
  });
}
