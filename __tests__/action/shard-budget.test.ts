/**
 * Issue 30's budget for `shard-commit: merge` + `mode: merge`, asserted against the emulator with GitHub's
 * secondary limits ON (80 content-creating requests a minute per token) on a virtual clock: an Actions
 * matrix of 16 and of 32 jobs on one section (bench/shard-matrix.ts: each job the Action's engine in
 * process, on a runner of its own, spaced as on GitHub), then the merge job.
 * - every shard and the merge land; the section then holds exactly what an unsharded run of the same data
 *   writes (documents, index files, every `_docdb/` file), and no shard ref is left;
 * - content-creating requests (as the emulator counts them: mutating REST and GraphQL mutations) stay
 *   within 3 per shard + 5: a shard costs a tree, a commit and the creation of its ref ON that commit; the
 *   merge a tree, a commit, the section's move, ONE `updateRefs` deleting every shard ref, the dispatch;
 * - 16 jobs meet no secondary limit; 32 jobs (more than 80 in a minute) do, and every job honours the
 *   `retry-after` it was given (no request of a job before its own window ended).
 */
import { describe, expect, it } from 'vitest';
import { contentCreating, limitedAnswers, shardMatrix } from '../../bench/shard-matrix.js';

/** A content-creating request as "METHOD path" with the repository and SHAs left out. */
const named = (r: { method: string; path: string }) =>
  `${r.method} ${r.path.replace(/^\/repos\/octo\/fanout/, '').replace(/\/\d+$/, '/<i>')}`;

describe('shard-commit: merge within GitHub secondary limits (limits on, virtual clock)', () => {
  it('16 shards + merge: 16/16 land, content-creating requests = 3 × 16 + 5, no secondary-limit answer, the section equals an unsharded run', async () => {
    const r = await shardMatrix({ shards: 16, way: 'merge', rows: 320, notify: 'docdb-merged' });
    expect(r.shards.map((s) => s.message ?? 'ok')).toEqual(Array(16).fill('ok'));
    expect(r.merge).toMatchObject({ ok: true, outputs: { changed: 'true' } });
    // Each shard: a tree, a commit, its ref created on the commit — never created first and moved after.
    const shard = contentCreating(r.shardLog).map(named);
    expect(shard.filter((x) => x === 'POST /git/trees')).toHaveLength(16);
    expect(shard.filter((x) => x === 'POST /git/commits')).toHaveLength(16);
    expect(shard.filter((x) => x === 'POST /git/refs')).toHaveLength(16);
    expect(shard).toHaveLength(48);
    expect(r.shardLog.filter((e) => e.method === 'PATCH' || e.method === 'DELETE')).toEqual([]);
    // The merge: tree, commit, the section moved, ONE mutation deleting the 16 shard refs, the dispatch.
    expect(contentCreating(r.mergeLog).map(named).sort()).toEqual(
      ['POST /git/trees', 'POST /git/commits', 'PATCH /git/refs/docdb/fan', 'POST /graphql', 'POST /dispatches'].sort(),
    );
    expect(r.mergeLog.filter((e) => e.method === 'DELETE')).toEqual([]);
    expect(contentCreating([...r.shardLog, ...r.mergeLog]).length).toBeLessThanOrEqual(3 * 16 + 5);
    expect(limitedAnswers([...r.shardLog, ...r.mergeLog])).toEqual([]);
    expectSameAsUnsharded(r);
  });

  it('32 shards + merge: 32/32 land, content-creating requests ≤ 3 × 32 + 5, every secondary-limit answer honoured, nothing lost', async () => {
    const r = await shardMatrix({ shards: 32, way: 'merge', rows: 640 });
    expect(r.shards.map((s) => s.message ?? 'ok')).toEqual(Array(32).fill('ok'));
    expect(r.merge).toMatchObject({ ok: true, outputs: { changed: 'true' } });
    // 96 content-creating requests within about a minute: GitHub's 80 a minute refuses some ...
    expect(limitedAnswers(r.shardLog).length).toBeGreaterThan(0);
    // ... and each job waits out what it was told (jobs on separate runners cannot know each other's answers).
    expect(r.shards.map((s) => s.sentEarly)).toEqual(Array(32).fill(0));
    expect(r.merge?.sentEarly).toBe(0);
    // A refused request created nothing: the budget counts what was created.
    expect(contentCreating(r.shardLog)).toHaveLength(3 * 32);
    expect(contentCreating([...r.shardLog, ...r.mergeLog]).length).toBeLessThanOrEqual(3 * 32 + 5);
    expectSameAsUnsharded(r);
  });
});

/** The merged section holds exactly what the unsharded run wrote: documents, index and state files; no shard ref left. */
function expectSameAsUnsharded(r: Awaited<ReturnType<typeof shardMatrix>>): void {
  const documents = [...r.section.keys()].filter((k) => !k.startsWith('_docdb/'));
  expect(documents.length).toBeGreaterThan(0);
  // The spec declares an index: its files are part of what must be exact.
  expect([...r.section.keys()].some((k) => k.startsWith('_docdb/index/'))).toBe(true);
  expect([...r.section.keys()].sort()).toEqual([...r.direct.keys()].sort());
  for (const [path, text] of r.direct) expect(r.section.get(path), path).toBe(text);
  expect(r.shardRefsLeft).toEqual([]);
}
