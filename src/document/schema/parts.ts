/**
 * Schemas for a commit in parts (`commitParts`, a large `putMany`, a shard merge): memory must stay bounded,
 * so once the parts collector drops documents' data (indexed-ops.ts `PartsCollector`), each part is checked
 * as it arrives against the schema read when its type first appeared, and the collector remembers WHICH
 * schema (its blob SHA). The derive hook (declarations.ts) refuses the write when the type's schema at the
 * tip it lands on is another one — the schema changed while the write was under way — as it does for an
 * index declaration (index-write.ts `declaredMeanwhile`).
 */
import { InvalidConfig } from '../../core/errors.js';
import { type CompiledSchema, compiledSchemaFor } from './compile.js';
import { Violations } from './enforce.js';

/** A type's schema as read from the section: its blob SHA and the schema (null: the type has none). */
export type StoredSchema = { blobSha: string; schema: Record<string, unknown> } | null;

/** The write's own declaration wins over the section's: parts are checked against it, whatever the tip says. */
export const DECLARED_BY_WRITE = 'declared-by-this-write';

/** What a type's documents were checked against: a blob SHA, {@link DECLARED_BY_WRITE}, or null (no schema). */
export type CheckedAgainst = string | null;

const typeKey = (namespace: string, type: string) => `${namespace}/${type}`;

/**
 * The schema checks of a commit in parts.
 *
 * @example
 * const parts = new PartsSchemas((ns, t) => docs.storedSchema(ns, t), declared);
 * await parts.prepare([{ namespace: 'github', type: 'repo' }]);
 * parts.check('github/repo/o/r.json', 'github', 'repo', { stars: 1 });
 */
export class PartsSchemas {
  /** Violations found in the parts (the hook goes on from a copy). */
  readonly violations = new Violations();
  /** Per `namespace/type`: the schema its documents were checked against. */
  readonly checkedAgainst = new Map<string, CheckedAgainst>();
  private readonly compiled = new Map<string, CompiledSchema | null>();

  constructor(
    private readonly load: (namespace: string, type: string) => Promise<StoredSchema>,
    /** Schemas the write declares itself (compiled; null: dropped). */
    private readonly declared: ReadonlyMap<string, CompiledSchema | null> = new Map(),
  ) {}

  /** Learn the schema of each type not seen yet (one read each; the write's own declarations cost none). */
  async prepare(types: Iterable<{ namespace: string; type: string }>): Promise<void> {
    for (const t of types) {
      const k = typeKey(t.namespace, t.type);
      if (this.compiled.has(k)) continue;
      if (this.declared.has(k)) {
        this.compiled.set(k, this.declared.get(k) ?? null);
        this.checkedAgainst.set(k, DECLARED_BY_WRITE);
        continue;
      }
      const stored = await this.load(t.namespace, t.type);
      this.checkedAgainst.set(k, stored?.blobSha ?? null);
      this.compiled.set(k, stored ? compiledSchemaFor(stored.blobSha, stored.schema, { field: 'schema' }) : null);
    }
  }

  /** Whether documents of the type must be checked (false when it has no schema); prepare() it first. */
  has(namespace: string, type: string): boolean {
    return (this.compiled.get(typeKey(namespace, type)) ?? null) !== null;
  }

  /** Check one document of a prepared type. */
  check(key: string, namespace: string, type: string, data: unknown): void {
    const k = typeKey(namespace, type);
    if (!this.compiled.has(k)) throw new InvalidConfig('schemas', `internal: schema of ${k} not prepared`);
    const c = this.compiled.get(k);
    if (c) this.violations.check(key, c, data);
  }
}

/**
 * The write refused: the schema of a type changed between the parts' checks and the tip the commit lands on.
 *
 * @example
 * schemaChangedMeanwhile('github', 'repo'); // throws InvalidConfig (field 'schemas')
 */
export function schemaChangedMeanwhile(namespace: string, type: string): never {
  throw new InvalidConfig(
    'schemas',
    `the schema of ${namespace}/${type} changed while this write was under way; nothing was written — run the write again`,
    { namespace, type },
  );
}
