/** Validation of full ref names (`refs/<root>/<section>`), following `git check-ref-format`. */
import { InvalidConfig } from './errors.js';

/**
 * Throw `InvalidConfig` (field `field`) unless `ref` is a full ref name under `refs/` that git and
 * GitHub accept. See https://git-scm.com/docs/git-check-ref-format
 *
 * @example
 * assertValidRefName('refs/docdb/documents');
 */
export function assertValidRefName(ref: unknown, field = 'ref'): asserts ref is string {
  const fail = (why: string): never => {
    throw new InvalidConfig(field, `${field} ${JSON.stringify(ref)} is not a valid ref name: ${why}`, {
      allowed: 'refs/<root>/<section> with git ref-name rules',
    });
  };
  if (typeof ref !== 'string') return fail('it must be a string');
  if (!ref.startsWith('refs/')) fail('it must start with "refs/" (for example refs/docdb/documents)');
  const parts = ref.split('/');
  if (parts.length < 3) fail('it needs at least two components after "refs/"');
  for (const p of parts) {
    if (p === '') fail('it must not contain "//" or end with "/"');
    if (p.startsWith('.')) fail('no component may start with "."');
    if (p.endsWith('.lock')) fail('no component may end with ".lock"');
  }
  if (ref.includes('..')) fail('it must not contain ".."');
  if (ref.includes('@{')) fail('it must not contain "@{"');
  if (ref.endsWith('.')) fail('it must not end with "."');
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref))
    fail('it must not contain spaces, control characters or any of ~ ^ : ? * [ \\');
}

/**
 * The reserved spaces beside every section: a ref component ending in one of these suffixes is a
 * directory of refs docdb writes FOR the section `refs/<root>/<section>` (`<section><suffix>/…`), never a
 * section of its own. A ref there given by a user (`--ref`, `--section`, the Action's `root`/`section`, the
 * library's `ref`) is refused: a merge job deletes leftover shard refs, so a section named
 * `documents.shards/1` would be deleted as one. ONE list: a new space is added here and every entry point
 * refuses it (`assertNotReservedRef`, `reservedSpaceProblem`).
 */
export const RESERVED_REF_SPACES = [
  {
    suffix: '.shards',
    holds:
      "a sharded run's shard refs (shard-commit: merge writes them; the merge job folds them into the section and deletes them as leftovers)",
  },
  { suffix: '.quarantine', holds: 'writes that failed a check, kept beside the section and out of it' },
  { suffix: '.previews', holds: 'review previews of a change, written before it reaches the section' },
] as const;

/** The suffix of the directory of a section's shard refs (`refs/<root>/<section>.shards/<i>`). */
export const SHARDS_SUFFIX = RESERVED_REF_SPACES[0].suffix;

const RESERVED_SUFFIXES = RESERVED_REF_SPACES.map((s) => s.suffix);
/** What to use instead, said by every refusal. */
const RESERVED_ALLOWED = `a name with no component ending in ${RESERVED_SUFFIXES.join(', ')}`;

/**
 * Why `name` (a full ref, or a root or section name: slash-separated components) lies in a section's
 * reserved space, as a sentence that starts with the name and says what to use instead; undefined when
 * it does not. The caller puts the flag or input in front.
 *
 * @example
 * reservedSpaceProblem('refs/docdb/documents.shards/1');
 * // '"refs/docdb/documents.shards/1" is in a reserved space: refs under …documents.shards/ hold … use the section's own ref refs/docdb/documents …'
 * reservedSpaceProblem('refs/docdb/documents'); // undefined
 */
export function reservedSpaceProblem(name: string): string | undefined {
  const parts = name.split('/');
  const at = parts.findIndex((p) => RESERVED_SUFFIXES.some((s) => p.endsWith(s)));
  if (at < 0) return undefined;
  const part = parts[at] as string;
  const space = RESERVED_REF_SPACES.find((s) => part.endsWith(s.suffix)) as (typeof RESERVED_REF_SPACES)[number];
  const owner = [...parts.slice(0, at), part.slice(0, -space.suffix.length)].join('/');
  const instead =
    name.startsWith('refs/') && owner.split('/').length >= 3 && !owner.endsWith('/')
      ? `use the section's own ref ${owner}, or ${RESERVED_ALLOWED}`
      : `use ${RESERVED_ALLOWED}`;
  return `${JSON.stringify(name)} is in a reserved space: a component ending in "${space.suffix}" (here ${JSON.stringify(part)}) names the directory that holds ${space.holds}, never a section; ${instead}`;
}

/**
 * Throw `InvalidConfig` (field `field`) unless `ref` is a valid ref name outside every section's reserved
 * space (RESERVED_REF_SPACES): the check every entry point runs on a section ref a user gives.
 *
 * @example
 * assertNotReservedRef('refs/docdb/documents'); // ok
 * assertNotReservedRef('refs/docdb/documents.shards/1', '--ref'); // throws: in the reserved space ".shards"
 */
export function assertNotReservedRef(ref: unknown, field = 'ref'): asserts ref is string {
  assertValidRefName(ref, field);
  const problem = reservedSpaceProblem(ref);
  if (problem) {
    throw new InvalidConfig(field, `${field} ${problem}`, {
      allowed: `refs/<root>/<section> with git ref-name rules, ${RESERVED_ALLOWED}`,
    });
  }
}

/**
 * `refs/<root>/<section>` from its parts, validated, and outside every section's reserved space
 * (RESERVED_REF_SPACES: no component may end in `.shards`, `.quarantine` or `.previews`), so a section can
 * never be, or collide with, another section's shard, quarantine or preview refs.
 *
 * @example
 * sectionRef('docdb', 'inventory'); // 'refs/docdb/inventory'
 */
export function sectionRef(root: string, section: string): string {
  const ref = `refs/${root}/${section}`;
  assertNotReservedRef(ref, 'root/section');
  return ref;
}
