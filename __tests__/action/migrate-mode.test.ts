/**
 * `mode: migrate`, run in-process with runAction (the code dist/index.js bundles) against the emulator:
 * the operations as a YAML list applied in order, the outputs (version, counts), the dry run writing
 * nothing, and the inputs checked before any request naming `operations` and the item.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { InvalidConfig } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghp_action_migrate_token';
const REF = 'refs/docdb/documents';
let em: EmulatorHandle;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

/** A repository whose section holds 7 gh/repo documents. */
function seeded(): string {
  const repo = `octo/migrate-${++n}`;
  em.state.createRepo(repo);
  const files: Record<string, string> = {};
  for (let i = 0; i < 7; i++) {
    files[`gh/repo/r${i}.json`] =
      `${JSON.stringify({ namespace: 'gh', type: 'repo', id: `r${i}`, data: { old: i, n: String(i) } })}\n`;
  }
  em.state.commitFiles(repo, { branch: REF, orphan: true, files });
  return repo;
}

const inputs = (repo: string, extra: Record<string, string>) => {
  const given: Record<string, string> = {
    token: TOKEN,
    'api-url': em.url,
    repository: repo,
    mode: 'migrate',
    namespace: 'gh',
    type: 'repo',
    ...extra,
  };
  return readInputs((name) => given[name] ?? '');
};

const OPERATIONS = `- drop: data.a
- rename: data.old=data.a
- cast: data.n=number
- set: data.source=api
`;

describe('mode: migrate', () => {
  it('applies the YAML list in order in one commit; outputs version, previous-version, changed and counts', async () => {
    const repo = seeded();
    const before = em.state.repo(repo).db.readRef(REF);
    const r = await runAction(inputs(repo, { operations: OPERATIONS }));
    expect(r.outputs).toMatchObject({ changed: 'true', 'previous-version': before, written: '7', unchanged: '0' });
    expect(JSON.parse(r.outputs.counts!)).toEqual({ read: 7, changed: 7, unchanged: 0, moved: 0 });
    const db = em.state.repo(repo).db;
    expect(r.outputs.version).toBe(db.readRef(REF));
    const tip = db.getCommit(r.outputs.version!);
    expect(tip.parents).toEqual([before]);
    expect(tip.message).toContain('Docdb-Migration: [{"op":"drop","field":"data.a"},{"op":"rename"');
    expect(r.summary).toMatch(/\| 7 \| 7 \| 0 \| 0 \|/);
    // Casting and setting again changes nothing: no commit.
    const again = await runAction(inputs(repo, { operations: '- cast: data.n=number\n- set: data.source=api' }));
    expect(again.outputs).toMatchObject({ changed: 'false', version: r.outputs.version, unchanged: '7' });
  });

  it('dry-run: true reports counts and samples in the summary and writes nothing', async () => {
    const repo = seeded();
    const before = em.state.repo(repo).db.readRef(REF);
    const from = em.requests.length;
    const r = await runAction(inputs(repo, { operations: '- move-type: hub/project', 'dry-run': 'true' }));
    expect(r.outputs).toMatchObject({ changed: 'false', version: before, written: '0', deleted: '0' });
    expect(JSON.parse(r.outputs.counts!)).toEqual({ read: 7, changed: 0, unchanged: 0, moved: 7 });
    expect(r.summary).toContain('gh/repo/r0.json -> hub/project/r0.json');
    expect(r.summary).toContain('The first 5 changed document(s)');
    expect(em.state.repo(repo).db.readRef(REF)).toBe(before);
    expect(em.requests.slice(from).filter((q) => q.method !== 'GET' && q.operation !== 'graphql')).toEqual([]);
  });

  it('schema: a JSON file in the workspace, declared in the migration commit', async () => {
    const repo = seeded();
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } };
    const cwd = workspace({ 'schemas/repo.json': JSON.stringify(schema) });
    const r = await runAction(inputs(repo, { operations: '- rename: data.old=data.a', schema: 'schemas/repo.json' }), {
      workspace: cwd,
    });
    expect(r.outputs.changed).toBe('true');
    const section = new RemoteApiRefStore({
      transport: fetchTransport({ timeoutMs: 0 }),
      apiUrl: em.url,
      owner: 'octo',
      repo: repo.slice('octo/'.length),
      token: TOKEN,
    });
    expect(
      await new DocumentStore(section).schema({ namespace: 'gh', type: 'repo' }, { version: r.outputs.version! }),
    ).toEqual(schema);
  });

  it('a schema file outside the workspace is refused naming the input', async () => {
    const repo = seeded();
    const cwd = workspace({});
    const outside = join(cwd, '..', `schema-${n}.json`);
    writeFileSync(outside, '{}');
    symlinkSync(outside, join(cwd, 'link.json'));
    const err = await runAction(inputs(repo, { operations: '- drop: data.n', schema: 'link.json' }), {
      workspace: cwd,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InvalidConfig);
    expect(err.message).toMatch(/input "schema": link\.json is not a file inside the workspace/);
  });

  it.each([
    [{}, /input "operations": is required with mode: migrate/],
    [{ operations: 'rename: data.a=data.b' }, /input "operations": must be a YAML list/],
    [{ operations: '- rename: data.a' }, /input "operations": item 1: .*has no "="/],
    [{ operations: '- drop: data.x\n- frob: data.y' }, /input "operations": item 2 .* is not one operation/],
    [{ operations: '- cast: data.n=date' }, /input "operations": item 1: cannot cast to "date"/],
    [{ operations: '- move-type: gh/repo' }, /input "operations": move-type gh\/repo is the type being migrated/],
    [{ operations: '- drop: data.x', 'dry-run': 'yes' }, /input "dry-run": "yes" must be true or false/],
  ])('%j is refused before any request, naming the input', (extra, message) => {
    const from = em.requests.length;
    expect(() => inputs('octo/none', extra)).toThrow(message);
    expect(em.requests.length).toBe(from);
  });

  it('migrate inputs in another mode, and a migrate without namespace/type, are refused', () => {
    expect(() => inputs('octo/none', { mode: 'project', operations: '- drop: data.x' })).toThrow(
      /input "operations": only applies to mode: migrate/,
    );
    expect(() => inputs('octo/none', { type: '', operations: '- drop: data.x' })).toThrow(
      /input "type": is required with mode: migrate/,
    );
  });
});
