/**
 * `mode: review` as a runner runs it (issue 39): INPUT_* variables, GITHUB_EVENT_NAME and GITHUB_EVENT_PATH
 * (the emulator's `pullRequestEvent`), GITHUB_OUTPUT and GITHUB_STEP_SUMMARY — a same-repository pull request
 * gets its preview, one comment and a check run, exit 0; under `pull_request_target` a reducer module of the
 * workspace is refused as an annotation on its spec line, exit 1, before any request. Run twice: src/action/
 * main.ts through tsx, and the BUILT dist/index.js once it holds the review modes (the lead rebuilds it after
 * merging; until then it is left out with a printed reason).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLikeRunner } from '../../src/action/local-runner.js';
import { type EmulatorHandle, pullRequestEvent } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { ACTION_RUN_MS, DIST, runnerDefaults, workspace } from './run-dist.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'src/action/main.ts');
const TSX = join(ROOT, 'node_modules/tsx/dist/loader.mjs');
const TOKEN = 'ghs_ReviewE2eToken0123456789abcdefabcdef';
const REPO = 'octo/review-e2e';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', bot: true, rateLimit: 1_000_000 });
  em.state.addPull(REPO, { title: 'Fewer rows', head: 'fewer', headSha: 'd'.repeat(40) });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC = (reducer = '') => `projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
${reducer}    prune: true
    expect: { max-removed: "50%" }
`;
const csv = (n: number) => `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}`).join('\n')}\n`;

const distHasReview = (() => {
  try {
    return readFileSync(DIST, 'utf8').includes('review-publish');
  } catch {
    return false;
  }
})();
const ENTRIES = [
  { name: 'src/action/main.ts (tsx)', entry: MAIN, tsx: true },
  ...(distHasReview ? [{ name: 'dist/index.js', entry: DIST, tsx: false }] : []),
];
if (!distHasReview) {
  console.log(
    'review-e2e: dist/index.js predates the review modes (no "review-publish" in it): only src is run; rebuild it with npm run build:action',
  );
}

const tipOf = (ref: string) => em.state.repo(REPO).db.readRef(ref) ?? null;

describe.each(ENTRIES)('mode: review as a runner runs it ($name)', ({ entry, tsx }) => {
  const step = (cwd: string, section: string, extra: Record<string, string>, eventName?: string) => {
    const eventPath = join(cwd, 'event.json');
    writeFileSync(eventPath, JSON.stringify(pullRequestEvent(em.state, REPO, 1)));
    const env: Record<string, string> = {
      GITHUB_WORKSPACE: cwd,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_RUN_ID: '31',
      GITHUB_RUN_ATTEMPT: '1',
      ...(eventName ? { GITHUB_EVENT_NAME: eventName, GITHUB_EVENT_PATH: eventPath } : {}),
      ...(tsx ? { NODE_OPTIONS: `--import ${TSX}` } : {}),
    };
    const given = { token: TOKEN, 'api-url': em.url, repository: REPO, section, ...extra };
    return runLikeRunner({ entry, inputs: { ...runnerDefaults(env), ...given }, cwd, env });
  };

  it('a same-repository pull request: preview, comment, check run, exit 0', {
    timeout: 3 * ACTION_RUN_MS,
  }, async () => {
    const section = `e2e-${tsx ? 'src' : 'dist'}`;
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(6) });
    expect((await step(cwd, section, {})).code).toBe(0);
    const tip = tipOf(`refs/docdb/${section}`);
    writeFileSync(join(cwd, 'rows.csv'), csv(5));
    const r = await step(cwd, section, { mode: 'review', 'review-file': 'review.json' }, 'pull_request');
    expect(r.code, r.stdout).toBe(0);
    expect(tipOf(`refs/docdb/${section}`)).toBe(tip);
    expect(r.outputs).toMatchObject({
      conclusion: 'success',
      'preview-ref': `refs/docdb/${section}.previews/pr-1`,
      version: tipOf(`refs/docdb/${section}.previews/pr-1`),
    });
    expect(r.outputs.review).toContain(`<!-- docdb-review: refs/docdb/${section} -->`);
    expect(r.summary).toContain('k5');
    expect(JSON.parse(readFileSync(join(cwd, 'review.json'), 'utf8'))).toMatchObject({
      pullRequest: 1,
      headSha: 'd'.repeat(40),
    });
  });

  it('pull_request_target: a reducer module is refused on its line, exit 1, no request', {
    timeout: 2 * ACTION_RUN_MS,
  }, async () => {
    const cwd = workspace({
      '.github/docdb.yml': SPEC('    reducer: { module: ./r.mjs }\n'),
      '.github/r.mjs': 'export default (i) => i;\n',
      'rows.csv': csv(3),
    });
    em.clearLog();
    const r = await step(cwd, `target-${tsx ? 'src' : 'dist'}`, { mode: 'review' }, 'pull_request_target');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /^::error .*file=\.github\/docdb\.yml,line=5::.*not loaded: a review under pull_request_target/m,
    );
    expect(em.requests).toEqual([]);
  });
});
