/**
 * Which pull request a review is about, and whether it comes from a fork (issue 39): its number from the
 * `pull-request` input or the event, its head commit and head repository from the event payload, or — when
 * the payload does not have them (a `workflow_dispatch`, `docdb project --pull-request N`) — from one
 * `GET /repos/{owner}/{repo}/pulls/{number}`. A fork's pull request gets no preview and no comment from
 * `mode: review` (its token is read-only; `mode: review-publish` posts them).
 */
import { InvalidConfig, InvalidResponse } from '../core/errors.js';
import { isSha } from '../core/git/objects.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../core/input-names.js';
import type { SourceClient } from '../projection/sources/index.js';
import { REPO_RE } from '../projection/spec/index.js';
import type { ActionInputs } from './inputs.js';
import type { ReviewEvent } from './review-event.js';

/** The pull request under review. */
export interface ReviewPull {
  number: number;
  headSha: string;
  /** The head repository is not the base repository (or is gone): no write from this run. */
  fork: boolean;
}

/** What `GET pulls/{number}` tells about a pull request (the fields a review uses). */
export interface PullFacts {
  headSha: string;
  headRepo: string | undefined;
  baseRepo: string | undefined;
  state: string;
}

/**
 * The pull request of a review mode; `InvalidConfig` naming `pull-request` when neither the input nor the
 * event gives one.
 *
 * @example
 * const pull = await reviewPull(inputs, event, client); // { number: 42, headSha: 'ab12…', fork: false }
 */
export async function reviewPull(
  inputs: ActionInputs,
  event: ReviewEvent,
  client: SourceClient,
  names: InputNames = ACTION_INPUT_NAMES,
): Promise<ReviewPull> {
  const number = pullNumberOf(inputs, event, names);
  const fromEvent = event.pullRequest?.number === number ? event.pullRequest : undefined;
  if (fromEvent?.headSha) {
    const base = fromEvent.baseRepo ?? inputs.repository;
    return {
      number,
      headSha: fromEvent.headSha,
      fork: fromEvent.headRepo === undefined || !sameRepo(fromEvent.headRepo, base),
    };
  }
  const facts = await getPull(client, inputs.repository, number, names);
  return {
    number,
    headSha: facts.headSha,
    fork: facts.headRepo === undefined || !sameRepo(facts.headRepo, facts.baseRepo ?? inputs.repository),
  };
}

/**
 * The pull request number: the `pull-request` input, else the event's `pull_request.number`.
 *
 * @example
 * pullNumberOf(inputs, { name: 'pull_request', pullRequest: { number: 42 } }); // 42
 */
export function pullNumberOf(inputs: ActionInputs, event: ReviewEvent, names: InputNames = ACTION_INPUT_NAMES): number {
  const given = inputs.review?.pullRequest ?? event.pullRequest?.number;
  if (given === undefined) {
    throw new InvalidConfig(
      'pull-request',
      `${names.label('pull-request')}: mode: ${inputs.mode} needs the pull request's number: run it on a pull_request event (the payload's pull_request.number), or set ${names.phrase('pull-request')}${event.name ? ` (the ${event.name} event has none)` : ''}`,
      { allowed: 'a whole number from 1' },
    );
  }
  return given;
}

/**
 * One `GET /repos/{owner}/{repo}/pulls/{number}`: the head commit and repositories (a 404 is `InvalidConfig`
 * naming `pull-request`).
 *
 * @example
 * const { headSha } = await getPull(octokit, 'octo/data', 42);
 */
export async function getPull(
  client: SourceClient,
  repository: string,
  number: number,
  names: InputNames = ACTION_INPUT_NAMES,
): Promise<PullFacts> {
  const [owner, repo] = repository.split('/') as [string, string];
  let data: unknown;
  try {
    ({ data } = await client.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      owner,
      repo,
      pull_number: number,
    }));
  } catch (e) {
    if ((e as { status?: number }).status === 404) {
      throw new InvalidConfig(
        'pull-request',
        `${names.label('pull-request')}: ${repository} has no pull request #${number}`,
        {
          allowed: 'the number of a pull request of the repository',
        },
      );
    }
    throw e;
  }
  const pick = (o: unknown, k: string): unknown =>
    o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined;
  const headSha = pick(pick(data, 'head'), 'sha');
  if (!isSha(headSha)) throw new InvalidResponse(`GET pulls/${number}: the answer has no head.sha`, {});
  const full = (v: unknown) => (typeof v === 'string' && REPO_RE.test(v) ? v : undefined);
  return {
    headSha: headSha.toLowerCase(),
    headRepo: full(pick(pick(pick(data, 'head'), 'repo'), 'full_name')),
    baseRepo: full(pick(pick(pick(data, 'base'), 'repo'), 'full_name')),
    state: String(pick(data, 'state') ?? ''),
  };
}

/** GitHub compares repository names without regard to case. */
function sameRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
