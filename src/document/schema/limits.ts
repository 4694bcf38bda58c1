/**
 * What a per-type schema may contain. Schemas are untrusted input (a writer with push access declares
 * them), so the validator accepts a listed vocabulary of JSON Schema 2020-12 within fixed caps.
 */

/** Deepest nesting of schema objects and arrays (the root schema is depth 0). */
export const MAX_SCHEMA_DEPTH = 32;
/** Bytes of the schema as JSON. */
export const MAX_SCHEMA_BYTES = 64 * 1024;
/** Keywords in the whole schema (every key of every schema object counts). */
export const MAX_SCHEMA_KEYWORDS = 2_000;

/** The only `$schema` accepted (or none). */
export const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** `format` values checked (others are refused, so a typo does not silently check nothing). */
export const FORMATS = ['date', 'time', 'date-time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid'] as const;

export const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array'] as const;

/** Keywords whose value is one subschema. */
export const SCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
] as const;
/** Keywords whose value is a non-empty array of subschemas. */
export const SCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value is an object of subschemas. */
export const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
/** Keywords whose value is a non-negative integer. */
export const COUNT_KEYWORDS = [
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
] as const;
/** Keywords whose value is a number. */
export const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
/** Annotations: accepted, never checked. */
export const ANNOTATION_KEYWORDS = [
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
] as const;
/** The other keywords, each checked on its own. */
export const OTHER_KEYWORDS = [
  '$schema',
  '$id',
  '$ref',
  '$anchor',
  'type',
  'enum',
  'const',
  'required',
  'dependentRequired',
  'pattern',
  'format',
  'uniqueItems',
] as const;

export const ALLOWED_KEYWORDS: ReadonlySet<string> = new Set([
  ...SCHEMA_KEYWORDS,
  ...SCHEMA_ARRAY_KEYWORDS,
  ...SCHEMA_MAP_KEYWORDS,
  ...COUNT_KEYWORDS,
  ...NUMBER_KEYWORDS,
  ...ANNOTATION_KEYWORDS,
  ...OTHER_KEYWORDS,
]);
