/**
 * `shard-commit: merge` and `mode: merge` (issue 30 item 3), the Action from source (src/action/main.ts
 * through tsx, run as a runner runs it: INPUT_* variables, GITHUB_RUN_ID/GITHUB_RUN_ATTEMPT, GITHUB_OUTPUT)
 * against the emulator, requests counted at the emulator:
 * - 4 shards write their own refs concurrently with no lost race; the merge folds them into the section in
 *   ONE commit equal to an unsharded run, keeps every shard's state file exact and deletes the shard refs;
 * - content-creating requests (as the emulator counts them) of 4 shards + merge stay within 3 per shard + 5:
 *   a shard creates its ref ON its commit, the merge deletes every shard ref in one updateRefs mutation;
 * - a missing shard, an unfinished one, another run's shard and a merge with no shard refs each fail
 *   naming the problem, with the section untouched.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLikeRunner } from '../../src/action/local-runner.js';
import { fromUtf8 } from '../../src/core/bytes.js';
import type { EmulatorHandle, RequestLogEntry } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { ACTION_RUN_MS, runnerDefaults, workspace } from './run-dist.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghp_ShardMergeToken0123456789abcdef';
const REPO = 'octo/shards';
const N = 4;
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
  for (let i = 1; i <= 8; i++) em.state.addIssue(REPO, { title: `issue ${i}`, updatedAt: `2024-03-0${i}T00:00:00Z` });
});
afterAll(async () => {
  await em?.stop();
});

// Rows from a workspace file; issues keep incremental state (a watermark per shard: _docdb/state/issues.shard-i-of-n.json).
const SPEC = `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
  issues:
    source: { type: issues, repositories: [${REPO}] }
`;

function csv(rows: [string, string][]): string {
  return `key,value\n${rows.map(([k, v]) => `${k},${v}`).join('\n')}\n`;
}
const rows = (n: number, tag: string, from = 0): [string, string][] =>
  Array.from({ length: n }, (_, i) => [`k${from + i}`, `${tag}${from + i}`]);

/** Run the Action's source in `cwd` as job `run` of a workflow run. */
function runStep(cwd: string, inputs: Record<string, string>, run = '4711', attempt = '1') {
  const env = {
    GITHUB_WORKSPACE: cwd,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: run,
    GITHUB_RUN_ATTEMPT: attempt,
    NODE_OPTIONS: `--import ${TSX}`,
  };
  const given = { token: TOKEN, 'api-url': em.url, repository: REPO, ...inputs };
  return runLikeRunner({ entry: MAIN, inputs: { ...runnerDefaults(env), ...given }, cwd, env });
}

/** Every file of a ref's tip tree (path → text); empty when the ref does not exist. */
function files(ref: string): Map<string, string> {
  const db = em.state.repo(REPO).db;
  const tip = db.readRef(ref);
  const out = new Map<string, string>();
  if (!tip) return out;
  for (const e of db.flattenTree(db.getCommit(tip).tree))
    if (e.type === 'blob') out.set(e.path, fromUtf8(db.getBlob(e.sha)));
  return out;
}
const docsOf = (ref: string) => [...files(ref)].filter(([k]) => !k.startsWith('_docdb/'));
const tipOf = (ref: string) => em.state.repo(REPO).db.readRef(ref);

/** Content-creating requests as the emulator counts them (rations.ts: mutating REST, GraphQL mutations). */
const creating = (log: readonly RequestLogEntry[]) => log.filter((r) => r.contentCreating);

