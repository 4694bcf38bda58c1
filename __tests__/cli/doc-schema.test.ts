/**
 * `docdb doc schema` (issue 38) on a local git store: --set declares (one commit; the same schema again: none),
 * prints it (text and --json), refuses a schema documents already break — listing them — unless --force,
 * --drop removes it; `doc put` of a document breaking it is refused naming the key, pointer and rule (never the
 * value), nothing written. Usage errors exit 2 naming the flag, the reserved namespace included.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRepo, GIT_TEST_ENV, tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

let tmp: ReturnType<typeof tempDir>;
let n = 0;
beforeAll(() => {
  tmp = tempDir('docdb-cli-schema-');
});
afterAll(() => tmp?.cleanup());

const TYPE = ['--namespace', 'github', '--type', 'repo'];
const SCHEMA = { type: 'object', required: ['stars'], properties: { stars: { type: 'integer', minimum: 0 } } };
const env = GIT_TEST_ENV;

function section(): string[] {
  return ['--refstore', 'git', '--git-dir', bareRepo(tmp.dir, `schema-${++n}.git`)];
}
function file(name: string, value: unknown): string {
  const path = join(tmp.dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}
const put = (flags: string[], id: string, data: unknown) =>
  runCli(['doc', 'put', ...TYPE, '--id', id, '--data', JSON.stringify(data), ...flags], { env });

describe('docdb doc schema', () => {
  it('declares, prints, declares nothing new the second time, refuses a bad put, drops', async () => {
    const flags = section();
    expect((await put(flags, 'o/a', { stars: 1 })).code).toBe(0);
    const set = await runCli(['doc', 'schema', ...TYPE, '--set', file('s.json', SCHEMA), ...flags], { env });
    expect(set.code).toBe(0);
    expect(set.stderr).toMatch(/^schema github\/repo: new version [0-9a-f]{7}/);
    const again = await runCli(['doc', 'schema', ...TYPE, '--set', file('s.json', SCHEMA), ...flags], { env });
    expect(again.stderr).toMatch(/unchanged, no commit/);
    const shown = await runCli(['doc', 'schema', ...TYPE, ...flags], { env });
    expect(JSON.parse(shown.stdout)).toEqual(SCHEMA);
    const json = await runCli(['doc', 'schema', ...TYPE, '--json', ...flags], { env });
    expect(JSON.parse(json.stdout)).toEqual({ namespace: 'github', type: 'repo', schema: SCHEMA });

    const bad = await put(flags, 'o/b', { stars: 'hunter2-secret' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /InvalidDocument: .*github\/repo\/o\/b\.json \/data\/stars breaks "type" \(found string/,
    );
    expect(bad.stderr + bad.stdout).not.toContain('hunter2-secret');
    const list = await runCli(['doc', 'list', ...TYPE, '--json', ...flags], { env });
    expect(list.stdout).not.toContain('o/b');

    const dropped = await runCli(['doc', 'schema', ...TYPE, '--drop', ...flags], { env });
    expect(dropped.stderr).toMatch(/^drop schema github\/repo: new version/);
    expect((await runCli(['doc', 'schema', ...TYPE, ...flags], { env })).stdout).toBe(
      '# no schema declared for github/repo (declare one with --set FILE)\n',
    );
    expect((await put(flags, 'o/b', { stars: 'now allowed' })).code).toBe(0);
  });

  it('documents already breaking it: refused (exit 2) listing them, naming --force; --force declares', async () => {
    const flags = section();
    await put(flags, 'o/a', { stars: -3 });
    const path = file('strict.json', SCHEMA);
    const refused = await runCli(['doc', 'schema', ...TYPE, '--set', path, '--json', ...flags], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/github\/repo\/o\/a\.json \/data\/stars breaks "minimum".*--force/);
    const error = JSON.parse(refused.stdout).error;
    expect(error.data).toMatchObject({
      count: 1,
      violations: [{ key: 'github/repo/o/a.json', pointer: '/data/stars' }],
    });
    const forced = await runCli(['doc', 'schema', ...TYPE, '--set', path, '--force', ...flags], { env });
    expect(forced.code).toBe(0);
  });

  it.each([
    [['doc', 'schema', '--type', 'repo'], '--namespace'],
    [['doc', 'schema', '--namespace', 'github'], '--type'],
    [['doc', 'schema', ...TYPE, '--set', 'x.json', '--drop'], '--drop'],
    [['doc', 'schema', ...TYPE, '--force'], '--force'],
    [['doc', 'schema', ...TYPE, '--drop', '--version', 'abcd'], '--version'],
    [['doc', 'schema', '--namespace', '_docdb', '--type', 'repo'], '--namespace'],
    [['doc', 'schema', ...TYPE, '--set', 'missing.json'], '--set'],
  ])('usage error %j names %s (exit 2, nothing read or written)', async (args, flag) => {
    const r = await runCli([...args, ...section()], { env, cwd: tmp.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
  });

  it('a file that is not JSON, not an object, or not valid JSON Schema: exit 2 naming --set', async () => {
    const flags = section();
    for (const [name, text] of [
      ['broken.json', '{ nope'],
      ['array.json', '[1]'],
      ['invalid.json', '{ "type": "integr" }'],
    ] as const) {
      const r = await runCli(['doc', 'schema', ...TYPE, '--set', file(name, text), ...flags], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--set');
    }
  });
});
