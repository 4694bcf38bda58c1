/**
 * The shapes of a pull-request review of a data change (issue 39, docs/review.md): what `mode: review`
 * computes from a dry run (`ReviewInput`), the compact, serialisable `Review` the renderers and the
 * `review-file` work from, and what publishing it on GitHub did (`PublishOutcome`). A leaf module of types:
 * the runner side (src/action/review-*.ts), the renderers (src/review/render-*.ts) and the GitHub side
 * (src/review/github/) share them and nothing else.
 */

/** One document the run would add, modify or remove, with its `data` before and after (undefined: absent). */
export interface ReviewDocument {
  key: string;
  namespace: string;
  type: string;
  id: string;
  change: 'added' | 'modified' | 'removed';
  /** The projection that produced (or pruned) it. */
  projection: string;
  before: unknown;
  after: unknown;
}

/** One broken expectation (from `ExpectationsFailed` / an `InvalidDocument` of a schema). */
export interface ReviewViolation {
  projection: string;
  /** `expect:` rule (`count`, `max-removed`, `unique`, …) or `schema`. */
  rule: string;
  /** The document it is about, when it is about one. */
  key?: string;
  /** A sentence, already free of document values (violations never carry values). */
  message: string;
}

/** A projection of the spec: where its annotations go. */
export interface ReviewProjection {
  name: string;
  /** 1-based line of the projection in the spec (its `expect:` line when it has one). */
  line: number;
}

/** What `mode: review` hands the review builder. */
export interface ReviewInput {
  /** The section ref, `refs/<root>/<section>`. */
  section: string;
  /** `owner/name` of the base repository. */
  repository: string;
  pullRequest: number;
  /** The PR's head commit: the check run goes there. */
  headSha: string;
  /** The section tip the review was computed on (null: no section yet). */
  base: string | null;
  /** The preview commit, when it was written (`refs/<root>/<section>.previews/pr-<N>`). */
  preview: { ref: string; version: string } | null;
  /** The viewer's address (`viewer-url` input); the comment links its section diff when given. */
  viewerUrl?: string;
  /** The spec as the workspace names it (annotations' path). */
  specFile: string;
  projections: ReviewProjection[];
  /**
   * `declared`: some projection has `expect:` or `schema:`; `violations`: those listed (a refusal lists the
   * first 50); `count`: how many were found in all (default: the listed ones).
   */
  expectations: { declared: boolean; violations: ReviewViolation[]; count?: number };
  /** Every document that would change (20,000 and more: the builder keeps what it needs). */
  documents: Iterable<ReviewDocument>;
  /** Sentences for the reader: a permission that was missing, a preview not written and why. */
  notes: string[];
}

/** Added, modified and removed documents of one type. */
export interface TypeTotals {
  namespace: string;
  type: string;
  added: number;
  modified: number;
  removed: number;
}

/** A field changed in `documents` documents of a type, with one example (values JSON, cut at 80 characters). */
export interface FieldChange {
  namespace: string;
  type: string;
  /** The field's path, `data.stars`, `data.owner.login`. */
  field: string;
  documents: number;
  sample: { key: string; before: string; after: string };
}

/** One row of the job summary's full table. */
export interface ReviewRow {
  key: string;
  change: 'added' | 'modified' | 'removed';
  projection: string;
  /** The fields that changed (modified), at most 10. */
  fields: string[];
}

/** A check-run annotation (GitHub takes at most 50 per request). */
export interface ReviewAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  title: string;
  message: string;
}

/** The review: compact, JSON-serialisable, what the `review-file` holds (untrusted when read back). */
export interface Review {
  /** Format of the review file. */
  format: 1;
  section: string;
  repository: string;
  pullRequest: number;
  headSha: string;
  base: string | null;
  preview: { ref: string; version: string } | null;
  viewerUrl?: string;
  /** Some document would change. */
  changed: boolean;
  /** `success`: nothing would change or every expectation holds; `neutral`: changes, none declared; `failure`. */
  conclusion: 'success' | 'neutral' | 'failure';
  totals: TypeTotals[];
  /** The 10 fields changed in the most documents. */
  fieldChanges: FieldChange[];
  expectations: { declared: boolean; count: number; violations: ReviewViolation[] };
  /** The first 5,000 changed documents in key order; `rowCount` counts them all. */
  rows: ReviewRow[];
  rowCount: number;
  annotations: ReviewAnnotation[];
  notes: string[];
}

/** What publishing one review on GitHub did. */
export interface PublishOutcome {
  comment: {
    /** `skipped`: nothing changes and no earlier comment; `denied`: the token may not (see `missing`). */
    action: 'created' | 'updated' | 'unchanged' | 'skipped' | 'denied';
    id?: number;
    url?: string;
  };
  check: {
    /** `status`: a commit status instead (a personal access token cannot create check runs). */
    action: 'created' | 'updated' | 'status' | 'denied';
    id?: number;
    url?: string;
  };
  /** Permissions the token lacked, as a workflow's `permissions:` names them (`pull-requests: write`). */
  missing: string[];
  /** Requests sent. */
  requests: number;
}
