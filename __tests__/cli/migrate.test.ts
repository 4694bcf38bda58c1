/**
 * `docdb migrate` against the emulator (issue 38, Migrations): the operation flags applied in the order
 * given ACROSS flags, one commit whose trailer `doc history` shows, the dry run's counts and capped samples
 * with no write request, and usage errors (exit 2) naming the flag before any request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliMigrateTestToken0123456789abcdefA';
const env = { T: TOKEN };
const TYPE = ['--namespace', 'gh', '--type', 'repo'];
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let n = 0;

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  tmp = tempDir('docdb-cli-migrate-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** A repository whose section holds `count` gh/repo documents; its store flags. */
async function seeded(count: number): Promise<string[]> {
  const repo = `octo/migrate-${++n}`;
  em.state.createRepo(repo);
  const flags = ['--repo', repo, '--api-url', em.url, '--token-env', 'T'];
  for (let i = 0; i < count; i++) {
    const data = { old: i, stars: String(i), long: 'y'.repeat(300) };
    const put = await runCli(['doc', 'put', ...TYPE, '--id', `r${i}`, '--data', JSON.stringify(data), ...flags], {
      env,
    });
    expect(put.code, put.stderr).toBe(0);
  }
  return flags;
}

describe('docdb migrate', () => {
  it('applies the flags in the order given across flags, in one commit that doc history shows', async () => {
    const flags = await seeded(2);
    // --drop data.a first, then the renames: by kind (renames, then drops) data.a would be dropped too.
    const r = await runCli(
      [
        'migrate',
        ...TYPE,
        '--drop',
        'data.a',
        '--rename',
        'data.old=data.a',
        '--rename',
        'data.stars=data.b',
        ...flags,
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    expect(r.stderr).toMatch(/migrate gh\/repo: 2 read, 2 changed, 0 unchanged, 0 moved; new version/);
    const got = await runCli(['doc', 'get', 'gh/repo/r1', '--data-only', ...flags], { env });
    expect(JSON.parse(got.stdout)).toEqual({ a: 1, b: '1', long: 'y'.repeat(300) });
    const history = await runCli(['doc', 'history', 'gh/repo/r1', ...flags, '--json'], { env });
    const entries = (history.json() as { entries: { version: string; message: string }[] }).entries;
    expect(entries[0]!.version).toBe(r.stdout.trim());
    expect(entries[0]!.message).toContain(
      'Docdb-Migration: [{"op":"drop","field":"data.a"},{"op":"rename","from":"data.old","to":"data.a"},{"op":"rename","from":"data.stars","to":"data.b"}]',
    );
    const text = await runCli(['doc', 'history', 'gh/repo/r1', ...flags], { env });
    expect(text.stdout.split('\n')[0]).toContain(
      'migrate gh/repo: drop data.a, rename data.old=data.a, rename data.stars=data.b',
    );
  });

  it('--dry-run prints counts and samples with long values cut, and sends no write request', async () => {
    const flags = await seeded(7);
    const from = em.requests.length;
    const tip = em.state.repo(`octo/migrate-${n}`).db.readRef('refs/docdb/documents');
    const r = await runCli(
      ['migrate', ...TYPE, '--cast', 'data.stars=number', '--set', 'data.tag=x', '--dry-run', ...flags],
      {
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /# dry run of migrate gh\/repo at [0-9a-f]{7}: 7 read, 7 changed, 0 unchanged, 0 moved; nothing written/,
    );
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(15); // 5 samples of 3 lines
    expect(lines[0]).toBe('gh/repo/r0.json');
    expect(lines[2]).toContain('"stars":0');
    expect(lines[2]).toContain('"tag":"x"');
    expect(lines[2]).toContain('… (221 more)');
    expect(lines[2]).not.toContain('y'.repeat(100));
    // Reads only: GET, and GraphQL's POST of blob batches (a query, not a mutation).
    expect(em.requests.slice(from).filter((q) => q.method !== 'GET' && q.operation !== 'graphql')).toEqual([]);
    expect(em.state.repo(`octo/migrate-${n}`).db.readRef('refs/docdb/documents')).toBe(tip);
    const json = await runCli(['migrate', ...TYPE, '--drop', 'data.long', '--dry-run', '--json', ...flags], { env });
    expect(json.json()).toMatchObject({ dryRun: true, changed: false, counts: { read: 7, changed: 7 } });
  });

  it('--schema reads a JSON file; --move-type moves the documents', async () => {
    const flags = await seeded(1);
    const bad = join(tmp.dir, 'bad.json');
    writeFileSync(bad, '[1]');
    const refused = await runCli(['migrate', ...TYPE, '--drop', 'data.x', '--schema', bad, ...flags], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--schema .*bad\.json: a JSON Schema is a JSON object/);
    const good = join(tmp.dir, 'good.json');
    const schema = { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } };
    writeFileSync(good, JSON.stringify(schema));
    const declared = await runCli(['migrate', ...TYPE, '--rename', 'data.old=data.count', '--schema', good, ...flags], {
      env,
    });
    expect(declared.code, declared.stderr).toBe(0);
    const shown = await runCli(['doc', 'schema', ...TYPE, '--json', ...flags], { env });
    expect(shown.json()).toMatchObject({ schema });
    const moved = await runCli(['migrate', ...TYPE, '--move-type', 'hub/project', ...flags], { env });
    expect(moved.code, moved.stderr).toBe(0);
    const list = await runCli(['doc', 'list', '--namespace', 'hub', ...flags], { env });
    expect(list.stdout.trim()).toBe('hub/project/r0');
  });

  it.each([
    [[], /--namespace and --type are required/, '--namespace'],
    [[...TYPE], /give at least one operation/, '--rename'],
    [[...TYPE, '--rename', 'data.a'], /--rename: "data.a" has no "="/, '--rename'],
    [
      [...TYPE, '--drop', 'data.x', '--cast', 'data.n=date'],
      /--cast data.n=date: cannot cast to "date" \(allowed: number, string, boolean\)/,
      '--cast',
    ],
    [[...TYPE, '--drop', 'stars'], /--drop stars: must be a field of data/, '--drop'],
    [
      [...TYPE, '--move-type', 'gh/repo'],
      /--move-type gh\/repo: move-type gh\/repo is the type being migrated/,
      '--move-type',
    ],
    [[...TYPE, '--move-type', 'a/b/c'], /--move-type: "a\/b\/c" is not NAMESPACE\/TYPE/, '--move-type'],
  ])('%j is a usage error (exit 2) naming the flag, before any request', async (args, message, flag) => {
    const from = em.requests.length;
    const r = await runCli(
      ['migrate', ...args, '--repo', 'octo/none', '--api-url', em.url, '--token-env', 'T', '--json'],
      {
        env,
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(JSON.stringify(r.json())).toContain(flag);
    expect(em.requests.length).toBe(from);
  });
});
