/**
 * `mode: review` up to the review's input (issue 39), in-process against the emulator: the dry run never
 * moves the section; the would-be commit's `expect:` is evaluated on the tip; the `before` data of modified
 * and removed documents comes from one bulk read; a same-repository pull request gets its preview ref
 * (branched from the tip, replaced with a compare-and-set on a re-run); a fork gets none; under
 * `pull_request_target` no workspace module is loaded; `review-cleanup` deletes the preview.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { reviewCleanupMode } from '../../src/action/review-cleanup.js';
import { readReviewEvent } from '../../src/action/review-event.js';
import { prepareReview } from '../../src/action/review-prepare.js';
import { actionTools, runAction } from '../../src/action/run-action.js';
import { fromUtf8 } from '../../src/core/bytes.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import type { ReviewDocument } from '../../src/review/types.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghs_ReviewPrepareToken0123456789abcdefab';
const READ_ONLY = 'ghs_ReviewReadOnlyToken0123456789abcdefa';
const REPO = 'octo/review';
const HEAD = 'c0ffee'.padEnd(40, '0');
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
  em.state.addToken(READ_ONLY, { login: 'forker', repos: { [REPO]: 'read' }, rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = (expect = 'max-removed: "50%"', reducer = '') => `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
${reducer}    prune: true
    expect: { ${expect} }
`;
const csv = (rows: [string, string][]) => `key,value\n${rows.map(([k, v]) => `${k},${v}`).join('\n')}\n`;
const TEN: [string, string][] = Array.from({ length: 10 }, (_, i) => [`k${i}`, `v${i}`]);

const db = () => em.state.repo(REPO).db;
const tipOf = (ref: string) => db().readRef(ref) ?? null;

function inputsFor(section: string, extra: Record<string, string> = {}, token = TOKEN) {
  const values: Record<string, string> = { token, 'api-url': em.url, repository: REPO, section, ...extra };
  return readInputs((n) => values[n] ?? '', {});
}

/** A pull_request event payload file in `cwd` (head repository `headRepo`). */
function eventFile(cwd: string, number: number, headRepo = REPO): string {
  const path = join(cwd, 'event.json');
  writeFileSync(
    path,
    JSON.stringify({
      action: 'synchronize',
      number,
      pull_request: {
        number,
        head: { sha: HEAD, ref: 'change', repo: { full_name: headRepo } },
        base: { ref: 'main', repo: { full_name: REPO } },
      },
    }),
  );
  return path;
}

async function seed(cwd: string, section: string) {
  const r = await runAction(inputsFor(section), { workspace: cwd, writeSpacingMs: 0 });
  expect(r.outputs.changed).toBe('true');
  return tipOf(`refs/docdb/${section}`)!;
}

async function prepare(cwd: string, section: string, name: string, headRepo = REPO, token = TOKEN) {
  const inputs = inputsFor(section, { mode: 'review' }, token);
  const context = { workspace: cwd, writeSpacingMs: 0, run: { id: 99, attempt: 1 } };
  const tools = actionTools(inputs, context);
  const event = await readReviewEvent({ name, path: eventFile(cwd, 7, headRepo) });
  return { prepared: await prepareReview(inputs, context, tools, event), tools };
}

