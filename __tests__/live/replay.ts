/**
 * Replay a recorded live session (recorder.ts) against the emulator: every request is sent again in order
 * and must get the recorded status and a response of the recorded shape (keys and JSON types). Object
 * SHAs the server chose (commits: their dates and committer differ between GitHub and the emulator) are
 * mapped as they appear: where the recorded and the replayed answer hold different 40-hex strings at the
 * same place, later requests use the replayed one.
 */
import { expect } from 'vitest';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import type { Exchange } from './recorder.js';

export interface Recording {
  repo: string;
  ref: string;
  exchanges: Exchange[];
}

type Shape = string | { [k: string]: Shape } | Shape[];

/** Keys and JSON types, recursively; arrays are described by their first element. */
export function shape(v: unknown): Shape {
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? [] : [shape(v[0])];
  if (typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v as object)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  }
  return typeof v;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Learn recorded → replayed SHAs from two answers to the same request, and GraphQL node ids (an `id` field:
 * the repository id that `updateRefs` takes is GitHub's own, not the emulator's).
 */
function learn(recorded: unknown, replayed: unknown, map: Map<string, string>, key?: string): void {
  if (typeof recorded === 'string' && typeof replayed === 'string') {
    const sha = SHA.test(recorded) && SHA.test(replayed);
    if ((sha || key === 'id') && recorded !== replayed) map.set(recorded, replayed);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(replayed)) {
    for (const [i, r] of recorded.entries()) learn(r, replayed[i], map);
    return;
  }
  if (recorded && replayed && typeof recorded === 'object' && typeof replayed === 'object') {
    for (const k of Object.keys(recorded)) {
      learn((recorded as Record<string, unknown>)[k], (replayed as Record<string, unknown>)[k], map, k);
    }
  }
}

/** `text` with every learned SHA and node id (a whole JSON string) replaced by the replayed one. */
function swap(text: string, map: Map<string, string>): string {
  let out = text.replace(/[0-9a-f]{40}/g, (sha) => map.get(sha) ?? sha);
  for (const [from, to] of map) if (!SHA.test(from)) out = out.split(JSON.stringify(from)).join(JSON.stringify(to));
  return out;
}

/**
 * Replay `recording` against `em` (which must hold the repository, with `token` allowed to write it).
 * Returns how many exchanges were replayed.
 *
 * @example
 * const n = await replayRecording(em, JSON.parse(readFileSync(file, 'utf8')), 'ghp_replay');
 */
export async function replayRecording(em: EmulatorHandle, recording: Recording, token: string): Promise<number> {
  const map = new Map<string, string>();
  for (const [i, x] of recording.exchanges.entries()) {
    const body = x.body === undefined ? undefined : swap(JSON.stringify(x.body), map);
    const headers: Record<string, string> = { ...x.reqheaders, authorization: `Bearer ${token}` };
    delete headers['content-length'];
    delete headers.host;
    // A recorded conditional request replays unconditionally: ETags differ between servers.
    delete headers['if-none-match'];
    const res = await fetch(`${em.url}${swap(x.path, map)}`, { method: x.method.toUpperCase(), headers, body });
    const text = await res.text();
    const json = text === '' ? '' : JSON.parse(text);
    const what = `exchange ${i + 1}: ${x.method.toUpperCase()} ${x.path}`;
    const wantStatus = x.status === 304 ? 200 : x.status;
    expect(res.status, what).toBe(wantStatus);
    if (x.status !== 304) expect(shape(json), what).toEqual(shape(x.response));
    if (x.status !== 304) learn(x.response, json, map);
  }
  return recording.exchanges.length;
}
