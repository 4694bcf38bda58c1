/**
 * The files of one export run, built under temporary names (staging.ts places them):
 * - whole: every document of the section (or filter) at the commit, read in bulk (`stream`: on the GitHub API the
 *   section's archive, a handful of requests at any size), a file per type, as the documents come (sorted by key,
 *   so a type's documents come together);
 * - update: only the types the changes since the recorded commit touch (`changes()`, then the changed documents in
 *   bulk: one GraphQL query per 100). A changed type's file is rebuilt from its previous file (read from disk:
 *   no request) without the changed rows, plus the changed documents; the other files are not touched.
 */
import { stat } from 'node:fs/promises';
import { InvalidVersion } from '../../core/errors.js';
import type { DocumentStore } from '../../document/document-store.js';
import type { ChangedDocument } from '../../document/document-types.js';
import { ColumnChooser } from '../column-chooser.js';
import type { FieldColumn } from '../columns.js';
import type { NameSet } from '../names.js';
import { envelopeOf, readEnvelopes, readsOf } from '../read-changes.js';
import { fileNameFor } from './file-names.js';
import type { ParquetMeta, TypeFile } from './meta.js';
import { previousRows } from './previous.js';
import type { Placed, Staging } from './staging.js';
import { type Columns, TypeBuild } from './type-build.js';

/** What a run built: the directory's files after it, those to put in place, those to remove, rows written. */
export interface Built {
  files: TypeFile[];
  placed: Placed[];
  gone: string[];
  rows: number;
}

/** What both builds need. */
export interface BuildContext {
  docs: DocumentStore;
  staging: Staging;
  /** The names taken in the directory (its files, the export's own included). */
  names: NameSet;
  version: string;
  filter: { namespace?: string; type?: string };
  rowGroupRows: number | undefined;
  onProgress: ((n: number) => void) | undefined;
}

const exists = (path: string) =>
  stat(path).then(
    (st) => st.isFile(),
    () => false,
  );

const typeKey = (namespace: string, type: string) => `${namespace}\n${type}`;

/**
 * Every type's file from the whole section at `ctx.version`; `previous` (a directory being rebuilt) keeps its
 * types' file names.
 *
 * @example
 * const built = await buildWhole(ctx, undefined);
 */
export async function buildWhole(ctx: BuildContext, previous: ParquetMeta | undefined): Promise<Built> {
  // The section is read whole just below: the declaration's presence is looked up in that listing (free).
  const chooser = new ColumnChooser(ctx.docs, ctx.version, true);
  const built: Built = { files: [], placed: [], gone: [], rows: 0 };
  const done = new Set<string>();
  let current: TypeBuild | undefined;
  for await (const entry of ctx.docs.stream({ ...ctx.filter, version: ctx.version, withData: true })) {
    const env = entry.document;
    if (!env) continue;
    if (current?.namespace !== env.namespace || current.type !== env.type) {
      if (current) await finishType(ctx, built, current, previous);
      const key = typeKey(env.namespace, env.type);
      // Keys sort by namespace/type/…, so a type's documents are contiguous; anything else is a bug upstream.
      if (done.has(key)) throw new Error(`documents of ${env.namespace}/${env.type} did not come together`);
      done.add(key);
      const choose = (sample: readonly unknown[]) => chooser.columns(env.namespace, env.type, sample);
      current = new TypeBuild(env.namespace, env.type, ctx.staging, choose, ctx.rowGroupRows);
    }
    await current.add(env.id, ctx.version, env.data);
    built.rows++;
    ctx.onProgress?.(built.rows);
  }
  if (current) await finishType(ctx, built, current, previous);
  const kept = new Set(built.files.map((f) => f.file));
  built.gone = (previous?.files ?? []).map((f) => f.file).filter((f) => !kept.has(f));
  return built;
}

/**
 * The files the changes from `previous.commit` to `ctx.version` touch, rebuilt; undefined when the recorded
 * commit is no longer in the section (rewritten, compacted), so the caller builds every file again.
 *
 * @example
 * const built = (await buildUpdate(ctx, meta)) ?? (await buildWhole(ctx, meta));
 */
export async function buildUpdate(ctx: BuildContext, previous: ParquetMeta): Promise<Built | undefined> {
  let changes: Awaited<ReturnType<DocumentStore['changes']>>;
  try {
    changes = await ctx.docs.changes({ ...ctx.filter, from: previous.commit, to: ctx.version });
  } catch (e) {
    if (e instanceof InvalidVersion) return undefined;
    throw e;
  }
  // A listed file that is gone (removed by hand) cannot give its rows: every file is built again instead.
  for (const f of previous.files) if (!(await exists(ctx.staging.pathOf(f.file)))) return undefined;
  const envelopes = await readEnvelopes(ctx.docs.store, readsOf(changes));
  const byType = new Map<string, { present: ChangedDocument[]; touched: Set<string> }>();
  const touch = (d: ChangedDocument, present: boolean) => {
    const key = typeKey(d.namespace, d.doc_type);
    const t = byType.get(key) ?? { present: [], touched: new Set<string>() };
    byType.set(key, t);
    t.touched.add(d.id);
    if (present) t.present.push(d);
  };
  for (const d of [...changes.added, ...changes.modified]) touch(d, true);
  for (const d of changes.removed) touch(d, false);

  const chooser = new ColumnChooser(ctx.docs, ctx.version, false);
  const built: Built = { files: [], placed: [], gone: [], rows: 0 };
  const rebuilt = new Set<string>();
  for (const [key, { present, touched }] of byType) {
    const [namespace, type] = key.split('\n') as [string, string];
    const old = previous.files.find((f) => f.namespace === namespace && f.type === type);
    const columns: Columns = old
      ? old.columns.flatMap((c): FieldColumn[] => (c.field === undefined ? [] : [{ field: c.field, column: c.name }]))
      : (sample) => chooser.columns(namespace, type, sample);
    const build = new TypeBuild(namespace, type, ctx.staging, columns, ctx.rowGroupRows);
    if (old) {
      for await (const row of previousRows(ctx.staging.pathOf(old.file))) {
        if (!touched.has(row.id)) await build.add(row.id, row.version, JSON.parse(row.json), row.json);
      }
    }
    for (const d of present) {
      await build.add(d.id, changes.to, envelopeOf(envelopes, d, changes.to).data);
      built.rows++;
      ctx.onProgress?.(built.rows);
    }
    if (old) rebuilt.add(old.file);
    if (build.rows === 0) continue; // every document of the type is gone: so is its file
    await finishType(ctx, built, build, previous);
  }
  built.rows += changes.removed.length;
  const kept = new Set(built.files.map((f) => f.file));
  built.gone = [...rebuilt].filter((f) => !kept.has(f));
  for (const f of previous.files) if (!rebuilt.has(f.file)) built.files.push(f);
  return built;
}

/** Write `build`'s file and record it (under its previous name when the directory had the type). */
async function finishType(ctx: BuildContext, built: Built, build: TypeBuild, previous: ParquetMeta | undefined) {
  const { path, columns } = await build.finish();
  const old = previous?.files.find((f) => f.namespace === build.namespace && f.type === build.type);
  const name = old?.file ?? fileNameFor(ctx.names, build.namespace, build.type);
  built.placed.push({ temp: path, name, replaces: old !== undefined });
  built.files.push({ file: name, namespace: build.namespace, type: build.type, rows: build.rows, columns });
}
