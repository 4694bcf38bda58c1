/**
 * What the Parquet export tests share: DuckDB (`@duckdb/node-api`), a reader docdb did not write, to read the
 * files back — their column types and values — and a run of `exportParquet` over the emulator with the metered
 * store the SQLite tests use (sqlite-fixture.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { exportParquet, type ParquetExportOptions } from '../../src/export/parquet/export-parquet.js';
import { meteredDocs } from './sqlite-fixture.js';

let connection: Promise<DuckDBConnection> | undefined;

/** A path or string as an SQL literal. */
export const lit = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** The rows of a DuckDB query, as JSON values (BIGINT as a decimal string, JSON and VARCHAR as text). */
export async function duck(query: string): Promise<Record<string, unknown>[]> {
  connection ??= DuckDBInstance.create(':memory:').then((i) => i.connect());
  const reader = await (await connection).runAndReadAll(query);
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

/** Each column of a Parquet file and the type DuckDB reads it as, in order. */
export async function columnTypes(file: string): Promise<[string, string][]> {
  const rows = await duck(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`);
  return rows.map((r) => [String(r.column_name), String(r.column_type)]);
}

/** Every row of a Parquet file, by id. */
export async function rowsById(file: string): Promise<Map<string, Record<string, unknown>>> {
  const rows = await duck(`SELECT * FROM read_parquet(${lit(file)})`);
  return new Map(rows.map((r) => [String(r.id), r]));
}

/** What a directory holds: each entry's bytes and mtime (to show a re-export rewrote nothing). */
export function dirState(dir: string): Map<string, { bytes: string; mtime: number }> {
  return new Map(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        { bytes: readFileSync(join(dir, name)).toString('base64'), mtime: statSync(join(dir, name)).mtimeMs },
      ]),
  );
}

/** `exportParquet` of `repo`'s section at its tip, through a fresh metered store (head read included). */
export async function runParquet(
  em: EmulatorHandle,
  repo: string,
  dir: string,
  extra: Partial<Omit<ParquetExportOptions, 'dir' | 'section' | 'version'>> = {},
) {
  const { docs, meter } = meteredDocs(em, repo);
  const version = (await docs.head()) as string;
  const result = await exportParquet(docs, { dir, section: `octo/${repo} ${docs.ref}`, version, ...extra });
  return { result, meter, version };
}
