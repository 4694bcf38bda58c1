/**
 * The shapes of data tests on a would-be commit (issue 38, "expect:"): what a section's writer may
 * expect of one type's documents, and what a broken expectation reports. A leaf module: the parser,
 * the evaluation, DocumentStore and the projection spec share it without importing each other.
 */
import type { ExpectViolation } from '../../core/errors.js';

export type { ExpectViolation };

/** A value `accepted-values` may list: a JSON scalar. */
export type AcceptedValue = string | number | boolean | null;

/**
 * Expectations on one `(namespace, type)`, in the library's spelling (the spec spells them kebab-case:
 * `max-removed`, `not-null`, `accepted-values`; see {@link parseExpectations}).
 */
export interface Expectations {
  /** Documents of the type after the write. */
  count?: { min?: number; max?: number };
  /** Documents the write removes: a number, or a percentage of the type's documents before the write. */
  maxRemoved?: number | `${number}%`;
  /** Documents the write changes (existing documents whose bytes differ), as `maxRemoved`. */
  maxChanged?: number | `${number}%`;
  /** Fields (`id` or `data.<path>`) no two documents of the type share a value of (absent values are not compared). */
  unique?: string[];
  /** Fields every written document has, with a value other than null. */
  notNull?: string[];
  /** Per field, the values a written document may hold there (absent is allowed; pair with `notNull`). */
  acceptedValues?: Record<string, AcceptedValue[]>;
  /** Per field, the `namespace/type` whose document ids its values must be. */
  references?: Record<string, string>;
  /** A module given the write's documents that returns problems (run under the custom-reducer rules). */
  check?: { module: string };
}

/** Expectations on one type, as a write passes them (`expect` on DocumentStore writes). */
export interface TypeExpectations {
  namespace: string;
  type: string;
  expectations: Expectations;
  /**
   * Runs `expectations.check` (required when it is set): the projection runner loads the module under the
   * custom-reducer rules (`loadCheck`, docdb's projection layer) and passes it here, so the document layer
   * never imports code from a path.
   */
  runCheck?: CheckRunner;
}

/** One document of a write as a check module sees it (deleted documents are listed by id in the context). */
export interface CheckDocument {
  namespace: string;
  type: string;
  id: string;
  data: unknown;
}

/** What a check module is called with besides the documents. */
export interface CheckContext {
  namespace: string;
  type: string;
  /** Ids of the type's documents the write deletes. */
  removed: string[];
  /** The tip the would-be commit builds on (null: the section does not exist yet). */
  version: string | null;
}

/** A check: the write's documents in, problems out (strings, or `{ id?, key?, field?, message }`). */
export type CheckRunner = (documents: CheckDocument[], context: CheckContext) => Promise<ExpectViolation[]>;
