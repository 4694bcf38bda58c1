/**
 * What a migration's commit message says (git's trailer format, as compaction writes its trailers:
 * core/compaction-trailers.ts): a subject naming the type and the operations, and
 * `Docdb-Migration: <compact JSON of the operations>` — the record `docs.history` and `docdb doc history`
 * show, and that {@link migrationOf} reads back.
 */
import { cut, operationText } from './apply.js';
import type { MigrationOperation } from './operations.js';

export const MIGRATION_TRAILER = 'Docdb-Migration';

/** Longest subject line (git tools show about this much). */
const SUBJECT_MAX = 120;

/**
 * The commit message of a migration of `namespace/type`: `subject` (default: the operations) and the trailer.
 *
 * @example
 * migrationMessage('github', 'repo', [{ op: 'drop', field: 'data.x' }]);
 * // 'migrate github/repo: drop data.x\n\nDocdb-Migration: [{"op":"drop","field":"data.x"}]'
 */
export function migrationMessage(
  namespace: string,
  type: string,
  operations: readonly MigrationOperation[],
  subject?: string,
): string {
  const line =
    subject ?? cut(`migrate ${namespace}/${type}: ${operations.map((o) => operationText(o)).join(', ')}`, SUBJECT_MAX);
  return `${line.replace(/\n+$/, '')}\n\n${MIGRATION_TRAILER}: ${JSON.stringify(operations)}`;
}

/**
 * The operations a commit message records, or undefined when it is not a migration's.
 *
 * @example
 * const { entries } = await docs.history(identity);
 * migrationOf(entries[0].message); // [{ op: 'drop', field: 'data.x' }]
 */
export function migrationOf(message: string): MigrationOperation[] | undefined {
  const line = new RegExp(`^${MIGRATION_TRAILER}: (\\[.*\\])$`, 'm').exec(message)?.[1];
  if (line === undefined) return undefined;
  try {
    const parsed = JSON.parse(line) as unknown;
    return Array.isArray(parsed) ? (parsed as MigrationOperation[]) : undefined;
  } catch {
    return undefined;
  }
}
