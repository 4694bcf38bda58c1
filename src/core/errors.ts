/**
 * The one error hierarchy. Every error docdb throws on purpose is a `DocDbError` with a literal,
 * stable `code`, structured `data`, an optional `cause`, and `toJSON()`. Messages say what to fix.
 * No error ever carries a token: data is built from explicit fields, never from request headers.
 *
 * Import as a namespace: `import { errors } from 'docdb'; if (e instanceof errors.ConcurrentUpdate) …`
 */

export type ErrorData = Record<string, unknown>;

/** Base class of every docdb error. */
export class DocDbError extends Error {
  readonly code: string = 'DocDbError';
  readonly data: ErrorData;

  constructor(message: string, data: ErrorData = {}, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.data = data;
  }

  /** Plain JSON form: `{ name, code, message, data }` (the cause is summarised, never dumped). */
  toJSON(): { name: string; code: string; message: string; data: ErrorData; cause?: string } {
    const out: { name: string; code: string; message: string; data: ErrorData; cause?: string } = {
      name: this.name,
      code: this.code,
      message: this.message,
      data: this.data,
    };
    if (this.cause !== undefined) out.cause = this.cause instanceof Error ? this.cause.message : String(this.cause);
    return out;
  }
}

// `name` is the class name, read from the literal `code` rather than the constructor: a minified
// bundle renames classes (scripts/build-browser.mjs builds without esbuild's keepNames, which cost
// ~4.8 KB min+gzip), and every class below sets `code` to its own name. A getter, because the
// subclass's `code` is set only after DocDbError's constructor has run.
// Assigning `name` (as `Error` allows, e.g. code that rebuilds an error it received) defines it on the
// instance instead of throwing in strict mode.
Object.defineProperty(DocDbError.prototype, 'name', {
  get(this: DocDbError) {
    return this.code;
  },
  set(this: DocDbError, value: string) {
    Object.defineProperty(this, 'name', { value, writable: true, configurable: true, enumerable: false });
  },
  configurable: true,
});

/** A key broke one of the key rules (`data.rule` names which; see docs/keys.md). */
export class InvalidKey extends DocDbError {
  override readonly code = 'InvalidKey' as const;
  constructor(key: unknown, rule: string, message: string, data: ErrorData = {}) {
    super(message, { ...data, key: typeof key === 'string' ? key : String(key), rule });
  }
}

/** A document identity or envelope field is invalid (`data.field` names it). */
export class InvalidIdentity extends DocDbError {
  override readonly code = 'InvalidIdentity' as const;
  constructor(field: string, message: string, data: ErrorData = {}) {
    super(message, { field, ...data });
  }
}

/** A document envelope or its data cannot be stored (`data.field` names the field). */
export class InvalidDocument extends DocDbError {
  override readonly code = 'InvalidDocument' as const;
  constructor(field: string, message: string, data: ErrorData = {}) {
    super(message, { field, ...data });
  }
}

/**
 * What to do with a version that looks like the abbreviation docdb prints (4–39 hex characters): the
 * library takes full SHAs only, and `docs.resolveVersion` turns an abbreviation into one (issue 32 item 2).
 */
function abbreviationHint(version: unknown): string {
  return typeof version === 'string' && /^[0-9a-fA-F]{4,39}$/.test(version)
    ? `; an abbreviation? docs.resolveVersion(${JSON.stringify(version)}) gives the full version`
    : '';
}

/** A VersionId is not a 40-hex commit SHA, or names no commit of the section. */
export class InvalidVersion extends DocDbError {
  override readonly code = 'InvalidVersion' as const;
  constructor(version: unknown, message?: string, data: ErrorData = {}) {
    super(
      message ??
        `version must be a 40-character lowercase hex commit SHA, got ${JSON.stringify(version)}${abbreviationHint(version)}`,
      {
        version: typeof version === 'string' ? version : String(version),
        ...data,
      },
    );
  }
}

