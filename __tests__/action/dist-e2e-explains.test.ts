/**
 * End-to-end, through the BUILT dist/index.js run as a runner runs it: the Action refuses what it must
 * (files outside the workspace, stuck reducers, broken modules — before any request), explains failures in
 * terms of its inputs and as annotations on spec lines, groups its log, reports `verified`, keeps the job
 * summary inert, never commits when it could not report, and two identical runs never both claim a change.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SEED, type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { tempDir } from '../temp-dir.js';
import { ACTION_RUN_MS, type DistRun, inputsFor, runDist, workspace } from './run-dist.js';

const TARGET = 'octo-org/widgets';
const WRITE = 'ghp_demo_write';
const BOT = 'ghs_actions_bot';
let em: EmulatorHandle;

/** Every failure message any run of this file printed (`::error …::message`), for the double-period scan. */
const errorLines: string[] = [];

async function dist(inputs: Record<string, string>, opts: Parameters<typeof runDist>[1]): Promise<DistRun> {
  const r = await runDist(inputs, opts);
  for (const line of r.stdout.split('\n')) if (line.startsWith('::error')) errorLines.push(line);
  return r;
}

const inputs = inputsFor(() => ({ token: WRITE, api: em.url, repository: TARGET }));

const REPOS = `projections:
  repos:
    source: { type: repository, repositories: [octo-org/widgets] }
`;

const tip = (section: string, repo = TARGET) => em.state.repo(repo).db.readRef(`refs/docdb/${section}`);

beforeAll(async () => {
  em = await startEmulator({ seed: DEMO_SEED });
  em.state.addToken(BOT, { login: 'octo-org', repos: '*' });
});
afterAll(async () => {
  await em?.stop();
});

describe('the Action confines what it runs to the workspace', () => {
  it('refuses a spec outside the workspace (/etc/passwd, "..", a symbolic link) before any request', async () => {
    const top = tempDir('docdb-confine-');
    const cwd = join(top, 'ws');
    mkdirSync(join(cwd, '.github'), { recursive: true });
    writeFileSync(join(top, 'outside.yml'), REPOS);
    symlinkSync(join(top, 'outside.yml'), join(cwd, '.github', 'docdb.yml'));
    for (const spec of ['/etc/passwd', '../outside.yml', '.github/docdb.yml']) {
      em.clearLog();
      const r = await dist(inputs('confine', { spec }), { cwd });
      expect(r.code, spec).toBe(1);
      expect(r.stdout, spec).toMatch(
        /::error::projection spec .* resolves to .*, outside the workspace .*; the "spec" input must name a file inside the workspace/,
      );
      expect(em.requests, spec).toEqual([]);
    }
    expect(tip('confine')).toBeUndefined();
  });

  it('refuses reducer modules outside the workspace, as an annotation on the reducer line, with 0 requests', async () => {
    const top = tempDir('docdb-confine-');
    const cwd = join(top, 'ws');
    writeFileSync(join(top, 'outside.mjs'), 'export default () => ({ pwned: true });\n');
    for (const mod of [join(top, 'outside.mjs'), '../../outside.mjs']) {
      mkdirSync(join(cwd, '.github'), { recursive: true });
      writeFileSync(
        join(cwd, '.github', 'docdb.yml'),
        `projections:\n  evil:\n    source: { type: issues, repositories: [octocat/hello-world] }\n    reducer: { module: ${JSON.stringify(mod)} }\n`,
      );
      em.clearLog();
      const r = await dist(inputs('confine-reducer'), { cwd });
      expect(r.code, mod).toBe(1);
      expect(r.stdout).toMatch(
        /::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=4::.*reducer module .* outside the workspace/,
      );
      expect(em.requests).toEqual([]);
    }
    expect(tip('confine-reducer')).toBeUndefined();
  });
});

describe('reducers that hang or do not load', () => {
  it('a busy loop is stopped after reducer-timeout and names the projection and its spec line', async () => {
    const cwd = workspace({
      '.github/docdb.yml':
        'projections:\n  repos:\n    source: { type: repository, repositories: [octo-org/widgets] }\n  slow:\n    source: { type: issues, repositories: [octocat/hello-world] }\n    reducer:\n      module: ./busy.mjs\n',
      '.github/busy.mjs': 'export default () => { for (;;) {} };\n',
    });
    const r = await dist(inputs('busy', { 'reducer-timeout': '1' }), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=7::.*projections\.slow\.reducer \(projection "slow"\) did not return within 1 s on github\/issue\/octocat\/hello-world#1\.json and was stopped/,
    );
    expect(r.stdout).toMatch(/"reducer-timeout" input/);
    expect(tip('busy')).toBeUndefined();
    const bad = await dist(inputs('busy', { 'reducer-timeout': '0' }), { cwd });
    expect(bad.stdout).toMatch(
      /::error::input "reducer-timeout": "0" must be a whole number of seconds from 1 to 3600/,
    );
  });

  it('a module with a syntax error fails before any request (empty emulator log)', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `${REPOS}  broken:\n    source: { type: issues, repositories: [octocat/hello-world] }\n    reducer: { module: ./broken.mjs }\n`,
      '.github/broken.mjs': 'export default (i) => {\n',
    });
    em.clearLog();
    const r = await dist(inputs('broken'), { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /line=6::.*projections\.broken\.reducer\.module: cannot load reducer module \.\/broken\.mjs/,
    );
    expect(em.requests).toEqual([]);
  });
});

