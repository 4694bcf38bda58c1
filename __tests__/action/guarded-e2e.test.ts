/**
 * Issue 38's "Done when" for the Action: a run that would remove 60 % of a type under `max-removed: "10%"`
 * is refused by the Action as a runner runs it (INPUT_* variables, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * workflow commands on stdout) against the emulator — the section tip untouched, exit code 1, `ok=false`,
 * `violations`, an error annotation on the spec's `expect:` line, the violations as summary rows — and with
 * `quarantine: true` the quarantine ref holds the would-be documents, branched from the tip, and the
 * browser client asked for it by name diffs it against the tip (the viewer's `view=diff&from=<tip>&to=<quarantine
 * version>&quarantine=<id>`, checked at the request level). Run twice: src/action/main.ts through tsx, and
 * the BUILT dist/index.js (once it holds quarantine; the lead rebuilds it after merging).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLikeRunner } from '../../src/action/local-runner.js';
import { loadDocDbClient } from '../../src/browser/index.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { ACTION_RUN_MS, DIST, runnerDefaults, workspace } from './run-dist.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghp_GuardedE2eToken0123456789abcdefabcd';
const REPO = 'octo/guarded-e2e';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

// Line 7 is `expect:`.
const SPEC = `quarantine: true
projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
    expect:
      max-removed: "10%"
`;
const csv = (n: number) => `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}`).join('\n')}\n`;

/** The built bundle holds quarantine only once the lead rebuilt it after merging. */
const distHasQuarantine = (() => {
  try {
    return readFileSync(DIST, 'utf8').includes('quarantine-version');
  } catch {
    return false;
  }
})();

const ENTRIES = [
  { name: 'src/action/main.ts (tsx)', entry: MAIN, tsx: true },
  ...(distHasQuarantine ? [{ name: 'dist/index.js', entry: DIST, tsx: false }] : []),
];
if (!distHasQuarantine) {
  console.log(
    'guarded-e2e: dist/index.js predates quarantine (no "quarantine-version" in it): only src is run; rebuild it with npm run build:action',
  );
}

const db = () => em.state.repo(REPO).db;
const tipOf = (ref: string) => db().readRef(ref);
function docsAt(ref: string): string[] {
  const tip = tipOf(ref);
  if (!tip) return [];
  return db()
    .flattenTree(db().getCommit(tip).tree)
    .filter((e) => e.type === 'blob' && !e.path.startsWith('_docdb/'))
    .map((e) => e.path)
    .sort();
}

describe.each(ENTRIES)('max-removed: "10%" refuses a run that removes 60 % ($name)', ({ entry, tsx, name }) => {
  it('section untouched, exit 1, ok=false, violations, annotation on expect:, summary rows, quarantine open-able', {
    timeout: 3 * ACTION_RUN_MS,
  }, async () => {
    const section = `e2e-${tsx ? 'src' : 'dist'}`;
    const ref = `refs/docdb/${section}`;
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(10) });
    const step = () => {
      const env: Record<string, string> = {
        GITHUB_WORKSPACE: cwd,
        GITHUB_SERVER_URL: 'https://github.example',
        GITHUB_RUN_ID: '4711',
        GITHUB_RUN_ATTEMPT: '1',
        ...(tsx ? { NODE_OPTIONS: `--import ${TSX}` } : {}),
      };
      const given = { token: TOKEN, 'api-url': em.url, repository: REPO, section };
      return runLikeRunner({ entry, inputs: { ...runnerDefaults(env), ...given }, cwd, env });
    };
    const first = await step();
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs.ok).toBe('true');
    const tip = tipOf(ref)!;

    writeFileSync(join(cwd, 'rows.csv'), csv(4));
    em.clearLog();
    const refused = await step();
    // What the refusal cost in writes: the quarantine's tree, commit and ref (created ON its commit); the
    // section's ref was never asked to move.
    expect(em.requests.filter((r) => r.contentCreating).map((r) => `${r.method} ${r.operation}`)).toEqual([
      'POST git/create-tree',
      'POST git/create-commit',
      'POST git/create-ref',
    ]);
    expect(refused.code, `${name}: ${refused.stdout}`).toBe(1);
    expect(tipOf(ref)).toBe(tip);
    expect(refused.outputs).toMatchObject({ ok: 'false', changed: 'false', version: tip });
    const violations = JSON.parse(refused.outputs.violations!) as { kind: string; expectation: string; line: number }[];
    expect(violations[0]).toMatchObject({ kind: 'expect', expectation: 'max-removed', line: 7 });
    expect(refused.stdout).toMatch(
      /^::error title=docdb%3A expectation not met,file=\.github\/docdb\.yml,line=7::projections\.rows\.expect: max-removed: the write removes 6 of 10 documents \(60%25\)/m,
    );
    expect(refused.summary).toMatch(/run refused by the expectations: nothing written/);
    expect(refused.summary).toMatch(/\| rows \| .* \| max-removed \|/);

    // The quarantine: the would-be commit on the tip, holding the 4 rows left.
    const qref = `${ref}.quarantine/4711.1`;
    const qversion = tipOf(qref)!;
    expect(refused.outputs).toMatchObject({ 'quarantine-ref': qref, 'quarantine-version': qversion });
    expect(db().getCommit(qversion).parents).toEqual([tip]);
    expect(docsAt(qref)).toEqual(['data/rows/k0.json', 'data/rows/k1.json', 'data/rows/k2.json', 'data/rows/k3.json']);
    expect(docsAt(ref)).toHaveLength(10);

    // What the viewer's diff reads (view=diff&from=<tip>&to=<quarantine-version>&quarantine=4711.1).
    const client = await loadDocDbClient({
      owner: 'octo',
      repo: 'guarded-e2e',
      ref,
      quarantine: '4711.1',
      apiUrl: em.url,
      hostCapabilities: { transport: { fetch: globalThis.fetch }, credentials: async () => TOKEN },
    });
    const diff = await client.changes({ from: tip, to: qversion });
    expect(diff.removed.map((d) => d.id).sort()).toEqual(['k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
  });
});

