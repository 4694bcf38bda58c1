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
 * `refs/<root>/<section>` from its parts, validated. No component may end in `.shards`: that directory
 * holds a section's shard refs (`refs/<root>/<section>.shards/<i>`, docs/action.md "shard-commit"), so a
 * section named so could be, or collide with, another section's shard ref.
 *
 * @example
 * sectionRef('docdb', 'inventory'); // 'refs/docdb/inventory'
 */
export function sectionRef(root: string, section: string): string {
  const ref = `refs/${root}/${section}`;
  assertValidRefName(ref, 'root/section');
  if (ref.split('/').some((p) => p.endsWith('.shards'))) {
    throw new InvalidConfig(
      'root/section',
      `root/section ${JSON.stringify(ref)} is reserved: no component may end with ".shards" (the refs of a section's shards live under refs/<root>/<section>.shards/)`,
      {
        allowed: 'refs/<root>/<section> with git ref-name rules, no component ending in ".shards"',
      },
    );
  }
  return ref;
}