describe('failures explain themselves', () => {
  it('every spec problem is an annotation on its line; an alias bomb too', async () => {
    const cwd = workspace({
      '.github/docdb.yml':
        'projections:\n  a:\n    source: { type: nope }\n  b:\n    source: { type: issues, repositories: [o/r] }\n    prune: maybe\n',
    });
    const r = await dist(inputs('spec-annotations'), { cwd });
    expect(r.code).toBe(1);
    const marks = r.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(marks).toHaveLength(2);
    expect(marks[0]).toMatch(
      /^::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=3,col=\d+::/,
    );
    expect(marks[1]).toMatch(
      /^::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=6,col=\d+::/,
    );
    const bomb = workspace({
      '.github/docdb.yml': `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n${REPOS}`,
    });
    const b = await dist(inputs('spec-annotations'), { cwd: bomb });
    expect(b.stdout).toMatch(
      /::error title=docdb%3A invalid projection spec,file=\.github\/docdb\.yml,line=2,col=\d+::.*Excessive alias count/,
    );
  });

  it('one log group per projection, and a debug line per request', async () => {
    const cwd = workspace({
      '.github/docdb.yml': `${REPOS}  rel:\n    source: { type: releases, repositories: [octo-org/widgets] }\n`,
    });
    em.clearLog();
    const r = await dist(inputs('groups'), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout.match(/^::group::projection (\w+)$/gm)).toEqual([
      '::group::projection repos',
      '::group::projection rel',
    ]);
    expect(r.stdout.match(/^::endgroup::$/gm)).toHaveLength(2);
    const debug = r.stdout.split('\n').filter((l) => l.startsWith('::debug::'));
    expect(debug).toHaveLength(em.requests.length);
    expect(debug[0]).toMatch(new RegExp(`^::debug::GET ${em.url}/repos/${TARGET}/git/ref/docdb/groups → 404$`));
    expect(r.stdout.replace(`::add-mask::${WRITE}`, '')).not.toContain(WRITE);
  });

  it('messages name the Action inputs, never library options; the empty-repository hint is said once', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS });
    const http = await dist(inputs('names', { 'api-url': 'http://ghe.example.com/api/v3' }), { cwd });
    expect(http.code).toBe(1);
    expect(http.stdout).toMatch(/::error::input "api-url": .* uses plain http to a remote host/);
    expect(http.stdout).not.toMatch(/allowInsecureHttp/);
    const empty = await dist(inputs('names', { repository: 'octocat/empty' }), { cwd });
    expect(empty.code).toBe(1);
    const line = empty.stdout.split('\n').find((l) => l.startsWith('::error'))!;
    expect(line).toMatch(/octocat\/empty is empty/);
    expect(line.match(/push/gi)).toHaveLength(1);
    expect(line.match(/empty/gi)).toHaveLength(2); // "octocat/empty is empty", said once
  });

  it('read mode tells a missing section, a missing document and an invisible repository apart', {
    timeout: 6 * ACTION_RUN_MS,
  }, async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS });
    const read = (extra: Record<string, string>) =>
      dist(inputs('read-why', { mode: 'read', namespace: 'github', type: 'repo', id: 'octo-org/widgets', ...extra }), {
        cwd,
      });
    const noSection = await read({});
    expect(noSection.code).toBe(1);
    expect(noSection.stdout).toMatch(/::error::section refs\/docdb\/read-why does not exist in octo-org\/widgets/);
    await dist(inputs('read-why'), { cwd });
    const noDoc = await read({ id: 'octo-org/nothing' });
    expect(noDoc.stdout).toMatch(/::error::document github\/repo\/octo-org\/nothing not found .*the section exists/);
    const hidden = await read({ repository: 'octo-org/secret-plans', token: 'ghp_demo_read' });
    // ghp_demo_read can see secret-plans: a missing section there, not an invisible repository.
    expect(hidden.stdout).toMatch(/section refs\/docdb\/read-why does not exist in octo-org\/secret-plans/);
    const invisible = await read({ repository: 'octo-org/no-such-repo' });
    expect(invisible.stdout).toMatch(/::error::repository octo-org\/no-such-repo is not visible/);
    const ok = await read({});
    expect(ok.code, ok.stdout).toBe(0);
  });
});

