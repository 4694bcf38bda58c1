/**
 * The schema checks of one write's documents, made as they are encoded, so no document's data is held or
 * decoded again for the check:
 * - a type whose schema the write declares itself: every document is checked as it is encoded (batch.ts),
 *   whatever the path (commit, putMany, a commit in parts); the derive hook (declarations.ts) does not check
 *   them again — which saves a commit in parts decoding every buffered envelope back;
 * - a type whose schema is the section's: not known before the hook's batched read (reading it up front would
 *   cost a request), so the hook checks the documents it holds; but a commit in parts (`commitParts`, a large
 *   `putMany`, a shard merge) keeps memory bounded, so once the parts collector drops documents' data
 *   (indexed-ops.ts `PartsCollector`) each part is checked as it arrives against the schema read when its
 *   type first appeared, and the collector remembers WHICH schema (its blob SHA). The hook refuses the write
 *   when the type's schema at the tip it lands on is another one — the schema changed while the write was
 *   under way — as it does for an index declaration (index-write.ts `declaredMeanwhile`).
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
 * The schema checks of one write.
 *
 * @example
 * const parts = new PartsSchemas((ns, t) => docs.storedSchema(ns, t), declared);
 * parts.checkEncoded('github/repo/o/a.json', 'github', 'repo', { stars: 1 }); // a type the write declares
 * await parts.prepare([{ namespace: 'github', type: 'repo' }]);
 * parts.check('github/repo/o/r.json', 'github', 'repo', { stars: 1 });
 */
export class PartsSchemas {
  /** Violations found in the parts (the hook goes on from a copy). */
  readonly violations = new Violations();
  /** Per `namespace/type`: the schema its documents were checked against. */
  readonly checkedAgainst = new Map<string, CheckedAgainst>();
  private readonly compiled = new Map<string, CompiledSchema | null>();
  /** The type of the previous document encoded (a write's documents come in runs of one type). */
  private last: { namespace: string; type: string; schema: CompiledSchema | null | undefined } | undefined;

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

  /** Whether the write declares schemas: then its encoders call {@link checkEncoded} for every document. */
  get declaresAny(): boolean {
    return this.declared.size > 0;
  }

  /**
   * A document of the write as it is encoded (its data was just read by the encoder): checked now when the
   * write declares its type's schema; nothing otherwise (the section's schema is the hook's to check).
   */
  checkEncoded(key: string, namespace: string, type: string, data: unknown): void {
    let last = this.last;
    if (last?.namespace !== namespace || last.type !== type) {
      last = { namespace, type, schema: this.declared.get(typeKey(namespace, type)) };
      this.last = last;
    }
    if (last.schema) this.violations.check(key, last.schema, data);
  }

  /** Whether the type's documents were checked as they were encoded (the write declares its schema). */
  checkedAtEncode(namespace: string, type: string): boolean {
    return this.declared.has(typeKey(namespace, type));
  }

  /**
   * Whether a dropped document's data must be checked first (its type has a schema from the section; one the
   * write declares was checked as the document was encoded); prepare() it first.
   */
  needsData(namespace: string, type: string): boolean {
    return !this.checkedAtEncode(namespace, type) && (this.compiled.get(typeKey(namespace, type)) ?? null) !== null;
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
