/**
 * `docdb doc test`: the spec's expectations that need no run — count, unique, not-null, accepted-values,
 * references — against the section as it is (docs/expectations.md), so a scheduled workflow can check a
 * section's health between runs. Exit 1 when any fails, 0 when all pass.
 */
import { isAbsolute, resolve } from 'node:path';
import { testSection, withoutRun } from '../../document/expect/section-test.js';
import type { ExpectViolation, TypeExpectations } from '../../document/expect/types.js';
import { loadSpec, type ProjectionSpec } from '../../projection/spec/index.js';
import { checkUsage, str, versionFlag } from '../args.js';
import type { CliCommand } from '../command.js';
import { CLI_INPUT_NAMES } from '../input-flags.js';
import { EXIT, printResult, UsageError } from '../io.js';
import { checkStoreFlags } from '../store-factory.js';
import { missingSection, resolveFlag, STORE_FLAGS, short, withDocuments } from './doc-common.js';

const DEFAULT_SPEC = '.github/docdb.yml';

export const test: CliCommand = {
  name: 'doc test',
  summary: "check the section against the spec's expect: (count, unique, not-null, accepted-values, references)",
  usage: `usage: docdb doc test [--spec FILE] [--projections a,b] [--version SHA] [store flags] [--json]

Reads the projection spec (default .github/docdb.yml) and checks, for every projection with expect:, the
expectations that need no run against the section as it is (at the tip, or at --version): count, unique,
not-null, accepted-values and references, over every document of the projection's namespace/type.
max-removed, max-changed and check are about a run's write and are skipped here. Prints one line per
failure — the projection, the expectation, the field and the document's key (never a document's value) —
and a summary line on stderr. Exit 1 when any expectation fails, 0 when all pass, 3 when the section does
not exist. With --json: { ok, version, violations: [{ projection, namespace, type, expectation, field, key,
message }], types: [{ projection, namespace, type, documents }] }.`,
  flags: {
    spec: { type: 'string', description: 'projection spec file (default .github/docdb.yml)' },
    projections: { type: 'string', description: 'only these projections (comma-separated names)' },
    version: { type: 'string', description: 'test the section at this commit (SHA, or its first 4+ characters)' },
    ...STORE_FLAGS,
  },
  async run(ctx) {
    const [given] = await checkUsage(
      () => versionFlag(ctx.values),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const specPath = str(ctx.values, 'spec') ?? DEFAULT_SPEC;
    const spec = await loadSpec(isAbsolute(specPath) ? specPath : resolve(ctx.io.cwd, specPath), {
      displayPath: specPath,
      workspace: ctx.io.cwd,
      inputNames: CLI_INPUT_NAMES,
      ...(str(ctx.values, 'repo') ? { defaultRepository: str(ctx.values, 'repo') } : {}),
    });
    const projections = chosen(spec.projections, str(ctx.values, 'projections'), specPath);
    const entries = projections.map((p) => ({ p, entry: entryOf(p) }));
    const r = await withDocuments(ctx, async (docs, where) => {
      const version = await resolveFlag(docs, 'version', given);
      if (!version) {
        const missing = await missingSection(docs, where);
        if (missing) throw missing;
      }
      return testSection(
        docs.store,
        entries.map((e) => e.entry),
        version ? { version } : {},
      );
    });
    const byType = new Map(entries.map(({ p }) => [`${p.identity.namespace}/${p.identity.type}`, p.name]));
    const violations = r.violations.map((v) => ({ projection: byType.get(`${v.namespace}/${v.type}`), ...v }));
    const types = r.types.map((t) => ({ projection: byType.get(`${t.namespace}/${t.type}`), ...t }));
    const ok = violations.length === 0;
    printResult(ctx.io, ctx.json, { ok, version: r.version, violations, types }, () => violations.map(line).join('\n'));
    if (!ctx.json) {
      const checked = `${types.length} type(s), ${types.reduce((n, t) => n + t.documents, 0)} document(s) at ${short(r.version)}`;
      ctx.io.stderr(`# ${ok ? 'all expectations hold' : `${violations.length} failure(s)`}: ${checked}\n`);
    }
    return ok ? EXIT.ok : EXIT.error;
  },
};

/** The projections to test: those with `expect:` (among --projections, when given). */
function chosen(all: readonly ProjectionSpec[], names: string | undefined, specPath: string): ProjectionSpec[] {
  const wanted = names
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of wanted ?? []) {
    if (!all.some((p) => p.name === n)) {
      throw new UsageError(
        `--projections: ${JSON.stringify(n)} is not a projection of ${specPath} (it has ${all.map((p) => p.name).join(', ')})`,
        '--projections',
      );
    }
  }
  const picked = all.filter((p) => p.expect && (!wanted || wanted.includes(p.name)));
  if (picked.length === 0) {
    throw new UsageError(
      `no projection${wanted ? ' among --projections' : ''} of ${specPath} has expect:; nothing to test`,
      '--spec',
    );
  }
  return picked;
}

function entryOf(p: ProjectionSpec): TypeExpectations {
  return { namespace: p.identity.namespace, type: p.identity.type, expectations: withoutRun(p.expect!) };
}

function line(v: ExpectViolation & { projection?: string | undefined }): string {
  const where = [v.projection, v.expectation, v.field, v.key].filter(Boolean).join('  ');
  return `FAIL  ${where}: ${v.message}`;
}