describe('outputs and summary', () => {
  it('the job summary escapes Markdown and HTML from source data', async () => {
    const tag = 'v1`</details><img src=x onerror=alert(1)>';
    em.state.addRelease(TARGET, { tagName: tag, name: '<b>bold</b> | pipe' });
    const cwd = workspace({
      '.github/docdb.yml': 'projections:\n  rel:\n    source: { type: releases, repositories: [octo-org/widgets] }\n',
    });
    const r = await dist(inputs('summary-escape'), { cwd });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.outputs.keys!)).toContain(`github/release/octo-org/widgets@${tag}.json`);
    expect(r.summary).not.toContain('<img');
    expect(r.summary).not.toContain('`</details>');
    // Exactly the one <details> block the summary opens, closed once.
    expect(r.summary.match(/<\/details>/g)).toHaveLength(1);
    expect(r.summary).toContain(
      '<code>github/release/octo-org/widgets@v1&#96;&#60;/details&#62;&#60;img src=x onerror=alert&#40;1&#41;&#62;.json</code>',
    );
  });

  it('verified: true for a commit GitHub signed (installation token, no author), false otherwise', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS });
    const bot = await dist(inputs('verified-bot', { token: BOT }), { cwd });
    expect(bot.code, bot.stdout).toBe(0);
    expect(bot.outputs.changed).toBe('true');
    expect(bot.outputs.verified).toBe('true');
    expect(bot.summary).toContain('verified (signed by GitHub)');
    const user = await dist(inputs('verified-user'), { cwd });
    expect(user.outputs.verified).toBe('false');
    expect(user.summary).toContain('not verified (unsigned)');
    const again = await dist(inputs('verified-user'), { cwd });
    expect(again.outputs.changed).toBe('false');
    expect(again.outputs.verified).toBe('');
  });

  it('a GITHUB_OUTPUT that cannot be written fails before the commit', async () => {
    const cwd = workspace({ '.github/docdb.yml': REPOS });
    const dir = tempDir('docdb-ro-');
    chmodSync(dir, 0o500);
    for (const output of [join(dir, 'missing', 'output'), dir]) {
      em.clearLog();
      const r = await dist(inputs('no-output'), { cwd, env: { GITHUB_OUTPUT: output } });
      expect(r.code, output).toBe(1);
      expect(r.stdout).toMatch(
        /::error::GITHUB_OUTPUT \(.*\) cannot be written \(E[A-Z]+\); the step outputs could not be reported, so nothing was done/,
      );
      expect(em.requests).toEqual([]);
    }
    expect(tip('no-output')).toBeUndefined();
  });
});

describe('two identical runs started together', () => {
  it('exactly one reports changed=true; the commit carries the run trailers', async () => {
    const slow = await startEmulator({ seed: DEMO_SEED, latencyMs: 25 });
    try {
      const cwd = workspace({ '.github/docdb.yml': REPOS });
      const at = { ...inputs('twins'), 'api-url': slow.url };
      // The section exists first, so both runs build on the same tip and PATCH the same ref.
      const seed = await dist({ ...at, projections: 'repos' }, { cwd });
      expect(seed.outputs.changed).toBe('true');
      slow.state.addBranch(TARGET, 'twins-branch');
      // Same run id and attempt, as two jobs of one matrix: the nonce still keeps their commits apart.
      const env = { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '2' };
      const [a, b] = await Promise.all([dist(at, { cwd, env }), dist(at, { cwd, env })]);
      expect(a.code, a.stdout).toBe(0);
      expect(b.code, b.stdout).toBe(0);
      expect([a.outputs.changed, b.outputs.changed].sort()).toEqual(['false', 'true']);
      const db = slow.state.repo(TARGET).db;
      const head = db.readRef('refs/docdb/twins')!;
      const winner = a.outputs.changed === 'true' ? a : b;
      expect(winner.outputs.version).toBe(head);
      expect(db.getCommit(head).parents).toEqual([seed.outputs.version]);
      expect(db.getCommit(head).message).toMatch(/\n\nDocdb-Run: 4242\.2\nDocdb-Nonce: [0-9a-f]{16}\n$/);
      const loser = a.outputs.changed === 'true' ? b : a;
      expect(loser.outputs.version).toBe(head);
      expect(loser.outputs.written).toBe('0');
    } finally {
      await slow.stop();
    }
  });
});

describe('no message ends in a double period', () => {
  it('scans every ::error message this file produced', () => {
    expect(errorLines.length).toBeGreaterThan(15);
    for (const line of errorLines) {
      const text = line.replace(/^::error[^:]*::/, '').replace(/%0A/g, '\n');
      expect(text, line).not.toMatch(/(?<!\.)\.\.(\s|$)/);
    }
  });
});
