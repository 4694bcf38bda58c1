/**
 * Quarantine (docs/quarantine.md): a run whose expectations refuse its commit can write that would-be commit
 * — the same operations — to `refs/<root>/<section>.quarantine/<id>` instead, branched from the tip the
 * expectations were evaluated on, so a person can compare it with the section and promote it (a
 * compare-and-set onto that tip) or drop it. The `.quarantine` space is reserved beside every section
 * (core/refname.ts RESERVED_REF_SPACES): nothing reads a quarantine ref as a section unless asked by name.
 *
 * A quarantine commit says what it is in a git trailer, `Docdb-Quarantine-Base: <section tip it was
 * computed on>` (or `none`), which `promote` compares the section with.
 */
import { isSha } from '../../core/git/objects.js';
import { QUARANTINE_SUFFIX } from '../../core/quarantine-ref.js';
import type { RefStore } from '../../core/refstore.js';

export { assertQuarantineId, QUARANTINE_SUFFIX, quarantineRefOf } from '../../core/quarantine-ref.js';

/** Where a run may quarantine: the id to use, and a store on any ref of the section's repository. */
export interface QuarantineTarget {
  /** The quarantine id: the run's `<run id>.<attempt>` in Actions (a suffix `-2`, `-3`… when taken). */
  id: string;
  /** A store on `ref`, starting at `startAt` while that ref does not exist (RemoteApiRefStoreOptions.startAt). */
  storeOn(ref: string, startAt?: string): RefStore;
}

/** The trailer naming the section tip a quarantined commit was computed on. */
export const QUARANTINE_BASE_TRAILER = 'Docdb-Quarantine-Base';

/**
 * The prefix of every quarantine ref of a section (for a ref listing).
 *
 * @example
 * quarantinePrefixOf('refs/docdb/documents'); // 'refs/docdb/documents.quarantine/'
 */
export function quarantinePrefixOf(sectionRef: string): string {
  return `${sectionRef}${QUARANTINE_SUFFIX}/`;
}

/**
 * The trailer of a quarantine commit.
 *
 * @example
 * quarantineTrailer(null); // 'Docdb-Quarantine-Base: none'
 */
export function quarantineTrailer(base: string | null): string {
  return `${QUARANTINE_BASE_TRAILER}: ${base ?? 'none'}`;
}

/**
 * The base a quarantine commit's message names: a SHA, null (`none`: the section did not exist), or
 * undefined when the message has no well-formed trailer (the message is untrusted: anyone who can push can
 * write a ref there).
 *
 * @example
 * quarantineBaseOf('docdb: project\n\nDocdb-Quarantine-Base: none\n'); // null
 */
export function quarantineBaseOf(message: string): string | null | undefined {
  let found: string | undefined;
  for (const line of message.split('\n')) {
    const m = /^Docdb-Quarantine-Base: (\S+)\s*$/.exec(line);
    if (m) found = m[1];
  }
  if (found === undefined) return undefined;
  if (found === 'none') return null;
  return isSha(found) ? found.toLowerCase() : undefined;
}
