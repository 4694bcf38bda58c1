/**
 * Options of the GitHub API store that give it facts it would otherwise find out or make up itself: the
 * repository's GraphQL id (a workflow's event payload names it; `deleteRefs` needs it) and the date of the
 * commits it creates (pinned, so the same change on the same parent makes the same commit). Checked here.
 */
import { InvalidConfig } from '../../core/errors.js';

/**
 * `repositoryId`: a GraphQL node id, or undefined.
 *
 * @example
 * checkRepositoryId('R_kgDOAbc123'); // 'R_kgDOAbc123'
 */
export function checkRepositoryId(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[A-Za-z0-9_=-]{1,100}$/.test(v)) {
    throw new InvalidConfig('repositoryId', `repositoryId must be a GraphQL node id, got ${JSON.stringify(v)}`, {
      allowed: 'a node id such as R_kgDO…',
    });
  }
  return v;
}

/**
 * `commitDate`: a valid Date from 1970 on (copied), or undefined.
 *
 * @example
 * checkCommitDate(new Date('2000-01-01T00:00:00Z')); // a copy of it
 */
export function checkCommitDate(v: unknown): Date | undefined {
  if (v === undefined) return undefined;
  if (!(v instanceof Date) || Number.isNaN(v.getTime()) || v.getTime() < 0) {
    throw new InvalidConfig('commitDate', 'commitDate must be a valid Date from 1970 on', { allowed: 'a Date' });
  }
  return new Date(v.getTime());
}
