#!/usr/bin/env node
/**
 * Extract the operations the emulator serves from GitHub's official OpenAPI description
 * (npm `@octokit/openapi`) into a small committed fixture, __tests__/fixtures/openapi/github-subset.json.
 *
 * The package is ~400 MB, so it is installed into a temporary prefix OUTSIDE the repository
 * (`$OPENAPI_PREFIX`, default `$TMPDIR/docdb-openapi-<version>`) and never into node_modules.
 *
 *   node scripts/extract-openapi.mjs            # install (if needed) and write the fixture
 *   OPENAPI_PREFIX=/tmp/x node scripts/extract-openapi.mjs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '23.0.2';
const OPERATIONS = [
  'git/create-blob',
  'git/get-blob',
  'git/create-tree',
  'git/get-tree',
  'git/create-commit',
  'git/get-commit',
  'git/get-ref',
  'git/list-matching-refs',
  'git/create-ref',
  'git/update-ref',
  'git/delete-ref',
  'repos/get',
  'repos/list-commits',
  'repos/list-branches',
  'repos/list-for-org',
  'repos/list-for-user',
  'issues/list-for-repo',
  'issues/create-label',
  'pulls/list',
  'repos/list-releases',
  'rate-limit/get',
  'actions/list-workflow-runs-for-repo',
  'repos/compare-commits-with-basehead',
  'repos/get-content',
  'repos/create-or-update-file-contents',
  'repos/download-tarball-archive',
  'repos/create-dispatch-event',
  // Issue 39 (review a data change in its pull request): the pull request, its sticky comment, the check
  // run or commit status on its head, and the token's own account (to recognise its comment).
  'pulls/get',
  'issues/list-comments',
  'issues/create-comment',
  'issues/update-comment',
  'checks/create',
  'checks/update',
  'checks/list-for-ref',
  'repos/create-commit-status',
  'users/get-authenticated',
];

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = process.env.OPENAPI_PREFIX ?? join(tmpdir(), `docdb-openapi-${VERSION}`);
const pkgDir = join(prefix, 'node_modules', '@octokit', 'openapi');
if (!existsSync(join(pkgDir, 'generated', 'api.github.com.json'))) {
  mkdirSync(prefix, { recursive: true });
  console.error(`installing @octokit/openapi@${VERSION} into ${prefix} (outside the repository) ...`);
  execFileSync('npm', ['install', '--prefix', prefix, '--no-audit', '--no-fund', `@octokit/openapi@${VERSION}`], {
    stdio: 'inherit',
  });
}
const installed = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
if (installed !== VERSION) throw new Error(`expected @octokit/openapi@${VERSION} in ${prefix}, found ${installed}`);
const spec = JSON.parse(readFileSync(join(pkgDir, 'generated', 'api.github.com.json'), 'utf8'));

/** Follow a local `$ref` like `#/components/responses/not_found`. */
function deref(ref) {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((o, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

const neededSchemas = new Set();
function collectRefs(node) {
  if (Array.isArray(node)) node.forEach(collectRefs);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const m = /^#\/components\/schemas\/(.+)$/.exec(v);
        if (!m) throw new Error(`unexpected $ref ${v}`);
        if (!neededSchemas.has(m[1])) {
          neededSchemas.add(m[1]);
          collectRefs(spec.components.schemas[m[1]]);
        }
      } else collectRefs(v);
    }
  }
}

/** Drop documentation-only keys to keep the fixture small; keep every validation keyword. */
function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'description' || k === 'example' || k === 'examples' || k === 'title' || k.startsWith('x-')) {
      // `description`/`title` may also be property NAMES inside `properties`: keep those.
      if (
        typeof v !== 'object' ||
        v === null ||
        Array.isArray(v) ||
        !('type' in v || '$ref' in v || 'anyOf' in v || 'oneOf' in v || 'allOf' in v)
      )
        continue;
    }
    out[k] = strip(v);
  }
  return out;
}

const operations = {};
for (const [path, item] of Object.entries(spec.paths)) {
  for (const [method, op] of Object.entries(item)) {
    if (!op || typeof op !== 'object' || !OPERATIONS.includes(op.operationId)) continue;
    const responses = {};
    for (const [status, r0] of Object.entries(op.responses)) {
      const r = r0.$ref ? deref(r0.$ref) : r0;
      const schema = r.content?.['application/json']?.schema ?? r.content?.['application/scim+json']?.schema;
      responses[status] = schema ? strip(schema) : null;
    }
    let requestBody = null;
    if (op.requestBody) {
      const rb = op.requestBody.$ref ? deref(op.requestBody.$ref) : op.requestBody;
      requestBody = strip(rb.content?.['application/json']?.schema ?? null);
    }
    operations[op.operationId] = { method: method.toUpperCase(), path, requestBody, responses };
  }
}
const missing = OPERATIONS.filter((o) => !operations[o]);
if (missing.length > 0) throw new Error(`operations not found in the description: ${missing.join(', ')}`);
collectRefs(operations);
const schemas = {};
for (const name of [...neededSchemas].sort()) schemas[name] = strip(spec.components.schemas[name]);

const out = {
  source: {
    package: '@octokit/openapi',
    version: VERSION,
    file: 'generated/api.github.com.json',
    openapi: spec.openapi,
  },
  operations,
  components: { schemas },
};
const file = join(root, '__tests__', 'fixtures', 'openapi', 'github-subset.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(out, null, 1)}\n`);
console.error(`wrote ${file}: ${Object.keys(operations).length} operations, ${Object.keys(schemas).length} schemas`);
