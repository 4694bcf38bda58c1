/**
 * A projection's state file `_docdb/state/<projection>[.shard-<i>-of-<n>].json`, committed in the section
 * with the documents (runs need no cache or artifact): a fingerprint of the projection's config, the
 * incremental watermarks of issues/pulls, and the ETags of conditional reads. A damaged or foreign
 * state only costs a full re-read.
 */
import { z } from 'zod';
import { fromUtf8, utf8 } from '../../core/bytes.js';
import { blobSha } from '../../core/git/objects.js';
import type { LoadedReducer } from '../reducers/index.js';
import type { StoredConditional } from '../sources/index.js';
import type { ProjectionSpec } from '../spec/index.js';
import type { Shard } from './shard.js';

/**
 * Key of a projection's state. `_docdb/` is reserved for docdb metadata; each shard keeps its own.
 *
 * @example
 * stateKey('repos'); // '_docdb/state/repos.json'
 * stateKey('repos', { index: 2, count: 4 }); // '_docdb/state/repos.shard-2-of-4.json'
 */
export function stateKey(projection: string, shard?: Shard): string {
  const suffix = shard && shard.count > 1 ? `.shard-${shard.index}-of-${shard.count}` : '';
  return `_docdb/state/${projection}${suffix}.json`;
}

export interface ProjectionState {
  version: 1;
  /** Hash of the projection's source/identity/reducer config: when it changes, the next run re-projects everything. */
  fingerprint: string;
  /** Per source repository: the `updated_at` of the newest item seen. */
  watermarks: Record<string, string>;
  /** ETags of conditional reads and the documents each page produced. */
  conditional?: StoredConditional;
}

/**
 * @example
 * const fingerprint = fingerprintOf(projection, await loadReducer(projection, '.'));
 */
export function fingerprintOf(p: ProjectionSpec, reducer: LoadedReducer): string {
  return blobSha(utf8(JSON.stringify({ source: p.source, identity: p.identity, reducer: reducer.fingerprint })));
}

/**
 * The state file's shape. It is read back from the section, which anyone with write access can edit: it is
 * untrusted input. This schema checks its shape (types; watermarks parse as dates); what it says is checked
 * where it is used — watermarks in the future by `trustedWatermarks`, stored next-page URLs and repository
 * names by `trustedConditional` (sources/conditional.ts), stored document keys against the section's tip.
 */
const conditionalEntrySchema = z.object({
  etags: z.array(z.string()),
  keys: z.array(z.string()).optional(),
  next: z.string().optional(),
  names: z.array(z.string()).optional(),
});
const stateSchema = z.object({
  version: z.literal(1),
  fingerprint: z.string(),
  watermarks: z.record(
    z.string(),
    z.string().refine((t) => !Number.isNaN(Date.parse(t))),
  ),
  conditional: z.object({ token: z.string(), entries: z.record(z.string(), conditionalEntrySchema) }).optional(),
});

/**
 * The stored state, or undefined when it is missing, damaged or of another shape (a full re-read follows).
 *
 * @example
 * parseState(new TextEncoder().encode('not json')); // undefined: the next run re-reads everything
 */
export function parseState(bytes: Uint8Array | undefined): ProjectionState | undefined {
  if (!bytes) return undefined;
  try {
    const parsed = stateSchema.safeParse(JSON.parse(fromUtf8(bytes)));
    return parsed.success ? (parsed.data as ProjectionState) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @example
 * encodeState({ version: 1, fingerprint, watermarks: { 'o/r': '2024-01-31T12:00:00Z' } }); // JSON bytes, keys sorted, newline at the end
 */
export function encodeState(state: ProjectionState): Uint8Array {
  const out: ProjectionState = {
    version: 1,
    fingerprint: state.fingerprint,
    watermarks: Object.fromEntries(Object.entries(state.watermarks).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(state.conditional ? { conditional: state.conditional } : {}),
  };
  return utf8(`${JSON.stringify(out, null, 2)}\n`);
}

/** How far ahead of this machine's clock a stored watermark may be (runner and GitHub clocks differ a little). */
export const WATERMARK_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * The stored watermarks that may be used. A watermark in the future (beyond a small clock skew) was not
 * written by docdb — it is the `updated_at` of an item GitHub returned — and would freeze the incremental
 * reads of its repository (every later item would look older): it is dropped with a warning, and that
 * repository is read without it.
 *
 * @example
 * trustedWatermarks({ 'o/r': '2999-01-01T00:00:00Z' }, console.log); // {} and a warning naming o/r
 */
export function trustedWatermarks(
  watermarks: Readonly<Record<string, string>>,
  log: (line: string) => void,
  now = Date.now(),
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [repository, mark] of Object.entries(watermarks)) {
    if (Date.parse(mark) <= now + WATERMARK_CLOCK_SKEW_MS) kept[repository] = mark;
    else {
      log(
        `warning: ignored the stored watermark of ${JSON.stringify(repository.slice(0, 200))}: it is more than ${WATERMARK_CLOCK_SKEW_MS / 60_000} minutes in the future; reading the repository without it`,
      );
    }
  }
  return kept;
}