describe('shard-commit: merge, then mode: merge', () => {
  it('4 shards land on their own refs with no lost race; the merge folds them in ONE commit equal to an unsharded run, state files exact, shard refs deleted; within the request budget', {
    timeout: 12 * ACTION_RUN_MS,
  }, async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(rows(40, 'a')) });
    // The section exists already (an earlier direct run): shards branch from its tip, the merge compares.
    const first = await runStep(cwd, { section: 'merged' });
    expect(first.code, first.stdout).toBe(0);
    const before = tipOf('refs/docdb/merged');
    // Next round: 6 rows change, 5 go, 7 are new.
    const next = [...rows(6, 'b'), ...rows(29, 'a', 6), ...rows(7, 'c', 40)];
    writeFileSync(join(cwd, 'rows.csv'), csv(next));
    em.clearLog();
    const shards = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        runStep(cwd, { section: 'merged', shard: `${i + 1}/${N}`, 'shard-commit': 'merge' }),
      ),
    );
    for (const s of shards) expect(s.code, s.stdout).toBe(0);
    const shardLog = [...em.requests];
    // No contention: no ref update was refused, and the section did not move.
    expect(shardLog.filter((r) => r.status === 422)).toEqual([]);
    expect(tipOf('refs/docdb/merged')).toBe(before);
    const shardState = new Map<string, string>();
    for (let i = 1; i <= N; i++) {
      const ref = `refs/docdb/merged.shards/${i}`;
      const commit = em.state.repo(REPO).db.getCommit(tipOf(ref)!);
      expect(commit.parents).toEqual([before]);
      expect(commit.message).toMatch(
        new RegExp(`Docdb-Run: 4711\\.1\\nDocdb-Nonce: \\w+\\nDocdb-Shard: ${i}/${N}\\nDocdb-Shard-Base: ${before}`),
      );
      for (const [k, v] of files(ref)) if (/^_docdb\/state\/.*\.shard-/.test(k)) shardState.set(k, v);
    }
    expect([...shardState.keys()].sort()).toEqual(
      Array.from({ length: N }, (_, i) => `_docdb/state/issues.shard-${i + 1}-of-${N}.json`),
    );

    em.clearLog();
    const merge = await runStep(cwd, { section: 'merged', mode: 'merge', shards: String(N), notify: 'docdb-merged' });
    expect(merge.code, merge.stdout).toBe(0);
    const mergeLog = [...em.requests];
    // ONE commit on the section tip, holding the union of the shards.
    const tip = tipOf('refs/docdb/merged')!;
    expect(em.state.repo(REPO).db.getCommit(tip).parents).toEqual([before]);
    expect(merge.outputs).toMatchObject({
      changed: 'true',
      version: tip,
      'previous-version': before,
      written: '13',
      deleted: '5',
    });
    expect(JSON.parse(merge.outputs.keys!)).toHaveLength(18);
    const direct = await runStep(cwd, { section: 'direct' });
    expect(direct.code, direct.stdout).toBe(0);
    expect(docsOf('refs/docdb/merged')).toEqual(docsOf('refs/docdb/direct'));
    for (const [k, v] of shardState) expect(files('refs/docdb/merged').get(k)).toBe(v);
    expect(
      [...files('refs/docdb/merged').keys()].filter((k) => k.startsWith('_docdb/') && !k.startsWith('_docdb/state/')),
    ).toEqual([]);
    for (let i = 1; i <= N; i++) expect(tipOf(`refs/docdb/merged.shards/${i}`)).toBeUndefined();
    expect(merge.summary).toMatch(/Merged 4 shard\(s\) in one commit/);
    // The next workflow is told, once, with what the merge commit changed.
    expect(em.state.repo(REPO).dispatches).toMatchObject([
      {
        eventType: 'docdb-merged',
        clientPayload: {
          version: tip,
          previousVersion: before,
          keys: JSON.parse(merge.outputs.keys!),
          truncated: false,
        },
      },
    ]);

    // The budget: content-creating requests of n shards + merge <= 3 per shard + 5 (issue 30).
    const created = creating(shardLog).length + creating(mergeLog).length;
    expect(created).toBeLessThanOrEqual(3 * N + 5);
    // Each shard: a tree, a commit, its ref created on that commit; the merge: a tree, a commit, the
    // section moved, ONE updateRefs mutation deleting every shard ref, the dispatch.
    expect(
      creating(shardLog)
        .map((r) => `${r.method} ${r.operation}`)
        .sort(),
    ).toEqual(Array(N).fill(['POST git/create-tree', 'POST git/create-commit', 'POST git/create-ref']).flat().sort());
    expect(creating(mergeLog).map((r) => `${r.method} ${r.operation}`)).toEqual([
      'POST git/create-tree',
      'POST git/create-commit',
      'PATCH git/update-ref',
      'POST graphql',
      'POST repos/create-dispatch-event',
    ]);
    // The merge reads only what changed: one compare per shard, no listing of the section.
    expect(mergeLog.filter((r) => r.operation === 'repos/compare-commits-with-basehead')).toHaveLength(N);

    // A second round with no change: every shard still commits its receipt; the merge makes no commit.
    const again = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        runStep(cwd, { section: 'merged', shard: `${i + 1}/${N}`, 'shard-commit': 'merge' }, '4712'),
      ),
    );
    for (const s of again) expect(s.code, s.stdout).toBe(0);
    const quiet = await runStep(cwd, { section: 'merged', mode: 'merge', shards: String(N) }, '4712');
    expect(quiet.code, quiet.stdout).toBe(0);
    expect(quiet.outputs).toMatchObject({ changed: 'false', version: tip });
    expect(tipOf('refs/docdb/merged')).toBe(tip);
    expect(tipOf('refs/docdb/merged.shards/1')).toBeUndefined();
  });

  it('a missing shard, another run’s shard, a merge with no shard refs: each fails naming it, the section untouched', {
    timeout: 8 * ACTION_RUN_MS,
  }, async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(rows(12, 'a')) });
    const none = await runStep(cwd, { section: 'partial', mode: 'merge', shards: '3' });
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(
      /no shard refs to merge: none of refs\/docdb\/partial\.shards\/1 … refs\/docdb\/partial\.shards\/3 exists/,
    );
    // Shards 1 and 3 of run 100 finish; shard 2 failed (never ran).
    for (const shard of ['1/3', '3/3']) {
      const r = await runStep(cwd, { section: 'partial', shard, 'shard-commit': 'merge' }, '100');
      expect(r.code, r.stdout).toBe(0);
    }
    const missing = await runStep(cwd, { section: 'partial', mode: 'merge', shards: '3' }, '100');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/cannot merge into refs\/docdb\/partial: shard\(s\) 2 of 3 missing/);
    expect(missing.stdout).toMatch(/Nothing was written/);
    expect(tipOf('refs/docdb/partial')).toBeUndefined();
    expect(tipOf('refs/docdb/partial.shards/1')).toBeDefined();
    // Another run's merge sees run 100's shards and refuses them, saying how to tell runs apart.
    const foreign = await runStep(cwd, { section: 'partial', mode: 'merge', shards: '3' }, '200');
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toMatch(/shard\(s\) 1 \(refs\/docdb\/partial\.shards\/1: Docdb-Run 100\.1, shard 1\/3\)/);
    expect(foreign.stdout).toMatch(
      /from another run than this one \(Docdb-Run 200\.1\): each shard commit names its run in the Docdb-Run trailer/,
    );
    // Another run's shard job will not overwrite run 100's unmerged shard either.
    const clash = await runStep(cwd, { section: 'partial', shard: '1/3', 'shard-commit': 'merge' }, '200');
    expect(clash.code).toBe(1);
    expect(clash.stdout).toMatch(/refs\/docdb\/partial\.shards\/1 holds shard 1\/3 of another run \(Docdb-Run 100\.1/);
    // Re-running the failed job (attempt 2 of run 100) completes the set; the merge (attempt 2) lands.
    const retried = await runStep(cwd, { section: 'partial', shard: '2/3', 'shard-commit': 'merge' }, '100', '2');
    expect(retried.code, retried.stdout).toBe(0);
    const merged = await runStep(cwd, { section: 'partial', mode: 'merge', shards: '3' }, '100', '2');
    expect(merged.code, merged.stdout).toBe(0);
    expect(docsOf('refs/docdb/partial')).toHaveLength(12 + 8);
  });

  it('a merge run before a shard finished (no ref yet), or on a shard ref holding no shard commit, fails naming it', {
    timeout: 7 * ACTION_RUN_MS,
  }, async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(rows(5, 'a')) });
    expect((await runStep(cwd, { section: 'early' })).code).toBe(0);
    // Every row changes before the shards run; an unsharded run of the new rows is what the merge must give.
    writeFileSync(join(cwd, 'rows.csv'), csv(rows(5, 'z')));
    expect((await runStep(cwd, { section: 'early-direct' })).code).toBe(0);
    const tip = tipOf('refs/docdb/early')!;
    for (const shard of ['1/2'])
      expect((await runStep(cwd, { section: 'early', shard, 'shard-commit': 'merge' })).code).toBe(0);
    // Shard 2 is still running: its ref appears only with its commit.
    const running = await runStep(cwd, { section: 'early', mode: 'merge', shards: '2' });
    expect(running.code).toBe(1);
    expect(running.stdout).toMatch(
      /shard\(s\) 2 of 2 missing \(a shard's ref appears with its commit: failed, not run, or not finished yet — the merge job must need: the matrix job/,
    );
    expect(tipOf('refs/docdb/early')).toBe(tip);
    // A ref at the section tip with no shard commit on it (made by something else than a shard job).
    em.state.repo(REPO).db.compareAndSwapRef('refs/docdb/early.shards/2', null, tip);
    const early = await runStep(cwd, { section: 'early', mode: 'merge', shards: '2' });
    expect(early.code).toBe(1);
    expect(early.stdout).toMatch(
      /shard\(s\) 2 not finished \(the ref has no shard commit yet: run the merge after every shard/,
    );
    expect(tipOf('refs/docdb/early')).toBe(tip);
    // Shard 2 then finishes (the same run): it replaces the ref it finds, which holds no shard commit.
    const late = await runStep(cwd, { section: 'early', shard: '2/2', 'shard-commit': 'merge' });
    expect(late.code, late.stdout).toBe(0);
    expect(late.stdout).toMatch(
      /removed refs\/docdb\/early\.shards\/2, left by an earlier attempt of this run or by a shard that never committed/,
    );
    const merged = await runStep(cwd, { section: 'early', mode: 'merge', shards: '2' });
    expect(merged.code, merged.stdout).toBe(0);
    expect(docsOf('refs/docdb/early')).toEqual(docsOf('refs/docdb/early-direct'));
  });
});
