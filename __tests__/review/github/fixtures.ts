/**
 * Shared set-up of the publisher tests: an emulator (every answer checked against GitHub's OpenAPI
 * description) with a repository, a pull request, tokens of each kind, Octokit clients over them, a
 * review, and its rendered outputs.
 */
import type { EmulatorHandle, RequestLogEntry } from '../../../src/emulator/index.js';
import type { PublishTarget } from '../../../src/review/github/index.js';
import { reviewMarker } from '../../../src/review/index.js';
import type { Review, ReviewAnnotation } from '../../../src/review/types.js';
import { createOctokit, type DocDbOctokit } from '../../../src/transport/create-octokit.js';
import { startEmulator } from '../../emulator/checked-emulator.js';

export const REPO = 'octo/data';
export const SECTION = 'refs/docdb/documents';
/** An installation token (`GITHUB_TOKEN`): writes as github-actions[bot]. */
export const BOT = 'ghs_InstallationToken0123456789abcdefABCD';
/** A personal access token of `octo`. */
export const PAT = 'ghp_PersonalToken0123456789abcdefABCDEFgh';

export interface World {
  em: EmulatorHandle;
  pr: number;
  headSha: string;
}

/** A fresh emulator with octo/data, a branch `change` and an open pull request from it. */
export async function world(options: Parameters<typeof startEmulator>[0] = {}): Promise<World> {
  const em = await startEmulator(options);
  em.state.createRepo(REPO);
  em.state.addToken(BOT, { login: 'octo', rateLimit: 1_000_000 });
  em.state.addToken(PAT, { login: 'octo', rateLimit: 1_000_000 });
  const headSha = em.state.commitFiles(REPO, { branch: 'change', files: { 'docdb.yml': 'projections: []\n' } });
  const pr = em.state.addPull(REPO, { title: 'Change the spec', head: 'change' }).number;
  return { em, pr, headSha };
}

/** Octokit over the emulator with `token`, no write spacing, fast retries. */
export function client(w: World, token: string): DocDbOctokit {
  return createOctokit({
    auth: token,
    baseUrl: w.em.url,
    writeSpacingMs: 0,
    notificationSpacingMs: 0,
    retryAfterBaseMs: 1,
    warn: () => {},
  });
}

export function target(w: World, tokenKind: PublishTarget['tokenKind'] = 'installation'): PublishTarget {
  return { owner: 'octo', repo: 'data', pullRequest: w.pr, headSha: w.headSha, tokenKind };
}

/** A review of `changed` documents (its content does not matter to the publisher beyond section and changed). */
export function review(w: World, changed = true): Review {
  return {
    format: 1,
    section: SECTION,
    repository: REPO,
    pullRequest: w.pr,
    headSha: w.headSha,
    base: null,
    preview: null,
    changed,
    conclusion: changed ? 'neutral' : 'success',
    totals: [],
    fieldChanges: [],
    expectations: { declared: false, count: 0, violations: [] },
    rows: [],
    rowCount: 0,
    annotations: [],
    notes: [],
  };
}

export function annotations(n: number): ReviewAnnotation[] {
  return Array.from({ length: n }, (_, i) => ({
    path: 'docdb.yml',
    start_line: i + 1,
    end_line: i + 1,
    annotation_level: 'failure' as const,
    title: 'expect',
    message: `violation ${i}`,
  }));
}

/** What the renderers would hand the publisher: a comment starting with the marker, and a check. */
export function render(text: string, extra: { annotations?: ReviewAnnotation[]; title?: string } = {}) {
  return {
    comment: `${reviewMarker(SECTION)}\n${text}`,
    check: {
      name: 'docdb: documents',
      title: extra.title ?? '3 documents change',
      conclusion: 'neutral' as const,
      summary: `| type | added |\n|---|---|\n| repo | 3 |\n${text}`,
      annotations: extra.annotations ?? [],
    },
  };
}

/** Requests the emulator logged since `from`, by method and path pattern. */
export function logged(w: World, from: number, method: string, path: RegExp): RequestLogEntry[] {
  return w.em.requests.slice(from).filter((r) => r.method === method && path.test(r.path));
}

/** Writes (POST/PATCH) to issue comments since `from`. */
export function commentWrites(w: World, from: number): number {
  return w.em.requests
    .slice(from)
    .filter((r) => r.method !== 'GET' && /\/issues\/(comments\/)?\d+(\/comments)?$/.test(r.path)).length;
}