/** A configuration field or option is invalid (`data.field` names it, `data.allowed` says what is allowed). */
export class InvalidConfig extends DocDbError {
  override readonly code = 'InvalidConfig' as const;
  constructor(field: string, message: string, data: ErrorData = {}) {
    super(message, { field, ...data });
  }
}

/** Something that must exist does not (a repository, an object, a document where one is required). */
export class NotFound extends DocDbError {
  override readonly code = 'NotFound' as const;
}

/** A fast-forward ref update kept losing; `otherSha` is the competing commit now at the tip. */
export class ConcurrentUpdate extends DocDbError {
  override readonly code = 'ConcurrentUpdate' as const;
  readonly otherSha: string;
  constructor(ref: string, otherSha: string, attempts: number) {
    super(
      `${ref} was advanced by another writer to ${otherSha}; gave up after ${attempts} attempt(s). ` +
        'Re-run, or raise retryConcurrentWrites.',
      { ref, otherSha, attempts },
    );
    this.otherSha = otherSha;
  }
}

/**
 * A compare-and-set write (`ifMatch`) found the key in another state than expected: `data.key`, the
 * `data.expected` blob SHA (null = "absent"), the `data.actual` blob SHA now at the tip (null when the
 * key is absent) and `data.version`, the tip the check ran against. Nothing was written. Re-read the
 * key (its `blobSha` is the new expectation), merge, and write again.
 */
export class PreconditionFailed extends DocDbError {
  override readonly code = 'PreconditionFailed' as const;
  readonly key: string;
  readonly actual: string | null;
  readonly version: string | null;
  constructor(key: string, expected: string | null, actual: string | null, version: string | null) {
    const want = expected === null ? 'to be absent' : `to have blob ${expected}`;
    const have = actual === null ? 'it is absent' : `it has blob ${actual}`;
    super(
      `precondition failed for ${JSON.stringify(key)}: expected it ${want}, but at version ${version ?? '(none)'} ${have}; re-read it and retry`,
      { key, expected, actual, version },
    );
    this.key = key;
    this.actual = actual;
    this.version = version;
  }
}

/** The operation needs a token and none was configured. */
export class AuthMissing extends DocDbError {
  override readonly code = 'AuthMissing' as const;
}

/** The upstream rejected the token (401). */
export class AuthInvalid extends DocDbError {
  override readonly code = 'AuthInvalid' as const;
}

/** The token lacks permission (403 that is not a rate limit). */
export class Forbidden extends DocDbError {
  override readonly code = 'Forbidden' as const;
}

/**
 * Primary or secondary rate limit hit. `reset` is epoch seconds; `retryAfter` seconds when known, and
 * `data.retryAt` the same as an ISO time. A write that fails with it wrote nothing (`data.outcome:
 * "not-applied"`): retrying it after `retryAt` is safe.
 */
export class RateLimited extends DocDbError {
  override readonly code = 'RateLimited' as const;
  readonly reset: number | undefined;
  readonly retryAfter: number | undefined;
  constructor(
    message: string,
    data: ErrorData & { reset?: number; retryAfter?: number; retryAt?: string; status?: number; operation?: string },
  ) {
    super(message, data);
    this.reset = data.reset;
    this.retryAfter = data.retryAfter;
  }
}

/** The repository has no commits yet (409 "Git Repository is empty."). */
export class EmptyRepository extends DocDbError {
  override readonly code = 'EmptyRepository' as const;
}

/** The upstream kept answering 5xx. */
export class UpstreamUnavailable extends DocDbError {
  override readonly code = 'UpstreamUnavailable' as const;
}

/** The transport failed (connection refused/reset, timeout, abort) with no HTTP response. */
export class TransportError extends DocDbError {
  override readonly code = 'TransportError' as const;
}

/** The upstream answered something that is not what the API documents (bad JSON, missing fields). */
export class InvalidResponse extends DocDbError {
  override readonly code = 'InvalidResponse' as const;
}

