/**
 * Test helper: validates emulator exchanges against the operations extracted from GitHub's OpenAPI
 * description (__tests__/fixtures/openapi/github-subset.json, produced by scripts/extract-openapi.mjs).
 *
 * - `checkResponseRecord` validates one answer as the emulator's `onResponse` hook sees it; the
 *   `startEmulator` of ./checked-emulator.ts uses it so EVERY answer is validated, whoever the client is.
 * - `apiClient` wraps fetch and also checks that the emulator only accepts request bodies that
 *   satisfy the operation's request schema.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ResponseRecord } from '../../src/emulator/index.js';

interface Operation {
  method: string;
  path: string;
  requestBody: unknown;
  responses: Record<string, unknown>;
}
interface Subset {
  source: { package: string; version: string };
  operations: Record<string, Operation>;
  components: { schemas: Record<string, unknown> };
}

export const subset: Subset = JSON.parse(
  readFileSync(new URL('../fixtures/openapi/github-subset.json', import.meta.url), 'utf8'),
);

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
const ROOT = 'https://docdb.invalid/github-subset';
ajv.addSchema({ $id: ROOT, components: toJsonSchema(subset.components) });

/** OpenAPI 3.0 → JSON Schema: `nullable: true` (ajv only accepts it next to `type`) and `oneOf`. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'required' ? v : toJsonSchema(v);
  // The description's `oneOf`s overlap (a 422 body is both a basic-error and a validation-error, real
  // GitHub bodies included), so they are checked as `anyOf`.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
      if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
      return out;
    }
    return { anyOf: [out, { type: 'null' }] };
  }
  delete out.nullable;
  return out;
}

const compiled = new Map<string, ValidateFunction>();
function compile(key: string, schema: unknown): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    const rewritten = JSON.parse(
      JSON.stringify(toJsonSchema(schema)).replaceAll('"#/components/', `"${ROOT}#/components/`),
    );
    v = ajv.compile(rewritten);
    compiled.set(key, v);
  }
  return v;
}

const matchers = Object.entries(subset.operations).map(([id, op]) => ({
  id,
  op,
  regex: new RegExp(
    `^${op.path.replace(/\{(\w+)\}/g, (_m, n: string) => (n === 'ref' || n === 'path' || n === 'basehead' ? '(.*)' : '([^/]+)'))}$`,
  ),
}));

/** The OpenAPI operation for a method and path (query stripped), if the subset has it. */
export function findOperation(method: string, path: string): { id: string; op: Operation } | undefined {
  const p = path.split('?')[0] as string;
  const hits = matchers.filter((m) => m.op.method === method.toUpperCase() && m.regex.test(p));
  // Prefer the most specific template (fewest parameters).
  hits.sort((a, b) => (a.op.path.match(/\{/g)?.length ?? 0) - (b.op.path.match(/\{/g)?.length ?? 0));
  return hits[0];
}

function errorsText(v: ValidateFunction): string {
  return (v.errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || '(root)'} ${e.message} ${JSON.stringify(e.params)}`)
    .join('\n');
}

/**
 * Throw unless `body` matches the response schema for (method, path, status). Statuses the description
 * does not list for the operation (401, 403, 413, 5xx) must be a basic-error; unknown operations
 * (the legacy `GET /git/refs`) are checked against git-ref.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown): void {
  if (status === 204 || status === 304) {
    if (body !== undefined) throw new Error(`${method} ${path} ${status} must have no body`);
    return;
  }
  const found = findOperation(method, path);
  let key: string;
  let schema: unknown;
  if (status >= 400) {
    const listed = found?.op.responses[String(status)];
    key = listed ? `${found?.id}:${status}` : 'basic-error';
    schema = listed ?? { $ref: '#/components/schemas/basic-error' };
    // Every GitHub error body has a message and a documentation_url.
    const b = body as Record<string, unknown>;
    if (typeof b?.message !== 'string' || typeof b?.documentation_url !== 'string') {
      throw new Error(
        `${method} ${path} ${status}: error body lacks message/documentation_url: ${JSON.stringify(body)}`,
      );
    }
  } else if (found) {
    schema = found.op.responses[String(status)];
    key = `${found.id}:${status}`;
    // A documented response without content (a 302, a 304) must come without a body.
    if (schema === null && String(status) in found.op.responses) {
      if (body !== undefined) throw new Error(`${method} ${path}: status ${status} is documented without a body`);
      return;
    }
    if (!schema) throw new Error(`${method} ${path}: status ${status} is not a documented response of ${found.id}`);
  } else if (method === 'GET' && /\/git\/refs(\/|$)/.test(path)) {
    key = 'legacy-refs';
    schema = {
      anyOf: [
        { $ref: '#/components/schemas/git-ref' },
        { type: 'array', items: { $ref: '#/components/schemas/git-ref' } },
      ],
    };
  } else if (method === 'POST' && path === '/graphql') {
    // GraphQL is not in the OpenAPI description: check the GraphQL response format GitHub uses instead
    // (https://spec.graphql.org/October2021/#sec-Response-Format plus GitHub's top-level error `type`).
    key = 'graphql-response';
    schema = GRAPHQL_RESPONSE;
  } else {
    throw new Error(`${method} ${path} ${status}: no OpenAPI operation to validate against`);
  }
  const v = compile(key, schema);
  if (!v(body)) {
    throw new Error(
      `${method} ${path} ${status} does not match ${key}:\n${errorsText(v)}\nbody: ${JSON.stringify(body).slice(0, 600)}`,
    );
  }
}

const GRAPHQL_RESPONSE = {
  type: 'object',
  additionalProperties: false,
  anyOf: [{ required: ['data'] }, { required: ['errors'] }],
  properties: {
    data: { type: ['object', 'null'] },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string' },
          type: { type: 'string' },
          code: { type: 'string' },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          locations: {
            type: 'array',
            items: {
              type: 'object',
              required: ['line', 'column'],
              properties: { line: { type: 'integer' }, column: { type: 'integer' } },
            },
          },
          extensions: { type: 'object' },
        },
        additionalProperties: false,
      },
    },
  },
};

/** True when `body` satisfies the operation's request schema (or the operation has none). */
export function requestBodyValid(method: string, path: string, body: unknown): boolean {
  const found = findOperation(method, path);
  if (!found?.op.requestBody) return true;
  return compile(`${found.id}:request`, found.op.requestBody)(body);
}

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when empty). */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON in tests
  body: any;
  text: string;
}

/**
 * A fetch wrapper for tests: sends JSON, parses the answer, and validates both sides against the
 * OpenAPI subset — a 2xx answer to a body that violates the request schema fails the test, as does
 * any response that violates its response schema.
 */
export function apiClient(baseUrl: string, token?: string) {
  return async function call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const h: Record<string, string> = {
      Accept: 'application/vnd.github+json',
      'X-GitHub-Api-Version': '2022-11-28',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    };
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    if (text !== '') {
      if (!(res.headers.get('content-type') ?? '').startsWith('application/json; charset=utf-8')) {
        throw new Error(`${method} ${path}: body without application/json; charset=utf-8 content type`);
      }
      parsed = JSON.parse(text);
    }
    validateResponse(method, path, res.status, parsed);
    if (body !== undefined && typeof body !== 'string' && res.status < 300 && !requestBodyValid(method, path, body)) {
      throw new Error(`${method} ${path}: emulator accepted a body that violates the request schema`);
    }
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are untyped JSON in tests
    return { status: res.status, headers: res.headers, body: parsed as any, text };
  };
}

/**
 * Validate one answer the emulator wrote (as its `onResponse` hook sees it). Bodies written by a test
 * (`status` faults with a `body`, `malformed-json`) are skipped; HEAD answers have no body to check.
 * Returns whether the answer was validated.
 */
export function checkResponseRecord(r: ResponseRecord): boolean {
  if (r.injectedBody || r.method === 'HEAD') return false;
  let body: unknown;
  if (r.body !== undefined && r.body !== '' && r.headers['Content-Type']?.startsWith('application/vnd.github.raw')) {
    // The raw media type: the file's own bytes, which no JSON schema describes (only the status is checked).
    if (r.operation !== 'repos/get-content' || r.status !== 200) {
      throw new Error(`${r.method} ${r.path} ${r.status}: a raw body outside GET /contents`);
    }
    return true;
  }
  if (r.body !== undefined && r.body !== '') {
    if (r.headers['Content-Type'] !== 'application/json; charset=utf-8') {
      throw new Error(`${r.method} ${r.path} ${r.status}: body without application/json; charset=utf-8 content type`);
    }
    body = JSON.parse(r.body);
  }
  validateResponse(r.method, r.path, r.status, body);
  return true;
}
