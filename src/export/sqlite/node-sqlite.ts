/**
 * Node's built-in SQLite (`node:sqlite`, https://nodejs.org/api/sqlite.html), loaded only when an export asks
 * for it. It exists without a flag from Node 22.13 and 23.4; on Node 22.12 (the oldest this package supports) it
 * needs `--experimental-sqlite`, so a missing module is said plainly, with the versions that have it. Loading it
 * prints Node's one-time "SQLite is an experimental feature" ExperimentalWarning on Node 22 (24 no longer does):
 * that warning alone is dropped while the module loads (any other warning passes through), since the user asked
 * for a file, not for Node's release notes. Why node:sqlite and not better-sqlite3 or sql.js: docs/decisions.md.
 */
import type * as NodeSqlite from 'node:sqlite';

export type SqliteModule = typeof NodeSqlite;
export type Database = NodeSqlite.DatabaseSync;

/** The SQLite export cannot run on this Node (no `node:sqlite`). */
export class SqliteUnavailable extends Error {
  readonly code = 'SqliteUnavailable';
  constructor(readonly nodeVersion: string) {
    super(
      `the SQLite export needs Node's built-in node:sqlite, which this Node (${nodeVersion}) does not load: ` +
        'use Node 22.13 or later (22.x), or Node 24 — or run this Node with --experimental-sqlite',
    );
    this.name = 'SqliteUnavailable';
  }
}

/** Node's wording of the one warning dropped (any other warning, even another ExperimentalWarning, is kept). */
const SQLITE_WARNING = /SQLite is an experimental feature/;

/**
 * `node:sqlite`, or `SqliteUnavailable` when this Node has none. `getBuiltin` is for tests (a Node without it).
 *
 * @example
 * const { DatabaseSync } = loadSqlite();
 * const db = new DatabaseSync('data.db');
 */
export function loadSqlite(getBuiltin: (id: string) => unknown = (id) => process.getBuiltinModule?.(id)): SqliteModule {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, ...args: unknown[]) {
    const warning = args[0] as string | Error | undefined;
    const text = typeof warning === 'string' ? warning : warning?.message;
    if (SQLITE_WARNING.test(String(text))) return;
    Reflect.apply(emit, this, args);
  } as typeof process.emitWarning;
  let sqlite: unknown;
  try {
    // getBuiltinModule (Node ≥ 22.3) answers undefined for a module this Node does not have, and keeps bundlers
    // from resolving `node:sqlite` at build time.
    sqlite = getBuiltin('node:sqlite');
  } catch {
    sqlite = undefined;
  } finally {
    process.emitWarning = emit;
  }
  if (typeof (sqlite as SqliteModule | undefined)?.DatabaseSync !== 'function') {
    throw new SqliteUnavailable(process.version);
  }
  return sqlite as SqliteModule;
}
