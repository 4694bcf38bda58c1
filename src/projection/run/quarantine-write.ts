/**
 * Writing a refused run's would-be commit to its quarantine ref (quarantine-refs.ts): the same operations,
 * with the same `index:` and `schema:` declarations (so the quarantined tree is exactly what the section
 * would have held, index parts included), committed on the tip the expectations were evaluated on. The ref
 * is created ON that commit (the store's `startAt`), so a quarantine costs what a shard ref does.
 */
import { InvalidConfig } from '../../core/errors.js';
import { type DocumentOp, DocumentStore } from '../../document/document-store.js';
import type { TypeIndex } from '../../document/indexes/declaration.js';
import type { TypeSearch } from '../../document/search/declaration.js';
import { type QuarantineTarget, quarantineRefOf, quarantineTrailer } from './quarantine-refs.js';
import { withTrailers } from './run-report.js';
import type { TypeSchema } from './schema-files.js';

export type { QuarantineTarget } from './quarantine-refs.js';

export interface QuarantineWrite {
  target: QuarantineTarget;
  sectionRef: string;
  ops: readonly DocumentOp[];
  /** The tip the expectations were evaluated on (null: no section yet). */
  base: string | null;
  message: string;
  indexes: readonly TypeIndex[];
  /** The spec's `search:` declarations (absent: none). */
  search?: readonly TypeSearch[];
  schemas: readonly TypeSchema[];
}

/** Ids tried (`id`, `id-2`, …) before giving up: a run quarantines once per attempt. */
const MAX_TRIES = 20;

/**
 * Write the quarantine commit; its id, ref and version.
 *
 * @example
 * const q = await writeQuarantine({ target, sectionRef: store.ref, ops, base: e.data.version, message, indexes, schemas });
 */
export async function writeQuarantine(w: QuarantineWrite): Promise<{ id: string; ref: string; version: string }> {
  const { id, ref } = await freeRef(w);
  const result = await new DocumentStore(w.target.storeOn(ref, w.base ?? undefined)).commit(w.ops, {
    message: withTrailers(w.message, [quarantineTrailer(w.base)]),
    ...(w.indexes.length > 0 ? { indexes: [...w.indexes] } : {}),
    ...(w.search?.length ? { search: [...w.search] } : {}),
    ...(w.schemas.length > 0 ? { schemas: [...w.schemas] } : {}),
  });
  if (!result.version) throw new InvalidConfig('quarantine', `the quarantine commit on ${ref} made no version`);
  return { id, ref, version: result.version };
}

/**
 * The first of `id`, `id-2`, … whose ref does not exist yet (a re-run quarantines beside, never on top). The
 * probe is a store without `startAt` (one with it answers `startAt` for an absent ref); the write's store
 * reads the ref again anyway, as every write does, and creating it fails if another writer took the name.
 */
async function freeRef(w: QuarantineWrite): Promise<{ id: string; ref: string }> {
  for (let n = 1; n <= MAX_TRIES; n++) {
    const id = n === 1 ? w.target.id : `${w.target.id}-${n}`;
    const ref = quarantineRefOf(w.sectionRef, id);
    if ((await w.target.storeOn(ref).head()) === null) return { id, ref };
  }
  throw new InvalidConfig(
    'quarantine',
    `${quarantineRefOf(w.sectionRef, w.target.id)} and ${MAX_TRIES - 1} more ids after it are taken; drop old quarantines (docdb section quarantine drop ID)`,
  );
}
