/** The export writers' own errors; each caller turns them into its terms (a CLI flag, an Action input). */

/** Why an export target cannot be used (the caller turns it into its own error naming the flag or input). */
export class ExportTargetError extends Error {}

/**
 * The target directory changed while the export was being written (a file appeared in it, or with
 * `--force` one of its files changed): nothing of it was removed, and the export was not put in place.
 */
export class ExportChanged extends Error {
  readonly code = 'ExportChanged';
  constructor(
    message: string,
    /** Entries (relative to the target) that were not there when the export started, or changed since. */
    readonly entries: readonly string[],
  ) {
    super(message);
    this.name = 'ExportChanged';
  }
}