describe('a schema: refuses a run whose documents break it (src/action/main.ts through tsx)', () => {
  it('exit 1, nothing written, each violation on the schema: line with key, pointer, rule and type found; no quarantine', {
    timeout: 2 * ACTION_RUN_MS,
  }, async () => {
    // Line 6 is `schema:`; the CSV's values are strings, the schema wants integers.
    const spec = `quarantine: true
projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    schema: ./schemas/row.json
`;
    const cwd = workspace({
      '.github/docdb.yml': spec,
      '.github/schemas/row.json': JSON.stringify({ type: 'object', properties: { value: { type: 'integer' } } }),
      'rows.csv': csv(12),
    });
    const env: Record<string, string> = {
      GITHUB_WORKSPACE: cwd,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_RUN_ID: '4712',
      GITHUB_RUN_ATTEMPT: '1',
      NODE_OPTIONS: `--import ${TSX}`,
    };
    const given = { token: TOKEN, 'api-url': em.url, repository: REPO, section: 'schema-e2e' };
    em.clearLog();
    const run = await runLikeRunner({ entry: MAIN, inputs: { ...runnerDefaults(env), ...given }, cwd, env });
    expect(run.code, run.stdout).toBe(1);
    expect(tipOf('refs/docdb/schema-e2e')).toBeUndefined();
    expect(db().listRefs('refs/docdb/schema-e2e.quarantine/')).toEqual([]);
    expect(em.requests.filter((r) => r.contentCreating)).toEqual([]);
    expect(run.outputs).toMatchObject({ ok: 'false', 'violation-count': '12', 'quarantine-ref': '' });
    const violations = JSON.parse(run.outputs.violations!) as Record<string, unknown>[];
    expect(violations[0]).toMatchObject({
      kind: 'schema',
      projection: 'rows',
      line: 6,
      key: 'data/rows/k0.json',
      pointer: '/data/value',
      rule: 'type',
      found: 'string',
    });
    // No document value in any report: "v0" … "v11" appear nowhere.
    expect(`${run.stdout}${run.summary}${run.outputs.violations}`).not.toMatch(/\bv\d+\b/);
    const marks = run.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(marks).toHaveLength(10);
    expect(marks[0]).toMatch(
      /^::error title=docdb%3A schema violation,file=\.github\/docdb\.yml,line=6::projections\.rows\.schema: data\/rows\/k0\.json: \/data\/value breaks "type"/,
    );
    expect(marks[9]).toMatch(/and 2 more violation\(s\)/);
    expect(run.summary.split('\n').filter((l) => l.startsWith('| rows |'))).toHaveLength(12);
  });
});
