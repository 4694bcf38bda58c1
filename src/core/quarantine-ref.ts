/**
 * The name of a section's quarantine ref, `refs/<root>/<section>.quarantine/<id>` (docs/quarantine.md): where
 * a run refused by its expectations writes its would-be commit. In the core so that the runner, the CLI and
 * the browser client (which opens one only when asked by name) build it one way.
 */
import { InvalidConfig } from './errors.js';
import { RESERVED_REF_SPACES } from './refname.js';

/** Suffix of the directory of a section's quarantine refs (one of the reserved spaces). */
export const QUARANTINE_SUFFIX = RESERVED_REF_SPACES[1].suffix;

/** A quarantine id: one ref component, short, no dot first or last (git ref rules). */
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;

/**
 * Throw InvalidConfig (field `field`) unless `id` is a quarantine id (letters, digits, `.`, `_`, `-`; ≤ 64).
 *
 * @example
 * assertQuarantineId('4711.1'); // ok
 */
export function assertQuarantineId(id: unknown, field = 'id'): asserts id is string {
  if (typeof id !== 'string' || id.length > 64 || !ID_RE.test(id) || id.endsWith('.lock')) {
    throw new InvalidConfig(
      field,
      `${field} ${JSON.stringify(id)} is not a quarantine id: letters, digits, ".", "_" and "-", at most 64, starting with a letter or digit (list them with docdb section quarantine list)`,
      { allowed: 'a quarantine id such as 4711.1' },
    );
  }
}

/**
 * The ref a section's quarantined run `id` is written to.
 *
 * @example
 * quarantineRefOf('refs/docdb/documents', '4711.1'); // 'refs/docdb/documents.quarantine/4711.1'
 */
export function quarantineRefOf(sectionRef: string, id: string): string {
  assertQuarantineId(id);
  return `${sectionRef}${QUARANTINE_SUFFIX}/${id}`;
}
