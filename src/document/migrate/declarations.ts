/**
 * What a migration's commit declares besides its documents, read at the version the migration read: the
 * index declaration (index-fields.ts: renames followed, drops removed, a move-type takes it along) and the
 * types' schemas — `schema` when given, declared on the type the documents end in; without one, a move-type
 * takes the old type's schema to the new type (unless that has its own), as it takes the index. One bulk
 * read of the declaration files, counted in the migration's cost.
 */
import { readManyFrom } from '../../core/read-many.js';
import type { OperationMeta, RefStore } from '../../core/refstore.js';
import type { VersionId } from '../../core/version.js';

import { DECLARATION_KEY, parseDeclaration, type TypeIndex } from '../indexes/index.js';
import { parseTypeDeclaration, type TypeSchema, typeDeclarationPath } from '../schema/declaration.js';
import { indexChanges } from './index-fields.js';
import type { MigrationOperation } from './operations.js';

export interface MigrationDeclarations {
  indexes: TypeIndex[];
  schemas: TypeSchema[];
}

/**
 * The declarations the commit makes (empty lists: none).
 *
 * @example
 * const { indexes, schemas } = await migrationDeclarations(store, version, { namespace: 'n', type: 't', operations }, onMeta);
 */
export async function migrationDeclarations(
  store: RefStore,
  version: VersionId,
  o: { namespace: string; type: string; operations: readonly MigrationOperation[]; schema?: object | null },
  onMeta: (m: OperationMeta) => void,
): Promise<MigrationDeclarations> {
  const move = o.operations.find((x) => x.op === 'move-type');
  const touchesIndex = o.operations.some((x) => x.op === 'move-type' || x.op === 'rename' || x.op === 'drop');
  const source = typeDeclarationPath(o.namespace, o.type);
  const target = move ? typeDeclarationPath(move.namespace, move.type) : undefined;
  const keys = [
    ...(touchesIndex ? [DECLARATION_KEY] : []),
    ...(move && o.schema === undefined ? [source, target as string] : []),
  ];
  const values = new Map<string, Uint8Array | null>();
  if (keys.length > 0) {
    for await (const item of readManyFrom(store, keys, { version, onMeta })) values.set(item.key, item.value);
  }
  const declared = parseDeclaration(values.get(DECLARATION_KEY) ?? undefined).indexes;
  const indexes = touchesIndex ? indexChanges(declared, o.namespace, o.type, o.operations) : [];
  const ends = move ? { namespace: move.namespace, type: move.type } : { namespace: o.namespace, type: o.type };
  if (o.schema !== undefined) return { indexes, schemas: [{ ...ends, schema: o.schema }] };
  if (!move) return { indexes, schemas: [] };
  const old = parseTypeDeclaration(source, values.get(source) ?? undefined);
  if (!old) return { indexes, schemas: [] };
  const theirs = parseTypeDeclaration(target as string, values.get(target as string) ?? undefined);
  const schemas: TypeSchema[] = [{ namespace: o.namespace, type: o.type, schema: null }];
  if (!theirs) schemas.push({ ...ends, schema: old.schema });
  return { indexes, schemas };
}
