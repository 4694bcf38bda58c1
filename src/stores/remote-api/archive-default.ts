/**
 * The archive reader a RemoteApiRefStore uses when its options name none (`archive` omitted): none in the
 * platform-neutral core, so browsers keep the GraphQL/blob batches (codeload sends no CORS header to
 * pages). The package's Node entry point (src/index.node.ts, the `node` condition of `docdb` in
 * package.json `exports`) installs `nodeArchiveReader()` here when it loads; the core never imports it,
 * so nothing of it reaches a browser bundle.
 */
import type { ArchiveReader } from './archive-reads.js';

let platformDefault: ArchiveReader | undefined;

/**
 * Install the reader stores use when `archive` is omitted (the Node entry point does this once).
 *
 * @example
 * setPlatformArchiveReader(nodeArchiveReader());
 */
export function setPlatformArchiveReader(reader: ArchiveReader | undefined): void {
  platformDefault = reader;
}

/**
 * The reader installed by the platform's entry point, or undefined (browsers, or the core used directly).
 *
 * @example
 * const archive = options.archive ?? platformArchiveReader();
 */
export function platformArchiveReader(): ArchiveReader | undefined {
  return platformDefault;
}
