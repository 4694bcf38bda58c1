/**
 * The viewer build's DocumentStore features (scripts/build-browser.mjs puts this module in place of
 * src/document/features.ts in lib/viewer/viewer.js only): the read pieces as they are, and no write kit or
 * migrations. The viewer only reads (docs/viewer.md), and those two pieces — the index and search
 * maintenance, the schema validator (@cfworker/json-schema), expectations, the migration engine — were
 * ~37 KB min+gzip of its one file (156,729 → 119,675 bytes for the page). A write reaching this build is refused, never done without its checks.
 */
import { InvalidConfig } from '../../core/errors.js';
import type { DocumentFeatures } from '../../document/features.js';
import * as query from '../../document/query.js';
import * as search from '../../document/search-read.js';
import * as versions from '../../document/versions-of.js';

/** Refuse a write or a migration: this build carries neither (the section is left as it was). */
function readOnly(piece: string): never {
  throw new InvalidConfig(
    'features',
    `${piece} is not in the viewer's build (it reads only): write with docdb/browser's bundle, the library or the CLI`,
  );
}

/**
 * The read-only loaders.
 *
 * @example
 * const { queryDocuments } = await features.query();
 * await features.write(); // rejects: InvalidConfig
 */
export const features: DocumentFeatures = {
  write: async () => readOnly('DocumentStore writing (indexes, search, schemas, expectations)'),
  query: async () => query,
  search: async () => search,
  migrate: async () => readOnly('DocumentStore.migrate'),
  versions: async () => versions,
};
