/**
 * Seed format (JSON or YAML) describing accounts, repositories with commits, branches, refs, issues,
 * pulls and releases, and tokens; plus the built-in demo seed. Validated with zod so a bad seed names
 * the field at fault.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { fullRefName } from './revisions.js';
import type { EmulatorState } from './state.js';

const files = z.record(z.string(), z.string().nullable());
const permissionLevel = z.enum(['read', 'write', 'none']).optional();
const date = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO 8601 date');

const commitSchema = z.object({
  branch: z.string().optional(),
  orphan: z.boolean().optional(),
  message: z.string().optional(),
  date: date.optional(),
  author: z.object({ name: z.string(), email: z.string() }).optional(),
  files,
});

const issueSchema = z.object({
  title: z.string().min(1),
  body: z.string().nullable().optional(),
  state: z.enum(['open', 'closed']).optional(),
  user: z.string().optional(),
  labels: z.array(z.string()).optional(),
  comments: z.number().int().nonnegative().optional(),
  createdAt: date.optional(),
  updatedAt: date.optional(),
  closedAt: date.nullable().optional(),
});

const repoSchema = z.object({
  /** Full name `owner/name`. */
  name: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must be "owner/name"'),
  private: z.boolean().optional(),
  description: z.string().nullable().optional(),
  defaultBranch: z.string().optional(),
  topics: z.array(z.string()).optional(),
  archived: z.boolean().optional(),
  fork: z.boolean().optional(),
  empty: z.boolean().optional(),
  createdAt: date.optional(),
  /** Files of a first commit on the default branch (after the initial README commit). */
  files: files.optional(),
  /** Further commits, in order. */
  commits: z.array(commitSchema).optional(),
  /** Branches created from the default branch (or `from`), optionally with their own files commit. */
  branches: z
    .array(
      z.object({
        name: z.string(),
        from: z.string().optional(),
        files: files.optional(),
        message: z.string().optional(),
      }),
    )
    .optional(),
  /** Extra refs: full ref name → branch name or commit SHA. */
  refs: z.record(z.string(), z.string()).optional(),
  issues: z.array(issueSchema).optional(),
  pulls: z
    .array(
      issueSchema.extend({
        head: z.string(),
        base: z.string().optional(),
        draft: z.boolean().optional(),
        merged: z.boolean().optional(),
        headSha: z
          .string()
          .regex(/^[0-9a-f]{40}$/, 'must be a 40-character lowercase hex SHA')
          .optional(),
        /** A fork (a repository listed earlier in the seed) the head branch lives in. */
        headRepo: z.string().optional(),
      }),
    )
    .optional(),
  workflowRuns: z
    .array(
      z.object({
        name: z.string().optional(),
        path: z.string().optional(),
        event: z.string().optional(),
        status: z.enum(['queued', 'in_progress', 'completed']).optional(),
        conclusion: z.enum(['success', 'failure', 'cancelled', 'skipped']).nullable().optional(),
        headBranch: z.string().optional(),
        createdAt: date.optional(),
        updatedAt: date.optional(),
      }),
    )
    .optional(),
  releases: z
    .array(
      z.object({
        tagName: z.string().min(1),
        targetCommitish: z.string().optional(),
        name: z.string().nullable().optional(),
        body: z.string().nullable().optional(),
        draft: z.boolean().optional(),
        prerelease: z.boolean().optional(),
        author: z.string().optional(),
        createdAt: date.optional(),
      }),
    )
    .optional(),
});

export const seedSchema = z.object({
  accounts: z
    .array(
      z.object({
        login: z.string().min(1),
        type: z.enum(['User', 'Organization']).optional(),
        name: z.string().optional(),
      }),
    )
    .optional(),
  repos: z.array(repoSchema).optional(),
  tokens: z
    .array(
      z.object({
        token: z.string().min(1),
        login: z.string().min(1),
        repos: z.union([z.literal('*'), z.record(z.string(), z.enum(['read', 'write']))]).optional(),
        rateLimit: z.number().int().positive().optional(),
        graphqlRateLimit: z.number().int().positive().optional(),
        bot: z.boolean().optional(),
        permissions: z
          .strictObject({
            contents: permissionLevel,
            'pull-requests': permissionLevel,
            issues: permissionLevel,
            checks: permissionLevel,
            statuses: permissionLevel,
          })
          .optional(),
      }),
    )
    .optional(),
});

