/**
 * The few GraphQL queries the read path sends (GitHub's GraphQL API needs a token; it has no ETags and its
 * own points budget, https://docs.github.com/graphql/overview/rate-limits-and-node-limits-for-the-graphql-api):
 * - the tree levels on a key's path (`object(expression: "<tree>:<dir>") { ... on Tree { entries } }`), for
 *   a cold one-key lookup (a write's) without the section's recursive listing;
 * - the objects at a few paths of a commit, for the derive reads of every write (derived-reads.ts).
 * The batched blob reads of bulk and versioned reads are in graphql-blobs.ts (they load on first use in a
 * browser bundle; these load with the write path).
 * An answer with `errors` or without the expected data yields `undefined`: the caller falls back to REST.
 */
import type { CachedTreeEntry } from '../../cache/git-cache.js';
import { utf8 } from '../../core/bytes.js';
import { blobShaAsync, isSha } from '../../core/git/objects.js';
import type { GitHubClient, OpContext } from './client.js';
import { levelSha } from './local-trees.js';
import { isObject } from './shapes.js';

/** What the GraphQL reader borrows from the store. */
export interface GraphqlDeps {
  client: Pick<GitHubClient, 'send'>;
  /** `https://api.github.com/graphql`, or `https://HOST/api/graphql` on GitHub Enterprise Server. */
  url: string;
  owner: string;
  repo: string;
}

/** Blobs per query: 100 aliases keep a query and its answer small (GitHub documents no alias limit). */
export const GRAPHQL_BLOB_BATCH = 100;

export { graphqlUrl } from './graphql-url.js';

/**
 * The `repository` object of a query's answer, or undefined when the answer has errors.
 *
 * @example
 * const repo = await query(deps, ctx, 'read path levels', 'r: object(expression: $r) { oid }', { r: `${tree}:` });
 */
export async function query(
  d: GraphqlDeps,
  ctx: OpContext,
  step: string,
  fields: string,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  if (ctx.token === undefined) return undefined; // no anonymous GraphQL on GitHub
  // Every variable is a String (expressions); oids are written inline after an isSha check.
  const vars = Object.keys(variables).map((k) => `$${k}: String!`);
  const text = `query(${['$owner: String!', '$name: String!', ...vars].join(', ')}) { repository(owner: $owner, name: $name) { ${fields} } }`;
  const res = await d.client.send(ctx, {
    step,
    method: 'POST',
    url: d.url,
    body: { query: text, variables: { owner: d.owner, name: d.repo, ...variables } },
    retry: true,
    mutates: false, // a query: not paced as a write
    accept: [400, 401, 403, 404, 422, 502],
  });
  if (res.status !== 200) return undefined;
  const j = res.json();
  if (!isObject(j) || j.errors !== undefined || !isObject(j.data) || !isObject(j.data.repository)) return undefined;
  return j.data.repository;
}

/** One Tree answer's entries as cached tree entries, or undefined when malformed. */
function levelEntries(o: unknown): { oid: string; entries: CachedTreeEntry[] } | undefined {
  if (!isObject(o) || o.__typename !== 'Tree' || !isSha(o.oid) || !Array.isArray(o.entries)) return undefined;
  const entries: CachedTreeEntry[] = [];
  for (const e of o.entries) {
    if (!isObject(e) || typeof e.name !== 'string' || !isSha(e.oid) || typeof e.mode !== 'number') return undefined;
    const mode = e.mode.toString(8).padStart(6, '0');
    const type = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    entries.push({ name: e.name, mode, type, sha: e.oid });
  }
  return { oid: o.oid, entries };
}

/**
 * The tree levels on `path` in tree `root` — the root and every directory above the key that exists — in one
 * query, each kept only when its entries hash to its SHA (so a level is never cached incomplete). Bytes ∝ the
 * levels on the key's path, not the section; undefined when GraphQL cannot answer.
 *
 * @example
 * const levels = await pathLevels(deps, ctx, rootTree, 'github/repo/o/r.json'); // Map { treeSha → entries }
 */
