/**
 * The workflow's event, as the review modes need it (issue 39): the name (`GITHUB_EVENT_NAME`) and the
 * payload file (`GITHUB_EVENT_PATH`). The payload describes a pull request another person opened — its
 * branch name, title and head repository are theirs — so it is read as untrusted JSON: size-capped before
 * it is parsed, and only the few fields a review uses are taken, each checked for its type and form.
 */
import { readFile, stat } from 'node:fs/promises';
import { InvalidConfig } from '../core/errors.js';
import { isSha } from '../core/git/objects.js';
import { isPullRequestNumber } from '../core/preview-ref.js';
import { REPO_RE } from '../projection/spec/index.js';

/** GitHub caps webhook (and so event) payloads at 25 MB ("Webhook events and payloads"). */
export const MAX_EVENT_BYTES = 25 * 1024 * 1024;

/** What the review modes read from the event. */
export interface ReviewEvent {
  /** `GITHUB_EVENT_NAME` ('' when not set: a local run). */
  name: string;
  /** `pull_request` / `pull_request_target` events: the pull request. */
  pullRequest?: {
    number: number;
    /** The head commit (40 hex), when the payload has one. */
    headSha?: string;
    /** `owner/name` of the head repository (undefined: deleted, or not in the payload). */
    headRepo?: string;
    /** `owner/name` of the base repository. */
    baseRepo?: string;
  };
  /** `workflow_run` events: the run's head commit and the pull requests GitHub lists for it. */
  workflowRun?: { headSha?: string; pullRequests: number[] };
  /** The workflow's repository (`repository.full_name`, `repository.node_id`: its GraphQL id). */
  repository?: { fullName: string; nodeId: string };
}

/**
 * The event name and the review fields of the payload at `path` (none: no payload, a local run).
 * `InvalidConfig` (field `GITHUB_EVENT_PATH`) when the file is larger than {@link MAX_EVENT_BYTES} or not JSON.
 *
 * @example
 * const event = await readReviewEvent({ name: process.env.GITHUB_EVENT_NAME, path: process.env.GITHUB_EVENT_PATH });
 * event.pullRequest?.number; // 42
 */
export async function readReviewEvent(given: {
  name?: string | undefined;
  path?: string | undefined;
}): Promise<ReviewEvent> {
  const name = given.name ?? '';
  if (!given.path) return { name };
  const size = (await stat(given.path).catch(() => undefined))?.size;
  if (size === undefined) return { name };
  if (size > MAX_EVENT_BYTES) {
    throw new InvalidConfig(
      'GITHUB_EVENT_PATH',
      `the event payload is ${size} bytes, more than the ${MAX_EVENT_BYTES} GitHub sends; it is not read`,
      { allowed: `at most ${MAX_EVENT_BYTES} bytes` },
    );
  }
  let payload: unknown;
  try {
    payload = JSON.parse(await readFile(given.path, 'utf8'));
  } catch {
    throw new InvalidConfig('GITHUB_EVENT_PATH', 'the event payload is not JSON', { allowed: 'a JSON object' });
  }
  return { name, ...reviewFields(payload) };
}

/**
 * The review fields of an event payload (already parsed); anything of the wrong type or form is left out.
 *
 * @example
 * reviewFields({ pull_request: { number: 7, head: { sha: 'a'.repeat(40) } } }).pullRequest; // { number: 7, headSha: 'aaa…' }
 */
export function reviewFields(payload: unknown): Omit<ReviewEvent, 'name'> {
  const out: Omit<ReviewEvent, 'name'> = {};
  const pr = field(payload, 'pull_request');
  const number = field(pr, 'number');
  if (isPullRequestNumber(number)) {
    const headSha = sha(field(field(pr, 'head'), 'sha'));
    const headRepo = repo(field(field(field(pr, 'head'), 'repo'), 'full_name'));
    const baseRepo = repo(field(field(field(pr, 'base'), 'repo'), 'full_name'));
    out.pullRequest = {
      number,
      ...(headSha ? { headSha } : {}),
      ...(headRepo ? { headRepo } : {}),
      ...(baseRepo ? { baseRepo } : {}),
    };
  }
  const run = field(payload, 'workflow_run');
  if (run !== undefined) {
    const headSha = sha(field(run, 'head_sha'));
    const listed = field(run, 'pull_requests');
    const pullRequests = (Array.isArray(listed) ? listed.slice(0, 100) : [])
      .map((p) => field(p, 'number'))
      .filter(isPullRequestNumber);
    out.workflowRun = { ...(headSha ? { headSha } : {}), pullRequests };
  }
  const repository = field(payload, 'repository');
  const fullName = repo(field(repository, 'full_name'));
  const nodeId = field(repository, 'node_id');
  if (fullName && typeof nodeId === 'string' && /^[A-Za-z0-9_=-]{1,100}$/.test(nodeId)) {
    out.repository = { fullName, nodeId };
  }
  return out;
}

function field(o: unknown, name: string): unknown {
  return o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[name] : undefined;
}

const sha = (v: unknown) => (isSha(v) ? v : undefined);
const repo = (v: unknown) => (typeof v === 'string' && REPO_RE.test(v) ? v : undefined);