describe('mode: review, prepared', () => {
  it('same repository: the section does not move; before/after of each change; the preview is the would-be commit on the tip, replaced on a re-run', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(TEN) });
    const tip = await seed(cwd, 'same');
    // k1 and k2 modified, k9 removed, k10 added.
    writeFileSync(
      join(cwd, 'rows.csv'),
      csv([
        ...TEN.slice(0, 9).map(([k, v]): [string, string] => [k, k === 'k1' || k === 'k2' ? `${v}!` : v]),
        ['k10', 'v10'],
      ]),
    );
    const { prepared } = await prepare(cwd, 'same', 'pull_request');
    expect(tipOf('refs/docdb/same')).toBe(tip);

    const docs = [...prepared.input.documents] as ReviewDocument[];
    expect(docs.map((d) => `${d.change} ${d.id}`)).toEqual(['modified k1', 'added k10', 'modified k2', 'removed k9']);
    const k1 = docs.find((d) => d.id === 'k1')!;
    expect(k1).toMatchObject({
      namespace: 'data',
      type: 'rows',
      projection: 'rows',
      before: { key: 'k1', value: 'v1' },
      after: { key: 'k1', value: 'v1!' },
    });
    expect(docs.find((d) => d.id === 'k9')).toMatchObject({ before: { key: 'k9', value: 'v9' }, after: undefined });
    expect(docs.find((d) => d.id === 'k10')).toMatchObject({ before: undefined, after: { key: 'k10', value: 'v10' } });
    expect(prepared.input).toMatchObject({
      section: 'refs/docdb/same',
      repository: REPO,
      pullRequest: 7,
      headSha: HEAD,
      base: tip,
      specFile: '.github/docdb.yml',
    });
    expect(prepared.input.expectations).toEqual({ declared: true, violations: [] });
    expect(prepared.input.projections).toEqual([{ name: 'rows', line: 6 }]);

    const ref = 'refs/docdb/same.previews/pr-7';
    const first = tipOf(ref)!;
    expect(prepared.input.preview).toEqual({ ref, version: first });
    const commit = db().getCommit(first);
    expect(commit.parents).toEqual([tip]);
    expect(commit.message).toContain(`Docdb-Preview-Base: ${tip}`);
    const files = new Map(
      db()
        .flattenTree(commit.tree)
        .filter((e) => e.type === 'blob')
        .map((e) => [e.path, e.sha]),
    );
    expect([...files.keys()].filter((k) => k.startsWith('data/')).sort()).toEqual(
      ['k0', 'k1', 'k10', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'k8'].map((k) => `data/rows/${k}.json`),
    );
    expect(JSON.parse(fromUtf8(db().getBlob(files.get('data/rows/k1.json')!))).data).toEqual({
      key: 'k1',
      value: 'v1!',
    });

    // A re-run of the same change writes the very same commit (author and date pinned): the version stays.
    const again = await prepare(cwd, 'same', 'pull_request');
    expect(tipOf(ref)).toBe(first);
    expect(again.prepared.input.preview).toEqual({ ref, version: first });
    // A new change replaces the preview: a new commit on the tip, the same one ref.
    writeFileSync(join(cwd, 'rows.csv'), csv(TEN.slice(0, 8)));
    const third = await prepare(cwd, 'same', 'pull_request');
    const second = tipOf(ref)!;
    expect(second).not.toBe(first);
    expect(db().getCommit(second).parents).toEqual([tip]);
    expect(third.prepared.input.preview).toEqual({ ref, version: second });
    expect(tipOf('refs/docdb/same')).toBe(tip);
  });

  it('a failing expectation is evaluated on the tip without moving the section: violations name the projection and rule', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC('max-removed: 1'), 'rows.csv': csv(TEN) });
    const tip = await seed(cwd, 'failing');
    writeFileSync(join(cwd, 'rows.csv'), csv(TEN.slice(0, 6)));
    const { prepared } = await prepare(cwd, 'failing', 'pull_request');
    expect(tipOf('refs/docdb/failing')).toBe(tip);
    expect(prepared.refusal?.kind).toBe('expect');
    expect(prepared.input.expectations.violations).toEqual([
      { projection: 'rows', rule: 'max-removed', message: expect.stringMatching(/^max-removed: /) },
    ]);
    expect(prepared.input.expectations.count).toBe(1);
    // The preview still shows what the change would do (reviewers look at the failing data).
    expect(prepared.input.preview?.version).toBe(tipOf('refs/docdb/failing.previews/pr-7'));
  });

  it('a fork: no preview, a note naming contents: write, the review computed in memory with a read-only token', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(TEN) });
    const tip = await seed(cwd, 'fork');
    writeFileSync(join(cwd, 'rows.csv'), csv(TEN.slice(0, 9)));
    em.clearLog();
    const { prepared } = await prepare(cwd, 'fork', 'pull_request', 'forker/review', READ_ONLY);
    expect(prepared.input.preview).toBeNull();
    expect(prepared.input.notes.join(' ')).toMatch(/fork.*contents: write is missing/);
    expect([...prepared.input.documents].map((d) => `${d.change} ${d.id}`)).toEqual(['removed k9']);
    // Reads only (the one bulk read of the removed document is a GraphQL query): nothing created or deleted.
    expect(em.requests.filter((r) => r.method !== 'GET' && r.operation !== 'graphql')).toEqual([]);
    expect(em.requests.filter((r) => r.operation === 'graphql')).toHaveLength(1);
    expect(tipOf('refs/docdb/fork.previews/pr-7')).toBeNull();
    expect(tipOf('refs/docdb/fork')).toBe(tip);
  });

  it('a same-repository pull request whose token may not write: no preview, a note, no failure', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(TEN) });
    await seed(cwd, 'denied');
    writeFileSync(join(cwd, 'rows.csv'), csv(TEN.slice(0, 9)));
    const { prepared } = await prepare(cwd, 'denied', 'pull_request', REPO, READ_ONLY);
    expect(prepared.input.preview).toBeNull();
    expect(prepared.input.notes.join(' ')).toMatch(/contents: write is missing/);
    expect(tipOf('refs/docdb/denied.previews/pr-7')).toBeNull();
  });

  it('pull_request_target: a reducer module of the workspace is refused on its spec line, never imported', async () => {
    const marker = join(workspace({}), 'imported');
    const cwd = workspace({
      '.github/docdb.yml': SPEC('max-removed: "50%"', '    reducer: { module: ./evil.mjs }\n'),
      '.github/evil.mjs': `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\nexport default (i) => i;\n`,
      'rows.csv': csv(TEN),
    });
    em.clearLog();
    const run = prepare(cwd, 'target', 'pull_request_target');
    await expect(run).rejects.toMatchObject({
      code: 'InvalidSpec',
      data: { line: 5, field: 'projections.rows.reducer.module', reason: 'workspace-module-refused' },
    });
    await expect(run).rejects.toThrow(
      /\.github\/docdb\.yml:5: .*not loaded: a review under pull_request_target .*mode: review-publish/,
    );
    expect(existsSync(marker)).toBe(false);
    expect(em.requests).toEqual([]);
  });

  it('review-cleanup deletes the preview ref, and says there is nothing to do when it is gone', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(TEN) });
    await seed(cwd, 'cleanup');
    writeFileSync(join(cwd, 'rows.csv'), csv(TEN.slice(0, 9)));
    await prepare(cwd, 'cleanup', 'pull_request');
    const ref = 'refs/docdb/cleanup.previews/pr-7';
    const held = tipOf(ref)!;
    const lines: string[] = [];
    const cleanup = async () => {
      const inputs = inputsFor('cleanup', { mode: 'review-cleanup' });
      const context = {
        workspace: cwd,
        writeSpacingMs: 0,
        log: (l: string) => lines.push(l),
        event: { name: 'pull_request', path: eventFile(cwd, 7) },
      };
      const event = await readReviewEvent(context.event);
      return reviewCleanupMode(inputs, context, actionTools(inputs, context), event);
    };
    const first = await cleanup();
    expect(first.outputs).toMatchObject({ 'preview-ref': ref, deleted: 'true', 'previous-version': held });
    expect(tipOf(ref)).toBeNull();
    em.clearLog();
    const second = await cleanup();
    expect(second.outputs).toMatchObject({ deleted: 'false', 'previous-version': '' });
    expect(lines.at(-1)).toMatch(/no preview of pull request #7 to delete .*nothing to do/);
    expect(em.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