export async function pathLevels(
  d: GraphqlDeps,
  ctx: OpContext,
  root: string,
  path: string,
): Promise<Map<string, CachedTreeEntry[]> | undefined> {
  const segs = path.split('/');
  const dirs = segs.slice(0, -1).map((_, i) => segs.slice(0, i + 1).join('/'));
  const vars: Record<string, string> = {};
  const tree = '{ __typename ... on Tree { oid entries { name oid mode } } }';
  const fields = [`r: object(expression: $r) ${tree}`];
  vars.r = `${root}:`;
  dirs.forEach((dir, i) => {
    vars[`d${i}`] = `${root}:${dir}`;
    fields.push(`d${i}: object(expression: $d${i}) ${tree}`);
  });
  const repo = await query(d, ctx, 'read path levels', fields.join(' '), vars);
  if (!repo) return undefined;
  const out = new Map<string, CachedTreeEntry[]>();
  for (const name of ['r', ...dirs.map((_, i) => `d${i}`)]) {
    const level = repo[name] === null ? undefined : levelEntries(repo[name]);
    if (!level) break; // absent or not a directory: the levels below it do not exist either
    if (levelSha(level.entries) === level.oid) out.set(level.oid, level.entries);
  }
  return out;
}

/** What `object(expression: "<tree>:<path>")` named: a blob (with its bytes when exact), a tree, or nothing usable. */
export type ObjectAt =
  | { type: 'Blob'; oid: string; bytes?: Uint8Array }
  | { type: 'Tree'; oid: string }
  | { type: 'other' }
  | null;

/** One path asked for: a value (`text`), its type only (`type`), or a directory's entries (`level`). */
export interface ObjectAsk {
  path: string;
  want: 'text' | 'type' | 'level';
}

/**
 * What each path is in tree `root`, in ONE query per {@link GRAPHQL_BLOB_BATCH} paths: `text` paths come with
 * their bytes when GraphQL gives them exactly (not binary, not truncated, hashing to the oid — else read them
 * by SHA); `level` paths (directories) with their entries, each level kept only when its entries hash to its
 * SHA; `type` paths with their type and oid only (a few bytes). Undefined when GraphQL cannot answer.
 *
 * @example
 * const at = await objectsAt(deps, ctx, rootTree, [{ path: '_docdb', want: 'level' }, { path: '_docdb/indexes.json', want: 'text' }]);
 * at?.objects.get('_docdb/indexes.json'); // { type: 'Blob', oid, bytes } | null
 */
export async function objectsAt(
  d: GraphqlDeps,
  ctx: OpContext,
  root: string,
  asks: readonly ObjectAsk[],
): Promise<{ objects: Map<string, ObjectAt>; levels: Map<string, CachedTreeEntry[]> } | undefined> {
  const objects = new Map<string, ObjectAt>();
  const levels = new Map<string, CachedTreeEntry[]>();
  const want = {
    text: '... on Blob { text isBinary isTruncated byteSize }',
    type: '',
    level: '... on Tree { entries { name oid mode } }',
  };
  for (let i = 0; i < asks.length; i += GRAPHQL_BLOB_BATCH) {
    const batch = asks.slice(i, i + GRAPHQL_BLOB_BATCH);
    const vars: Record<string, string> = {};
    const fields = batch.map((a, j) => {
      vars[`e${j}`] = `${root}:${a.path}`;
      return `e${j}: object(expression: $e${j}) { __typename oid ${want[a.want]} }`;
    });
    const repo = await query(d, ctx, 'read derived keys (GraphQL)', fields.join(' '), vars);
    if (!repo) return undefined;
    for (const [j, a] of batch.entries()) {
      const o = repo[`e${j}`];
      objects.set(a.path, await objectAt(o));
      const level = a.want === 'level' && isObject(o) ? levelEntries(o) : undefined;
      if (level && levelSha(level.entries) === level.oid) levels.set(level.oid, level.entries);
    }
  }
  return { objects, levels };
}

/** One answered object, checked: an untrusted blob text is kept only when it hashes to the blob's oid. */
/**
 * One `object(...)` answer as an {@link ObjectAt} (a blob's bytes only when they hash to its oid).
 *
 * @example
 * const o = await objectAt(repo.e0); // { type: 'Blob', oid, bytes } | { type: 'Tree', oid } | …
 */
export async function objectAt(o: unknown): Promise<ObjectAt> {
  if (!isObject(o) || !isSha(o.oid)) return null;
  if (o.__typename === 'Tree') return { type: 'Tree', oid: o.oid };
  if (o.__typename !== 'Blob') return { type: 'other' };
  const exact = o.isBinary === false && o.isTruncated === false && typeof o.text === 'string';
  const bytes = exact ? utf8(o.text as string) : undefined;
  const ok = bytes !== undefined && (await blobShaAsync(bytes)) === o.oid;
  return ok ? { type: 'Blob', oid: o.oid, bytes } : { type: 'Blob', oid: o.oid };
}
