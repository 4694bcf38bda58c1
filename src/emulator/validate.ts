/**
 * Request-body checks for the operations the emulator serves, mirroring the request schemas in
 * GitHub's OpenAPI description and GitHub's wording for schema failures
 * (`Invalid request.\n\n"sha" wasn't supplied.`, `For 'properties/force', "x" is not a boolean.`),
 * and the one path parameter format GitHub checks the same way (a 40-hex SHA).
 */
import { ApiError, invalidRequest } from './http.js';

type Json = Record<string, unknown>;

function show(v: unknown): string {
  return JSON.stringify(v) ?? String(v);
}

/**
 * The body as an object, or 422 naming what is wrong.
 *
 * @example
 * const body = objectBody(ctx.body, doc);
 */
export function objectBody(body: unknown, doc: string): Json {
  if (body === undefined) throw invalidRequest('Body must be a JSON object, got an empty body.', doc);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest(`${show(body)} is not an object.`, doc);
  }
  return body as Json;
}

/**
 * 422 naming the required properties the body lacks.
 *
 * @example
 * requireKeys(body, ['ref', 'sha'], doc); // `"sha" wasn't supplied.`
 */
export function requireKeys(body: Json, keys: string[], doc: string): void {
  const missing = keys.filter((k) => body[k] === undefined);
  if (missing.length === 1) throw invalidRequest(`"${missing[0]}" wasn't supplied.`, doc);
  if (missing.length > 1) throw invalidRequest(`${missing.map((k) => `"${k}"`).join(', ')} weren't supplied.`, doc);
}

/**
 * Check a property's JSON type (`null` allowed only when `nullable`). `where` is like `properties/sha`.
 *
 * @example
 * checkType(body.force, 'boolean', 'properties/force', doc); // `For 'properties/force', "x" is not a boolean.`
 */
export function checkType(
  value: unknown,
  type: 'string' | 'boolean' | 'array' | 'object' | 'integer',
  where: string,
  doc: string,
  nullable = false,
): void {
  if (value === undefined) return;
  if (value === null && nullable) return;
  const ok =
    type === 'array'
      ? Array.isArray(value)
      : type === 'object'
        ? value !== null && typeof value === 'object' && !Array.isArray(value)
        : type === 'integer'
          ? Number.isInteger(value)
          : typeof value === type;
  if (!ok)
    throw invalidRequest(
      `For '${where}', ${show(value)} is not ${type === 'array' || type === 'object' || type === 'integer' ? 'an' : 'a'} ${type}${nullable ? ' or null' : ''}.`,
      doc,
    );
}

/**
 * 422 when a string property is not one of the allowed values.
 *
 * @example
 * checkEnum(entry.mode, TREE_MODES, 'items/0/properties/mode', doc);
 */
export function checkEnum(value: unknown, allowed: readonly string[], where: string, doc: string): void {
  if (value === undefined) return;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw invalidRequest(`For '${where}', ${show(value)} is not one of ${show(allowed)}.`, doc);
  }
}

/**
 * Check the JSON types of several properties (`string?` is a nullable string). Unknown properties are
 * ignored, as GitHub does.
 *
 * @example
 * checkProps(body, { sha: 'string', force: 'boolean' }, doc);
 */
export function checkProps(
  body: Json,
  spec: Record<string, 'string' | 'boolean' | 'array' | 'object' | 'string?'>,
  doc: string,
  prefix = 'properties',
): void {
  for (const [k, t] of Object.entries(spec)) {
    if (t === 'string?') checkType(body[k], 'string', `${prefix}/${k}`, doc, true);
    else checkType(body[k], t, `${prefix}/${k}`, doc);
  }
}

/**
 * A SHA path parameter (`GET /git/blobs/{sha}` etc.): a malformed one is 422 like GitHub; lower-cased.
 *
 * @example
 * shaParam(ctx.params.file_sha as string, DOC.getBlob);
 */
export function shaParam(value: string, doc: string): string {
  if (!/^[0-9a-fA-F]{40}$/.test(value)) {
    throw new ApiError(422, 'The sha parameter must be exactly 40 characters and contain only [0-9a-f].', doc);
  }
  return value.toLowerCase();
}
