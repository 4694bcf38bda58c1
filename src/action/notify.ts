/**
 * `notify`: after a commit that changed something, tell the next workflow with a `repository_dispatch`
 * event. Commits made with the workflow's GITHUB_TOKEN start no workflow, and a custom ref never
 * triggers `on: push`, so a workflow that should run on new documents listens for
 * `on: repository_dispatch: types: [<notify>]` instead.
 *
 * GitHub's rules (REST "Create a repository dispatch event",
 * https://docs.github.com/rest/repos/repos#create-a-repository-dispatch-event, and its OpenAPI
 * description): `POST /repos/{owner}/{repo}/dispatches` answers 204; `event_type` has 1–100 characters;
 * `client_payload` has at most 10 top-level properties and less than 64 KB in all. The token needs
 * `contents: write` on the repository the event goes to.
 */
import { utf8 } from '../core/bytes.js';
import { Forbidden } from '../core/errors.js';
import type { ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';

/** `data.operation` of notify's errors (failure.ts then adds no advice of its own). */
export const NOTIFY_OPERATION = 'notify';

/** The whole request body must stay under GitHub's 64 KB payload limit. */
export const MAX_DISPATCH_BYTES = 64 * 1024;

export interface DispatchPayload {
  section: string;
  repository: string;
  version: string;
  previousVersion: string | null;
  counts: { written: number; deleted: number };
  /** The changed document keys, as many as fit. */
  keys: string[];
  /** True when `keys` was cut to fit GitHub's limit (the full list: `changes` since previousVersion). */
  truncated: boolean;
}

/**
 * The dispatch body for a run's outputs, its key list cut so the body is under MAX_DISPATCH_BYTES.
 *
 * @example
 * const body = dispatchBody('docdb-updated', { section: 'refs/docdb/documents', repository: 'o/r', version, previousVersion, counts, keys, truncated: false });
 */
export function dispatchBody(
  eventType: string,
  payload: DispatchPayload,
  limit = MAX_DISPATCH_BYTES,
): { event_type: string; client_payload: DispatchPayload } {
  // Sizes are measured with `truncated: false`, one byte longer than `true`: whatever fits so, fits either way.
  const size = (keys: string[]) =>
    utf8(JSON.stringify({ event_type: eventType, client_payload: { ...payload, keys, truncated: false } })).length;
  const all = payload.keys;
  if (size(all) < limit) return { event_type: eventType, client_payload: { ...payload, truncated: false } };
  let fit = 0;
  let hi = all.length - 1;
  while (fit < hi) {
    const mid = Math.ceil((fit + hi) / 2);
    if (size(all.slice(0, mid)) < limit) fit = mid;
    else hi = mid - 1;
  }
  return { event_type: eventType, client_payload: { ...payload, keys: all.slice(0, fit), truncated: true } };
}

/** The HTTP status of an Octokit RequestError (or anything shaped like one). */
function statusOf(e: unknown): number | undefined {
  const status = (e as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Send the `notify` event for a run that committed (outputs as the step's).
 *
 * @example
 * if (outputs.changed === 'true') await notifyNext(inputs, outputs, tools);
 */
export async function notifyNext(
  inputs: ActionInputs,
  outputs: Record<string, string>,
  tools: ActionTools,
): Promise<void> {
  const eventType = inputs.notify ?? '';
  const target = inputs.notifyRepository ?? inputs.repository;
  const [owner, repo] = target.split('/') as [string, string];
  const body = dispatchBody(eventType, {
    section: tools.ref,
    repository: inputs.repository,
    version: outputs.version ?? '',
    previousVersion: outputs['previous-version'] || null,
    counts: { written: Number(outputs.written ?? 0), deleted: Number(outputs.deleted ?? 0) },
    keys: JSON.parse(outputs.keys ?? '[]') as string[],
    truncated: false,
  });
  try {
    await tools.client.request('POST /repos/{owner}/{repo}/dispatches', { owner, repo, ...body });
  } catch (e) {
    const status = statusOf(e);
    if (status !== 403 && status !== 404) throw e;
    throw refused(status, eventType, target, inputs.repository, outputs.version ?? '');
  }
  tools.log(
    `notify: sent repository_dispatch ${JSON.stringify(eventType)} to ${target} (${body.client_payload.keys.length} key(s)${body.client_payload.truncated ? ', list cut to fit 64 KB' : ''})`,
  );
}

/** A 403/404 from the dispatch, explained (never with the error's request, which held the token). */
function refused(status: number, eventType: string, target: string, repository: string, version: string): Forbidden {
  const why =
    target === repository
      ? `the token may not dispatch events in ${target}: give the job "permissions: contents: write" (the workflow's GITHUB_TOKEN needs it for repository_dispatch)`
      : `the token has no write access to ${target}: the workflow's GITHUB_TOKEN only reaches its own repository, so pass a token with Contents: write on ${target} (a fine-grained token or a GitHub App installed there) as "token"`;
  return new Forbidden(
    `notify: GitHub answered ${status} to the repository_dispatch ${JSON.stringify(eventType)} for ${target}: ${why}. The commit itself landed (version ${version}); only the notification is missing`,
    { status, repository: target, eventType, version, operation: NOTIFY_OPERATION },
  );
}
