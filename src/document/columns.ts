/**
 * The columns of a type's documents as tables show them — the viewer's table and the SQLite export: a column
 * is a field path (`id` or `data.<path>`, as docs/indexes.md names fields), from the type's index, or else from
 * the leaf paths of a sample of its documents. Pure; values come from a section and are untrusted.
 */

/** Documents read to find the columns of a type without an index. */
export const SAMPLE_SIZE = 20;
/** Most columns the sample gives (an index has at most 8 fields). */
export const MAX_SAMPLE_COLUMNS = 12;
/**
 * The columns of an indexed type: `id` first, then the index's fields in declaration order.
 *
 * @example
 * indexColumns(['data.stars', 'id']); // ['id', 'data.stars']
 */
export function indexColumns(fields: readonly string[]): string[] {
  return ['id', ...fields.filter((f) => f !== 'id')];
}

/** Leaf paths of `value` under `prefix`: objects are opened two levels deep, arrays are one value. */
function leafPaths(value: unknown, prefix: string, depth: number, out: string[]): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || depth === 0) {
    if (!out.includes(prefix)) out.push(prefix);
    return;
  }
  for (const key of Object.keys(value)) {
    if (key === '' || key.includes('.')) continue; // not addressable as a dotted path
    leafPaths((value as Record<string, unknown>)[key], `${prefix}.${key}`, depth - 1, out);
  }
}

/**
 * The columns of a type without an index, from a sample of its documents' data: `id`, then each leaf
 * path in the order first seen (at most {@link MAX_SAMPLE_COLUMNS}).
 *
 * @example
 * sampleColumns([{ stars: 1, owner: { login: 'o' } }]); // ['id', 'data.stars', 'data.owner.login']
 */
export function sampleColumns(data: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const d of data) {
    if (d !== null && typeof d === 'object' && !Array.isArray(d)) leafPaths(d, 'data', 2, out);
    else if (!out.includes('data')) out.push('data');
  }
  return ['id', ...out.slice(0, MAX_SAMPLE_COLUMNS - 1)];
}

/**
 * The value at a field path of a document (`id` or `data.<path>`), undefined when a step is missing.
 *
 * @example
 * fieldValue('octo/a', { owner: { login: 'o' } }, 'data.owner.login'); // 'o'
 */
export function fieldValue(id: string, data: unknown, field: string): unknown {
  if (field === 'id') return id;
  let here: unknown = data;
  for (const segment of field.split('.').slice(1)) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, segment)) return undefined;
    here = (here as Record<string, unknown>)[segment];
  }
  return here;
}
