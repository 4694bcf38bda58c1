/**
 * Walks over the section's history as far as this store holds it, deepening on demand: the tip is
 * fetched alone (`deepen 1`); `history` and reads at old versions ask the server for more commits
 * below the shallow boundary (the commits here without their parents), doubling the step each round
 * and stopping at the root or after `maxRounds` rounds.
 */
import { InvalidResponse } from '../../core/errors.js';
import { entryAtPath, historyEntry } from '../../core/git/tree-walk.js';
import type { HistoryEntry } from '../../core/refstore.js';
import type { ObjectStore } from './object-store.js';

/** Fetches more history below a boundary (SectionFetcher.deepen). */
export type Deepen = (tip: string, boundary: readonly string[], by: number) => Promise<void>;

export interface HistoryWalk {
  objects: ObjectStore;
  deepen: Deepen;
  /** Most deepen round trips one operation may make. */
  maxRounds: number;
  /** Where the remote is, for messages. */
  url: string;
}

/** First deepening step, in commits (then ×4 each round). */
const FIRST_STEP = 32;

/** Commits reachable from `tip` that are here; `boundary` are those whose parents are not all here. */
async function heldHistory(objects: ObjectStore, tip: string): Promise<{ held: Set<string>; boundary: string[] }> {
  const held = new Set<string>();
  const boundary: string[] = [];
  let frontier = [tip];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const sha of frontier) {
      if (held.has(sha)) continue;
      const c = await objects.commitIfPresent(sha);
      if (!c) continue;
      held.add(sha);
      let complete = true;
      for (const p of c.parents) {
        if (await objects.commitIfPresent(p)) next.push(p);
        else complete = false;
      }
      if (!complete) boundary.push(sha);
    }
    frontier = next;
  }
  return { held, boundary };
}

/**
 * True when `version` is reachable from `tip`, fetching history until it is found or the root is
 * reached. Found commits are added to `known` (a section only moves forward).
 *
 * @example
 * if (!(await inSection(walk, version, tip, known))) throw notInSection(version, ref);
 */
export async function inSection(w: HistoryWalk, version: string, tip: string, known: Set<string>): Promise<boolean> {
  if (known.has(version) || version === tip) return true;
  for (let round = 0, step = FIRST_STEP; ; round++, step *= 4) {
    const { held, boundary } = await heldHistory(w.objects, tip);
    if (held.has(version)) {
      for (const sha of held) known.add(sha);
      return true;
    }
    if (boundary.length === 0) return false;
    if (round >= w.maxRounds) throw tooDeep(w, round);
    await w.deepen(tip, boundary, step);
  }
}

function tooDeep(w: HistoryWalk, rounds: number): InvalidResponse {
  return new InvalidResponse(
    `history of ${w.url} still incomplete after ${rounds} deepening round trips; raise maxRoundTrips`,
    { rounds },
  );
}

/** The blob SHA at `key` in a commit (undefined when absent). */
async function blobAt(objects: ObjectStore, commitTree: string, key: string): Promise<string | undefined> {
  const e = await entryAtPath(commitTree, key, (sha) => objects.tree(sha));
  return e && e.mode !== '040000' && e.mode !== '160000' ? e.sha : undefined;
}

/** Whether `key` differs between a commit's tree and its first parent's. */
async function changedAt(objects: ObjectStore, tree: string, parent: string | undefined, key: string) {
  const now = await blobAt(objects, tree, key);
  const before = parent === undefined ? undefined : await blobAt(objects, (await objects.commit(parent)).tree, key);
  return now !== before;
}

/**
 * Commits on the first-parent chain from `tip` whose value at `key` differs from their first parent's
 * (every commit of the chain when `key` is ''), newest first, at most `limit` — deepening whenever the chain reaches a commit whose parent is not here.
 *
 * @example
 * const entries = await keyHistory(walk, tip, 'notes/a.json', 10);
 */
export async function keyHistory(
  w: HistoryWalk,
  tip: string,
  key: string,
  limit: number,
  start: string = tip,
): Promise<HistoryEntry[]> {
  const out: HistoryEntry[] = [];
  // The walk may start below the tip (a history page's cursor); deepening still asks for the tip's history.
  let sha: string | undefined = start;
  let rounds = 0;
  let step = FIRST_STEP;
  while (sha !== undefined && out.length < limit) {
    const c = await w.objects.commit(sha);
    const parent = c.parents[0];
    if (parent !== undefined && !(await w.objects.commitIfPresent(parent))) {
      if (rounds++ >= w.maxRounds) throw tooDeep(w, rounds - 1);
      await w.deepen(tip, (await heldHistory(w.objects, tip)).boundary, step);
      step *= 4;
      continue;
    }
    // key '': every commit of the chain (`RefStore.commits`).
    if (key === '') out.push({ ...historyEntry(sha, c), tree: c.tree });
    else if (await changedAt(w.objects, c.tree, parent, key)) out.push(historyEntry(sha, c));
    sha = parent;
  }
  return out;
}
