/**
 * One source item on its way to a document: its identity (the id template rendered with the item's
 * variables, then the document key), the reducer's data, and the envelope bytes. Each step fails with a
 * message naming the spec line to fix; what the item means for the run (shard, counts, diff) is decided by
 * the projection pass.
 */
import { encodeEnvelope } from '../../document/envelope.js';
import { deriveKey } from '../../document/identity.js';
import { type LoadedReducer, ReducerCallError, type ReducerContext } from '../reducers/index.js';
import type { SourceItem } from '../sources/index.js';
import { itemVariables, type ProjectionSpec, renderTemplate, type TemplatePart } from '../spec/index.js';
import { projectionFailure } from './projection-failure.js';

/** What turning an item into a document needs from its projection. */
export interface ItemScope {
  p: ProjectionSpec;
  specFile: string;
  reducer: LoadedReducer;
  /** The identity template, parsed once per projection. */
  idParts: TemplatePart[];
}

/** A document as the reducer made it, ready for the envelope. */
export interface ItemDocument {
  namespace: string;
  type: string;
  id: string;
  data: Record<string, unknown>;
}

/**
 * The item's id and document key.
 *
 * @example
 * itemIdentity(scope, { repository: 'o/r', vars: { repo: 'o/r', number: 7 }, item, matches: true }); // { id: 'o/r#7', key: 'github/issue/o/r#7.json' }
 */
export function itemIdentity(scope: ItemScope, it: SourceItem): { id: string; key: string } {
  const { p, specFile, idParts } = scope;
  const from = it.repository || 'the source';
  let id: string;
  try {
    id = renderTemplate(idParts, itemVariables(idParts, it.vars, it.item));
  } catch (e) {
    throw projectionFailure(specFile, p, p.lines.id, 'identity.id', `: ${(e as Error).message} (item from ${from})`);
  }
  try {
    return { id, key: deriveKey({ namespace: p.identity.namespace, doc_type: p.identity.type, id }) };
  } catch (e) {
    throw projectionFailure(
      specFile,
      p,
      p.lines.id,
      'identity.id',
      `: template ${JSON.stringify(p.identity.id)} produced id ${JSON.stringify(id)} (item from ${from}), which is not a valid document id: ${(e as Error).message}`,
      {},
      e,
    );
  }
}

/**
 * The reducer's data for the item, or null when it skips the item. A reducer that throws, times out, or
 * returns anything but a plain object fails the run naming the projection and the reducer's spec line.
 *
 * @example
 * const data = await reduceItem(scope, it, key, id); // { title: 'Bug' } or null
 */
export async function reduceItem(
  scope: ItemScope,
  it: SourceItem,
  key: string,
  id: string,
): Promise<Record<string, unknown> | null> {
  const { p, specFile } = scope;
  const context: ReducerContext = {
    projection: p.name,
    source: p.source.type,
    repository: it.repository,
    owner: String(it.vars.owner ?? ''),
    name: String(it.vars.name ?? ''),
    identity: { namespace: p.identity.namespace, type: p.identity.type, id },
  };
  let data: unknown;
  try {
    data = await scope.reducer.reduce(it.item, context);
  } catch (e) {
    throw reducerFailure(scope, key, e);
  }
  if (data === null || data === undefined) return null;
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw projectionFailure(
      specFile,
      p,
      p.lines.reducer,
      'reducer',
      ` returned ${Array.isArray(data) ? 'an array' : typeof data} for ${key}; a reducer must return a plain object (the document's data) or null to skip`,
      { key },
    );
  }
  return data as Record<string, unknown>;
}

function reducerFailure({ p, specFile }: ItemScope, key: string, e: unknown): Error {
  if (e instanceof ReducerCallError && e.kind === 'timeout') {
    return projectionFailure(
      specFile,
      p,
      p.lines.reducer,
      'reducer',
      ` (projection "${p.name}") ${e.message} on ${key} and was stopped; make it faster or raise the reducer time limit`,
      { key, reason: 'timeout', projection: p.name },
      e,
    );
  }
  if (e instanceof ReducerCallError && e.kind === 'unclonable') {
    return projectionFailure(
      specFile,
      p,
      p.lines.reducer,
      'reducer',
      ` returned data for ${key} that cannot be stored as JSON: ${e.message}`,
      { key, projection: p.name },
      e,
    );
  }
  return projectionFailure(
    specFile,
    p,
    p.lines.reducer,
    'reducer',
    ` failed on ${key}: ${(e as Error)?.message ?? String(e)}`,
    { key, projection: p.name },
    e,
  );
}

/**
 * The document and its envelope bytes (whose blob SHA is compared with the section's tip).
 *
 * @example
 * const { document, bytes } = encodeDocument(scope, key, id, { title: 'Bug' });
 */
export function encodeDocument(
  { p, specFile }: ItemScope,
  key: string,
  id: string,
  data: Record<string, unknown>,
): { document: ItemDocument; bytes: Uint8Array } {
  const document = { namespace: p.identity.namespace, type: p.identity.type, id, data };
  try {
    return { document, bytes: encodeEnvelope(document) };
  } catch (e) {
    throw projectionFailure(
      specFile,
      p,
      p.lines.reducer,
      'reducer',
      ` returned data for ${key} that cannot be stored as JSON: ${(e as Error).message}`,
      { key },
      e,
    );
  }
}
