/**
 * The limits on a section's archive (untrusted input), apart from the archive reader itself: the store's
 * configuration (config.ts) resolves them for every store, while the reader (archive-reads.ts,
 * section-archives.ts) loads only for a bulk read — in a browser bundle, on first use.
 */

/** Limits on what an archive may hold (it is untrusted input). */
export interface ArchiveLimits {
  /**
   * Bytes of the uncompressed tar: headers, metadata, contents (default 160 MiB). The content is held
   * until the read ends, so this bounds the read's memory; a larger section is read in batches instead.
   */
  maxBytes: number;
  /** Files, directories and symlinks (default 200,000); a section with more is read in batches instead. */
  maxEntries: number;
  /** Bytes of one entry (GitHub's blob limit: 100 MiB). */
  maxEntryBytes: number;
  /** The whole download, in ms (default 120 s). */
  timeoutMs: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxBytes: 160 * 1024 * 1024,
  maxEntries: 200_000,
  maxEntryBytes: 100 * 1024 * 1024,
  timeoutMs: 120_000,
};