/** A seed: see docs/emulator.md for the format. */
export type EmulatorSeed = z.input<typeof seedSchema>;

/** A seed after validation (defaults applied). */
type ParsedSeed = z.output<typeof seedSchema>;

/**
 * Validate a seed object, throwing an Error that names each bad field.
 *
 * @example
 * parseSeed({ repos: [{ name: 'octo' }] }); // throws: repos.0.name: must be "owner/name"
 */
export function parseSeed(value: unknown, source = 'seed'): ParsedSeed {
  const r = seedSchema.safeParse(value);
  if (!r.success) {
    const lines = r.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`invalid emulator seed (${source}):\n${lines.join('\n')}`);
  }
  return r.data;
}

/**
 * Read a `.json`, `.yaml` or `.yml` seed file (validated, returned as written).
 *
 * @example
 * const seed = await loadSeedFile('seed.yaml');
 */
export async function loadSeedFile(path: string): Promise<EmulatorSeed> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read seed file ${path}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new Error(`cannot parse seed file ${path}: ${(e as Error).message}`);
  }
  parseSeed(value, path);
  return value as EmulatorSeed;
}

/**
 * Apply a seed to the state (accounts, then repositories with their history, then tokens).
 *
 * @example
 * applySeed(app.state, DEMO_SEED);
 */
export function applySeed(state: EmulatorState, seed: EmulatorSeed, source = 'seed'): void {
  const s = parseSeed(seed, source);
  for (const a of s.accounts ?? []) {
    const acc = state.account(a.login, a.type);
    if (a.type) acc.type = a.type;
    if (a.name) acc.name = a.name;
  }
  for (const r of s.repos ?? []) applyRepo(state, r, source);
  for (const t of s.tokens ?? []) {
    state.addToken(t.token, {
      login: t.login,
      repos: t.repos,
      rateLimit: t.rateLimit,
      graphqlRateLimit: t.graphqlRateLimit,
      ...(t.bot !== undefined ? { bot: t.bot } : {}),
      ...(t.permissions ? { permissions: t.permissions } : {}),
    });
  }
}

/** One repository: created, then its files, branches, commits, refs, issues, pulls, releases and runs, in that order. */
function applyRepo(state: EmulatorState, r: NonNullable<ParsedSeed['repos']>[number], source: string): void {
  const repo = state.createRepo(r.name, {
    private: r.private,
    description: r.description,
    defaultBranch: r.defaultBranch,
    topics: r.topics,
    archived: r.archived,
    fork: r.fork,
    empty: r.empty,
    createdAt: r.createdAt,
  });
  const name = repo.fullName;
  if (r.files) state.commitFiles(name, { files: r.files, message: 'Add project files' });
  for (const b of r.branches ?? []) {
    const from = b.from ? repo.db.readRef(fullRefName(b.from)) : undefined;
    if (b.from && !from)
      throw new Error(`invalid emulator seed (${source}): branch ${b.name} of ${name}: unknown "from" ${b.from}`);
    state.addBranch(name, b.name, from);
    if (b.files) state.commitFiles(name, { branch: b.name, files: b.files, message: b.message });
  }
  for (const c of r.commits ?? []) state.commitFiles(name, c);
  for (const [ref, target] of Object.entries(r.refs ?? {})) {
    const sha = /^[0-9a-f]{40}$/.test(target) ? target : repo.db.readRef(fullRefName(target));
    if (!sha) throw new Error(`invalid emulator seed (${source}): ref ${ref} of ${name}: unknown target ${target}`);
    state.setRef(name, ref, sha);
  }
  for (const i of r.issues ?? []) state.addIssue(name, i);
  for (const p of r.pulls ?? []) state.addPull(name, p);
  for (const rel of r.releases ?? []) state.addRelease(name, rel);
  for (const run of r.workflowRuns ?? []) state.addWorkflowRun(name, run);
}
