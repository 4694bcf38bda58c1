/**
 * The Action's `feed` step (docs/feed.md): after a run that writes the section (`mode: project`, `backfill`,
 * `merge`) — whether it committed or not — the Atom feed of the section's newest commits is brought up to date in
 * the workspace file `feed`, through the run's store (the tip it just wrote is known: an unchanged feed costs the
 * ref read). The path is checked before the run, like `export-path`: inside the workspace also once symbolic links
 * are resolved, and not a file that is something else than this section's feed — so a wrong `feed` fails before
 * anything is committed.
 */
import { realpath } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import { DocumentStore } from '../document/document-store.js';
import { ExportChanged, ExportTargetError } from '../export/errors.js';
import { feedTarget, sectionFeed } from '../export/feed/section-feed.js';
import type { ActionTools } from './context.js';
import { realExportTarget } from './export-mode.js';
import type { ActionInputs } from './inputs.js';

/** The section as the feed names it: the same as `docdb section feed --repo` does, so both keep one file. */
const sectionOf = (inputs: ActionInputs, ref: string) => `${inputs.repository} ${ref}`;

/** An export error of the feed file, as the failure of the `feed` input. */
function asInput(e: unknown): unknown {
  if (e instanceof ExportTargetError || e instanceof ExportChanged) {
    return new InvalidConfig('feed', `input "feed": ${e.message}`, { allowed: 'a relative path inside the workspace' });
  }
  return e;
}

/**
 * The feed's real path, checked before the run: inside the workspace, and absent or this section's feed.
 *
 * @example
 * const target = await checkFeedInput(inputs, 'refs/docdb/documents', workspace); // InvalidConfig naming feed
 */
export async function checkFeedInput(inputs: ActionInputs, ref: string, workspace: string): Promise<string> {
  const path = inputs.feed?.path as string;
  const target = await realExportTarget(path, workspace, 'feed', 'site/feed.xml');
  try {
    await feedTarget(target, sectionOf(inputs, ref), ref);
  } catch (e) {
    throw asInput(e);
  }
  return target;
}

/**
 * Bring the feed at `target` up to date; the `feed` output (its absolute path) and a summary line.
 *
 * @example
 * const { outputs, summary } = await feedStep(inputs, tools, target, workspace);
 */
export async function feedStep(
  inputs: ActionInputs,
  tools: ActionTools,
  target: string,
  workspace: string,
): Promise<{ outputs: Record<string, string>; summary: string }> {
  const feed = inputs.feed;
  if (!feed) throw new Error('feedStep: no feed input');
  try {
    const r = await sectionFeed(new DocumentStore(tools.store), {
      file: target,
      section: sectionOf(inputs, tools.ref),
      repository: inputs.repository,
      limit: feed.limit,
      ...(feed.viewerUrl !== undefined ? { viewerUrl: feed.viewerUrl } : {}),
      ...(feed.feedUrl !== undefined ? { feedUrl: feed.feedUrl } : {}),
    });
    const root = await realpath(workspace).catch(() => resolve(workspace));
    const where = relative(root, r.path);
    const did = r.mode === 'unchanged' ? 'up to date' : `${r.mode}, ${r.read} commit(s) read`;
    tools.log(`feed: ${r.entries} entr${r.entries === 1 ? 'y' : 'ies'} in ${r.path} (${did})`);
    return {
      outputs: { feed: r.path },
      summary: `\nFeed: ${r.entries} entr${r.entries === 1 ? 'y' : 'ies'} → \`${where}\` (${did}).\n`,
    };
  } catch (e) {
    throw asInput(e);
  }
}
