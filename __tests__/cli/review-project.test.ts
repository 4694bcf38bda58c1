/**
 * `docdb project --mode review --pull-request N` (issue 39): the Action's review from a terminal — the pull
 * request's head and head repository from `GET pulls/N`, the dry run against the section tip, the preview
 * ref, the sticky comment and the check run; plain text on stdout; the section never moves. Usage errors
 * (no --pull-request, a bad number) exit 2 naming the flag before any request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { workspace } from '../action/run-dist.js';
import { runCli } from './run-cli.js';

const TOKEN = 'ghs_CliReviewToken0123456789abcdefabcdef';
const REPO = 'octo/cli-review';
const HEAD = '9'.repeat(40);
let em: EmulatorHandle;

beforeAll(async () => {
  await import('../../src/cli/commands/project.js');
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', bot: true, rateLimit: 1_000_000 });
  em.state.addPull(REPO, { title: 'Trim', head: 'trim', headSha: HEAD });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
`;
const csv = (n: number) => `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}`).join('\n')}\n`;
const env = () => ({ GITHUB_TOKEN: TOKEN, GITHUB_API_URL: em.url });
const project = (cwd: string, args: string[]) =>
  runCli(['project', '--repo', REPO, '--section', 'cli', ...args], { env: env(), cwd });
const tipOf = (ref: string) => em.state.repo(REPO).db.readRef(ref) ?? null;

describe('docdb project --mode review', () => {
  it('reviews pull request N: preview, comment, check run; plain text; the section untouched', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(5) });
    expect((await project(cwd, [])).code).toBe(0);
    const tip = tipOf('refs/docdb/cli');
    writeFileSync(join(cwd, 'rows.csv'), csv(4));
    const r = await project(cwd, ['--mode', 'review', '--pull-request', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(tipOf('refs/docdb/cli')).toBe(tip);
    const preview = tipOf('refs/docdb/cli.previews/pr-1');
    expect(r.stdout).toMatch(/^docdb review: pull request #1 against refs\/docdb\/cli \(tip \w{7}\): neutral$/m);
    expect(r.stdout).toMatch(/^ {2}data\/rows {2}0 added, 0 modified, 1 removed$/m);
    expect(r.stdout).toContain(`preview refs/docdb/cli.previews/pr-1 at ${preview}`);
    expect(r.stdout).toMatch(/^comment: created$/m);
    expect(r.stdout).toMatch(/^check: created$/m);
    expect(r.stdout).not.toMatch(/<code>|\|---/);
    const comments = (await (
      await fetch(`${em.url}/repos/${REPO}/issues/1/comments`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { body: string }[];
    expect(comments).toHaveLength(1);
    const runs = (await (
      await fetch(`${em.url}/repos/${REPO}/commits/${HEAD}/check-runs`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
    ).json()) as { check_runs: { name: string }[] };
    expect(runs.check_runs.map((c) => c.name)).toEqual(['docdb: cli']);
  });

  it.each([
    [['--mode', 'review'], /--mode review needs --pull-request N/],
    [['--mode', 'review', '--pull-request', '0'], /--pull-request: "0" is not a pull request number/],
  ])('%j is a usage error (exit 2) before any request', async (args, message) => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(1) });
    em.clearLog();
    const r = await project(cwd, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(em.requests).toEqual([]);
  });
});
