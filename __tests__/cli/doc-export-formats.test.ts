/**
 * `docdb doc export --format jsonl|json|csv` (issue 28 item 4): one JSON array, or CSV with a header and
 * `--fields` columns (RFC 4180 quoting; objects and arrays as their JSON text) on stdout and in --out FILE
 * (CRLF there; stdout is made inert, so a plain newline); bad flags are usage errors naming the flag.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../git/helpers.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghp_CliExportFormatToken0123456789abcdef';
const REPO = 'octo/export-formats';
let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let flags: string[];
const env = { T: TOKEN };

beforeAll(async () => {
  em = await startEmulator();
  em.state.addToken(TOKEN, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  em.state.createRepo(REPO);
  const doc = (id: string, data: unknown) =>
    `${JSON.stringify({ data, id, namespace: 'github', type: 'repo' }, null, 2)}\n`;
  em.state.commitFiles(REPO, {
    branch: 'refs/docdb/documents',
    files: {
      'README.md': null,
      'github/repo/a.json': doc('a', { name: 'say "hi", twice', stars: 3, topics: ['cli', 'web'] }),
      'github/repo/b.json': doc('b', { name: 'two\nlines', stars: null }),
    },
  });
  flags = ['--repo', REPO, '--api-url', em.url, '--token-env', 'T'];
  tmp = tempDir('docdb-export-formats-');
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

describe('docdb doc export --format', () => {
  it('json: one array of the envelopes', async () => {
    const r = await runCli(['doc', 'export', '--format', 'json', ...flags], { env });
    expect(r.code, r.stderr).toBe(0);
    const all = JSON.parse(r.stdout) as { id: string; data: unknown; version: string }[];
    expect(all.map((e) => e.id)).toEqual(['a', 'b']);
    expect(all[1]?.data).toEqual({ name: 'two\nlines', stars: null });
  });

  it('csv on stdout: the default columns, data as JSON text, quoted per RFC 4180', async () => {
    const r = await runCli(['doc', 'export', '--format', 'csv', ...flags], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('namespace,type,id,version,data');
    expect(lines[1]).toMatch(
      /^github,repo,a,[0-9a-f]{40},"\{""name"":""say \\""hi\\"", twice"",""stars"":3,""topics"":\[""cli"",""web""\]\}"$/,
    );
    expect(r.stdout).not.toContain('\r');
  });

  it('csv --fields picks the columns; in --out FILE records end with CRLF', async () => {
    const out = join(tmp.dir, 'repos.csv');
    const r = await runCli(
      ['doc', 'export', '--format', 'csv', '--fields', 'id,data.name,data.stars,data.topics', '--out', out, ...flags],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(
      'id,data.name,data.stars,data.topics\r\n' +
        'a,"say ""hi"", twice",3,"[""cli"",""web""]"\r\n' +
        'b,"two\nlines",null,\r\n',
    );
  });

  it.each([
    [['--format', 'xml'], '--format "xml" is not a format: use jsonl, json, csv'],
    [['--fields', 'id'], '--fields picks CSV columns: it needs --format csv'],
    [['--format', 'csv', '--fields', 'id,stars'], '--fields "stars" is not a column'],
    [['--format', 'csv', '--fields', 'id,data.'], '--fields "data." is not a column'],
    [['--format', 'json', '--dir', 'x'], '--format applies to stdout and --out'],
  ])('%j is a usage error naming the flag', async (args, message) => {
    const r = await runCli(['doc', 'export', ...args, ...flags], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
  });
});
