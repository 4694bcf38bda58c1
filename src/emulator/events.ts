/**
 * Webhook event payloads the emulator's world implies, for a local runner that plays GitHub Actions
 * (`GITHUB_EVENT_PATH`): the `pull_request` event
 * (https://docs.github.com/webhooks/webhook-events-and-payloads#pull_request).
 */
import type { Urls } from './model.js';
import { fullPullShape } from './shapes/pulls.js';
import { fullRepoShape } from './shapes/repositories.js';
import { userShape } from './shapes/users.js';
import type { EmulatorState } from './state.js';

/** What a `pull_request` event says happened (the `action` field). */
export type PullRequestAction = 'opened' | 'synchronize' | 'reopened' | 'closed' | 'edited';

/**
 * The `pull_request` event GitHub would send for pull request `number` of `repo`: `action`, `number`,
 * `pull_request` (as `GET /pulls/{n}` answers it: `head.sha`, `head.ref`, `head.repo.full_name` — the
 * fork's for a fork's pull request — and `base`), `repository` and `sender` (its author). URLs point at
 * github.com unless `urls` says otherwise (the emulator's own, to follow them). Throws when the pull
 * request does not exist. `action` defaults to `closed` for a closed pull request, else `synchronize`.
 *
 * @example
 * const event = pullRequestEvent(em.state, 'octo/data', 7);
 * writeFileSync(eventPath, JSON.stringify(event)); // GITHUB_EVENT_PATH
 * event.pull_request.head.sha; // the PR's head commit
 */
export function pullRequestEvent(
  state: EmulatorState,
  repo: string,
  number: number,
  options: { action?: PullRequestAction; urls?: Urls } = {},
): PullRequestEventPayload {
  const r = state.repo(repo);
  const pull = r.pulls.find((p) => p.number === number);
  if (!pull) throw new Error(`pullRequestEvent: ${repo} has no pull request #${number}`);
  const urls = options.urls ?? { api: 'https://api.github.com', html: 'https://github.com' };
  const author = state.account(pull.issue.user);
  const headRepo = pull.headRepo ? state.repo(pull.headRepo) : r;
  return {
    action: options.action ?? (pull.issue.state === 'closed' ? 'closed' : 'synchronize'),
    number,
    pull_request: fullPullShape(r, pull, urls, author, headRepo) as PullRequestEventPayload['pull_request'],
    repository: fullRepoShape(r, urls),
    sender: userShape(author, urls),
  };
}

/** The parts of a `pull_request` payload a review reads (the rest of GitHub's fields are there too). */
export interface PullRequestEventPayload {
  action: PullRequestAction;
  number: number;
  pull_request: {
    number: number;
    state: string;
    head: { sha: string; ref: string; repo: { full_name: string } };
    base: { sha: string; ref: string; repo: { full_name: string } };
    [field: string]: unknown;
  };
  repository: Record<string, unknown>;
  sender: Record<string, unknown>;
}
