/**
 * `docdb section quarantine list | promote ID | drop ID` through the API (emulator): quarantine refs written
 * as a refused run writes them (quarantine-write.ts), listed with id, version, base and date; promote is a
 * compare-and-set from the tip a quarantine was computed on — refused with the reason, nothing moved, once
 * the section moved — and deletes its ref; drop deletes the ref and nothing else; a bad id, no action, or a
 * local store are usage errors before any request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/document/document-store.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { writeQuarantine } from '../../src/projection/run/quarantine-write.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { workspace } from '../action/run-dist.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliQuarantineToken0123456789abcdefAB';
const REPO = 'octo/quarantine';
const SECTION = 'refs/docdb/documents';
let em: EmulatorHandle;
beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

const storeOn = (ref: string, startAt?: string) =>
  new RemoteApiRefStore({
    transport: fetchTransport(),
    apiUrl: em.url,
    owner: 'octo',
    repo: 'quarantine',
    ref,
    token: TOKEN,
    ...(startAt ? { startAt } : {}),
  });
const tipOf = (ref: string) => em.state.repo(REPO).db.readRef(ref);
const cli = (args: string[]) =>
  runCli([...args, '--repo', REPO, '--api-url', em.url, '--token-env', 'T'], { env: { T: TOKEN } });

const csv = (n: number) => `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}`).join('\n')}\n`;

/** Quarantine a would-be commit (n's document written) on the section's tip, as a refused run does. */
async function quarantine(id: string, n: number) {
  const base = (await storeOn(SECTION).head()) ?? null;
  return writeQuarantine({
    target: { id, storeOn },
    sectionRef: SECTION,
    ops: [{ op: 'put', document: { namespace: 'n', type: 't', id: `q${n}`, data: { n } } }],
    base,
    message: `docdb: project (quarantined ${n})`,
    indexes: [],
    schemas: [],
  });
}

describe('docdb project --quarantine, then docdb section quarantine', () => {
  it('a run refused by max-removed exits 1 naming the expect: line, quarantines, and promote lands it', async () => {
    const cwd = workspace({
      'docdb.yml':
        'projections:\n  rows:\n    source: { type: files, glob: rows.csv }\n    identity: { id: "{item.key}" }\n    prune: true\n    expect:\n      max-removed: "10%"\n',
      'rows.csv': csv(10),
    });
    const project = (more: string[] = []) =>
      runCli(
        [
          'project',
          '--spec',
          'docdb.yml',
          '--section',
          'cycle',
          '--repo',
          REPO,
          '--api-url',
          em.url,
          '--token-env',
          'T',
          ...more,
        ],
        { env: { T: TOKEN, GITHUB_RUN_ID: '99', GITHUB_RUN_ATTEMPT: '1' }, cwd },
      );
    const first = await project();
    expect(first.code, first.stderr).toBe(0);
    const tip = tipOf('refs/docdb/cycle')!;
    writeFileSync(join(cwd, 'rows.csv'), csv(4));
    const refused = await project(['--quarantine']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^docdb\.yml:6: projections\.rows\.expect: max-removed: the write removes 6 of 10 documents/m,
    );
    expect(refused.stdout).toMatch(/^docdb: run refused by the expectations: nothing written to refs\/docdb\/cycle/);
    expect(tipOf('refs/docdb/cycle')).toBe(tip);
    const q = tipOf('refs/docdb/cycle.quarantine/99.1')!;
    expect(refused.stdout).toContain(`quarantined at refs/docdb/cycle.quarantine/99.1: ${q}`);

    const flags = ['--section', 'cycle', '--repo', REPO, '--api-url', em.url, '--token-env', 'T'];
    const list = await runCli(['section', 'quarantine', 'list', '--json', ...flags], { env: { T: TOKEN } });
    expect(list.json()).toEqual([expect.objectContaining({ id: '99.1', version: q, base: tip })]);
    const promoted = await runCli(['section', 'quarantine', 'promote', '99.1', ...flags], { env: { T: TOKEN } });
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(tipOf('refs/docdb/cycle')).toBe(q);
    const docs = await runCli(['doc', 'list', '--namespace', 'data', '--type', 'rows', '--json', ...flags], {
      env: { T: TOKEN },
    });
    expect((docs.json() as { documents: { id: string }[] }).documents.map((d) => d.id)).toEqual([
      'k0',
      'k1',
      'k2',
      'k3',
    ]);
  });
});

