/**
 * The part of Astro's content-layer `LoaderContext` (astro/dist/content/loaders/types.d.ts, Astro 5 and later)
 * the docdb loader uses, written out here so docdb's published types never import `astro`: astro is not a
 * dependency of docdb. Each member is a supertype of Astro's, so Astro's context is accepted as it is, and the
 * loader object is an Astro `Loader` (__tests__/astro/loader-types.test.ts checks both against Astro's own types).
 */

/** One entry as the loader stores it: the document id, its parsed data, and its blob SHA as the digest. */
export interface LoaderEntry {
  id: string;
  data: Record<string, unknown>;
  /** Astro skips an entry whose digest equals the stored one's. */
  digest: string;
}

/** The collection's entry store (`context.store`). */
export interface LoaderEntryStore {
  /** False when an entry with the same digest is already there (nothing is written). */
  set(entry: LoaderEntry): boolean;
  delete(id: string): void;
  keys(): string[];
  clear(): void;
}

/** The collection's persisted string store (`context.meta`), kept between builds with the entries. */
export interface LoaderMetaStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
}

/** Astro's integration logger (`context.logger`). */
export interface LoaderLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** What `load` is given (a subset of Astro's `LoaderContext`). */
export interface DocdbLoaderContext {
  /** The collection's name in `content.config.ts`. */
  collection: string;
  store: LoaderEntryStore;
  meta: LoaderMetaStore;
  logger: LoaderLogger;
  /** Validates `data` with the collection's schema (a user's zod schema in `defineCollection`). */
  parseData(props: { id: string; data: Record<string, unknown> }): Promise<Record<string, unknown>>;
}

/** An Astro content-layer loader object (`defineCollection({ loader })`). */
export interface DocdbAstroLoader {
  name: string;
  load(context: DocdbLoaderContext): Promise<void>;
}
