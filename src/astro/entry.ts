/**
 * One document as an Astro entry: its id, its `data` validated by the collection's schema (`parseData`), its
 * blob SHA as the digest (the same bytes, the same SHA: Astro skips an unchanged entry). A document's data is
 * untrusted: it must be an object (Astro's entries are), and no string in it may carry Astro's image-import
 * marker — Astro turns such a string into an import of the local file it names, so a document could otherwise
 * make the build read a file of the machine it runs on. The collection's `image()` schema adds the marker
 * itself, after this check, from the document's plain path.
 */
import { InvalidDocument } from '../core/errors.js';
import type { Envelope } from '../document/envelope.js';
import type { DocdbLoaderContext, LoaderEntry } from './context.js';

/** The prefix Astro's content layer reads as "import this image" (astro/dist/content/consts.js IMAGE_IMPORT_PREFIX). */
export const ASTRO_IMAGE_MARKER = '__ASTRO_IMAGE_';

/**
 * The entry of `env` (its blob SHA `blobSha`), its data parsed by the collection's schema.
 *
 * @example
 * context.store.set(await entryOf(context, env, blobSha));
 */
export async function entryOf(context: DocdbLoaderContext, env: Envelope, blobSha: string): Promise<LoaderEntry> {
  const where = `${env.namespace}/${env.type}/${env.id}`;
  if (!isRecord(env.data)) {
    throw new InvalidDocument(
      'data',
      `docdb/astro: document ${where} has ${describe(env.data)} data; an Astro entry's data is an object`,
      { key: where },
    );
  }
  const marked = markedPath(env.data);
  if (marked !== undefined) {
    throw new InvalidDocument(
      'data',
      `docdb/astro: document ${where} has a string starting with ${ASTRO_IMAGE_MARKER} at data${marked}, which Astro would read as a local file to import; refused`,
      { key: where, path: `data${marked}` },
    );
  }
  const data = await context.parseData({ id: env.id, data: env.data });
  return { id: env.id, data, digest: blobSha };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

/**
 * The path (`.a[0].b`) of the first string in `data` that starts with the marker, or undefined. Iterative: a
 * deeply nested document cannot overflow the stack.
 */
function markedPath(data: Record<string, unknown>): string | undefined {
  const todo: [unknown, string][] = [[data, '']];
  for (let next = todo.pop(); next !== undefined; next = todo.pop()) {
    const [value, path] = next;
    if (typeof value === 'string') {
      if (value.startsWith(ASTRO_IMAGE_MARKER)) return path;
    } else if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) todo.push([v, `${path}[${i}]`]);
    } else if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) todo.push([v, `${path}[${JSON.stringify(k)}]`]);
    }
  }
  return undefined;
}