describe('docdb section quarantine', () => {
  it('list, a refused promote after the section moved, promote, drop', async () => {
    const docs = new DocumentStore(storeOn(SECTION));
    await docs.put({ namespace: 'n', type: 't', id: 'a', data: 1 });
    const base = tipOf(SECTION)!;
    const q1 = await quarantine('4711.1', 1);
    expect(q1.ref).toBe('refs/docdb/documents.quarantine/4711.1');

    const listed = await cli(['section', 'quarantine', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: '4711.1',
        ref: q1.ref,
        version: q1.version,
        base,
        subject: 'docdb: project (quarantined 1)',
      }),
    ]);
    const text = await cli(['section', 'quarantine', 'list']);
    expect(text.stdout).toMatch(new RegExp(`^4711\\.1\\t${q1.version}\\tbase ${base.slice(0, 7)}\\t\\d{4}-`));

    // The section moves: promoting would drop that write, so it is refused and nothing moves.
    await docs.put({ namespace: 'n', type: 't', id: 'b', data: 2 });
    const moved = tipOf(SECTION)!;
    const refused = await cli(['section', 'quarantine', 'promote', '4711.1']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(
      new RegExp(
        `cannot promote quarantine 4711\\.1: it was computed on ${base}, and ${SECTION} has moved to ${moved} since`,
      ),
    );
    expect(tipOf(SECTION)).toBe(moved);
    expect(tipOf(q1.ref)).toBe(q1.version);

    // A quarantine computed on the current tip is promoted: the section is that commit, its ref is gone.
    const q2 = await quarantine('4712.1', 2);
    const promoted = await cli(['section', 'quarantine', 'promote', '4712.1', '--json']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.json()).toEqual({ from: moved, to: q2.version, ref: q2.ref });
    expect(tipOf(SECTION)).toBe(q2.version);
    expect(tipOf(q2.ref)).toBeUndefined();
    expect((await docs.get({ namespace: 'n', doc_type: 't', id: 'q2' }))?.data).toEqual({ n: 2 });

    // Drop deletes the ref and nothing else.
    const dropped = await cli(['section', 'quarantine', 'drop', '4711.1']);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(tipOf(q1.ref)).toBeUndefined();
    expect(tipOf(SECTION)).toBe(q2.version);
    const none = await cli(['section', 'quarantine', 'list', '--json']);
    expect(none.json()).toEqual([]);
    const gone = await cli(['section', 'quarantine', 'drop', '4711.1']);
    expect(gone.code).toBe(3);
    expect(gone.stderr).toMatch(/no quarantine "4711\.1" for refs\/docdb\/documents/);
  });

  it.each([
    [['section', 'quarantine'], /an action is required: list, promote ID or drop ID/],
    [['section', 'quarantine', 'keep'], /"keep" is not an action/],
    [['section', 'quarantine', 'promote'], /promote needs the quarantine id/],
    [['section', 'quarantine', 'drop', '../x'], /"..\/x" is not a quarantine id/],
    [['section', 'quarantine', 'list', 'x'], /list takes no id/],
  ])('%j is a usage error before any request', async (args, message) => {
    em.clearLog();
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests).toEqual([]);
  });

  it('a local git section is a usage error naming --refstore', async () => {
    const r = await runCli(['section', 'quarantine', 'list', '--refstore', 'git', '--git-dir', '/nonexistent'], {
      env: {},
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--refstore api/);
  });
});
