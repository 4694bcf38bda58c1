/**
 * A section's quarantine (docs/quarantine.md), as `docdb section quarantine list | promote ID | drop ID` uses
 * it: list the quarantine refs with what each was computed on, promote one (a compare-and-set moving the
 * section from the tip the quarantined commit was computed on to that commit: the store's `replaceHistory`,
 * the capability compaction uses, refused with the reason when the section moved since), drop one (delete its
 * ref, only while it still points at the commit listed).
 */
import { InvalidConfig, NotFound, PreconditionFailed } from '../../core/errors.js';
import type { RefStore } from '../../core/refstore.js';
import { quarantineBaseOf, quarantinePrefixOf, quarantineRefOf } from './quarantine-refs.js';

/** What the quarantine commands need from the section's repository (RemoteApiRefStore has all of it). */
export interface QuarantineHost {
  /** The section's store (its tip; `replaceHistory` for promote). */
  section: RefStore;
  /** A store on another ref of the same repository (to read a quarantine commit). */
  storeOn(ref: string): RefStore;
  /** Refs under a prefix, each with its commit. */
  listRefs(prefix: string): Promise<{ ref: string; oid: string }[]>;
  /** Delete refs, each only while it points at `oid`. */
  deleteRefs(refs: readonly { ref: string; oid: string }[]): Promise<void>;
}

/** One quarantined run. */
export interface QuarantineEntry {
  id: string;
  ref: string;
  /** The quarantined commit. */
  version: string;
  /** The section tip it was computed on (null: no section then; undefined: not a quarantine commit). */
  base: string | null | undefined;
  /** Its commit date (ISO-8601). */
  date: string;
  /** Its commit message's first line. */
  subject: string;
}

/**
 * The section's quarantined runs, oldest first.
 *
 * @example
 * for (const q of await listQuarantine(host)) console.log(q.id, q.version, q.base, q.date);
 */
export async function listQuarantine(host: QuarantineHost): Promise<QuarantineEntry[]> {
  const prefix = quarantinePrefixOf(host.section.ref);
  const refs = await host.listRefs(prefix);
  const out: QuarantineEntry[] = [];
  for (const r of refs) out.push(await entryOf(host, r.ref.slice(prefix.length), r.ref));
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id < b.id ? -1 : 1));
}

/** One quarantine ref as an entry (its last commit read once). */
async function entryOf(host: QuarantineHost, id: string, ref: string): Promise<QuarantineEntry> {
  const last = (await host.storeOn(ref).commits?.({ limit: 1 }))?.entries[0];
  if (!last) throw new NotFound(`${ref} does not exist (list them with docdb section quarantine list)`, { ref });
  return {
    id,
    ref,
    version: last.version,
    base: quarantineBaseOf(last.message),
    date: last.committer.date,
    subject: last.message.split('\n')[0] ?? '',
  };
}

/** The quarantine `id` of the section, or NotFound naming it. */
async function find(host: QuarantineHost, id: string): Promise<QuarantineEntry> {
  const ref = quarantineRefOf(host.section.ref, id);
  if ((await host.storeOn(ref).head()) === null) {
    throw new NotFound(
      `no quarantine ${JSON.stringify(id)} for ${host.section.ref}: ${ref} does not exist (docdb section quarantine list shows them)`,
      {
        ref,
        id,
      },
    );
  }
  return entryOf(host, id, ref);
}

/**
 * Move the section onto quarantined run `id`: a compare-and-set from the tip it was computed on (refused,
 * nothing moved, when the section is elsewhere now), then its quarantine ref is deleted.
 *
 * @example
 * const { from, to } = await promoteQuarantine(host, '4711.1');
 */
export async function promoteQuarantine(
  host: QuarantineHost,
  id: string,
): Promise<{ from: string; to: string; ref: string }> {
  const q = await find(host, id);
  if (q.base === undefined) {
    throw new InvalidConfig(
      'id',
      `${q.ref} holds ${q.version}, which is not a quarantine commit (no Docdb-Quarantine-Base trailer); refusing to move ${host.section.ref} onto it`,
      { ref: q.ref },
    );
  }
  if (q.base === null) {
    throw new InvalidConfig(
      'id',
      `${q.ref} was computed when ${host.section.ref} did not exist; promote moves an existing section: re-run the projection instead`,
      { ref: q.ref },
    );
  }
  const tip = await host.section.head();
  if (tip !== q.base) throw moved(host.section.ref, q, tip);
  if (!host.section.replaceHistory) {
    throw new InvalidConfig(
      'refstore',
      `this store cannot compare-and-set ${host.section.ref}; promote needs one that can`,
    );
  }
  const r = await host.section.replaceHistory({ from: q.base, onto: q.version, commits: [] });
  if (!r.moved) throw moved(host.section.ref, q, r.tip);
  await host.deleteRefs([{ ref: q.ref, oid: q.version }]);
  return { from: q.base, to: q.version, ref: q.ref };
}

function moved(sectionRef: string, q: QuarantineEntry, tip: string | null): PreconditionFailed {
  const e = new PreconditionFailed(sectionRef, q.base ?? null, tip, tip);
  e.message = `cannot promote quarantine ${q.id}: it was computed on ${q.base}, and ${sectionRef} has moved to ${tip ?? '(deleted)'} since; promoting would drop the writes made meanwhile. Nothing moved. Re-run the projection (its expectations are checked on the new tip), or drop ${q.id}`;
  Object.assign(e.data, { reason: 'tip-moved', id: q.id, base: q.base, tip });
  return e;
}

/**
 * Delete quarantined run `id` (only while its ref still points at the commit read).
 *
 * @example
 * await dropQuarantine(host, '4711.1');
 */
export async function dropQuarantine(host: QuarantineHost, id: string): Promise<{ ref: string; version: string }> {
  const q = await find(host, id);
  await host.deleteRefs([{ ref: q.ref, oid: q.version }]);
  return { ref: q.ref, version: q.version };
}