/** A projection spec is invalid (`data.file`, `data.line`, `data.field`). */
export class InvalidSpec extends DocDbError {
  override readonly code = 'InvalidSpec' as const;
}

/**
 * A git command of the local git stores failed, or git could not be run at all. `data.reason` is
 * `missing-binary` (git is not installed / not on PATH), `not-a-repository`, `exit` (non-zero exit;
 * `data.exitCode`, `data.stderr`) or `crashed` (killed by a signal). `data.command` is the git
 * subcommand and its arguments; credentials never appear in it (they reach git only through its
 * credential helpers or `GIT_ASKPASS`).
 */
export class GitError extends DocDbError {
  override readonly code = 'GitError' as const;
}

/**
 * A value is larger than the one size limit every store applies (`data.key`, `data.size` in bytes,
 * `data.limit`), checked before any upload. See docs/keys.md ("Sizes").
 */
export class DocumentTooLarge extends DocDbError {
  override readonly code = 'DocumentTooLarge' as const;
  constructor(key: string, size: number, limit: number) {
    super(
      `the value of ${JSON.stringify(key)} is ${size} bytes; the limit is ${limit} bytes (GitHub's 100 MiB blob limit)`,
      { key, size, limit },
    );
  }
}

/**
 * One broken data expectation (issue 38, `expect:`; the shape `src/document/expect` reports). Never a
 * document's value (it may be a secret): keys and field names only.
 */
export interface ExpectViolation {
  /** `count`, `max-removed`, `max-changed`, `unique`, `not-null`, `accepted-values`, `references`, `check`. */
  expectation: string;
  /** The field the expectation is about (`data.state`), when it has one. */
  field?: string;
  /** The document's key (`github/repo/o/r.json`), when one document breaks it. */
  key?: string;
  /** The type whose expectations these are (a `count` or `max-removed` violation has no key to tell it by). */
  namespace?: string;
  type?: string;
  message: string;
}

/** Most violations an {@link ExpectationsFailed} carries in `data.violations` (`data.count` has them all). */
export const MAX_EXPECT_VIOLATIONS = 50;

/**
 * A write broke the section's data expectations (`expect`, docs/expectations.md): nothing was written.
 * `data.violations` lists the first 50 (keys and field names, never a document's value), `data.count`
 * all of them, `data.version` the tip the would-be commit was computed on (null: no section yet).
 */
export class ExpectationsFailed extends DocDbError {
  override readonly code = 'ExpectationsFailed' as const;
  declare readonly data: ErrorData & { violations: ExpectViolation[]; count: number; version: string | null };
  constructor(violations: readonly ExpectViolation[], version: string | null, count = violations.length) {
    const list = Array.isArray(violations) ? violations : [];
    const first = list[0];
    const more = count > 1 ? ` (and ${count - 1} more)` : '';
    const at = typeof version === 'string' ? ` on ${version.slice(0, 7)}` : '';
    super(
      first
        ? `expectations failed${at}, nothing was written: ${first.expectation}${first.field ? ` ${first.field}` : ''}${first.key ? ` at ${first.key}` : ''}: ${first.message}${more}`
        : `expectations failed${at}, nothing was written`,
      {
        violations: list.slice(0, MAX_EXPECT_VIOLATIONS),
        count: Math.max(count, list.length),
        version: typeof version === 'string' ? version : null,
      },
    );
  }
}

/** Every error class, for iteration in tests and docs. */
export const ALL_ERRORS = [
  InvalidKey,
  InvalidIdentity,
  InvalidDocument,
  InvalidVersion,
  InvalidConfig,
  NotFound,
  ConcurrentUpdate,
  PreconditionFailed,
  AuthMissing,
  AuthInvalid,
  Forbidden,
  RateLimited,
  EmptyRepository,
  UpstreamUnavailable,
  TransportError,
  InvalidResponse,
  InvalidSpec,
  GitError,
  DocumentTooLarge,
  ExpectationsFailed,
] as const;
