/**
 * The Action's `mode: migrate`: every document of `namespace`/`type` migrated by `operations` in one commit
 * (docs/migrations.md), or with `dry-run: true` only counted and sampled. Outputs the version and the counts;
 * the summary lists the operations, the counts and, on a dry run, the samples (long values cut).
 */
import { readFile, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import type { RefStore } from '../core/refstore.js';
import { DocumentStore } from '../document/document-store.js';
import { type MigrationResult, operationText, sampleLines } from '../document/migrate/index.js';
import type { ActionInputs } from './inputs.js';

/**
 * Outputs and summary for `mode: migrate`.
 *
 * @example
 * const { outputs } = await migrateMode(inputs, store, 'refs/docdb/documents', process.cwd());
 * JSON.parse(outputs.counts); // { read: 120, changed: 120, unchanged: 0, moved: 0 }
 */
export async function migrateMode(
  inputs: ActionInputs,
  store: RefStore,
  ref: string,
  workspace: string,
): Promise<{ outputs: Record<string, string>; summary: string }> {
  const m = inputs.migrate as NonNullable<ActionInputs['migrate']>;
  const schema = m.schema === undefined ? undefined : await readSchema(workspace, m.schema);
  const r = await new DocumentStore(store).migrate({
    namespace: inputs.namespace,
    type: inputs.type,
    operations: m.operations,
    dryRun: m.dryRun,
    ...(schema !== undefined ? { schema } : {}),
    ...(inputs.commitMessage ? { message: inputs.commitMessage } : {}),
  });
  const outputs: Record<string, string> = {
    version: r.version ?? '',
    'previous-version': r.previousVersion ?? '',
    changed: String(r.changed),
    // Every document not left as it was is written once (a moved one at its new key, changed or not).
    written: String(r.dryRun ? 0 : r.counts.read - r.counts.unchanged),
    deleted: String(r.dryRun ? 0 : r.counts.moved),
    unchanged: String(r.counts.unchanged),
    counts: JSON.stringify(r.counts),
    keys: '[]',
    document: '',
  };
  return { outputs, summary: summaryOf(`${inputs.namespace}/${inputs.type}`, ref, inputs.repository, r) };
}

/** The schema file, read only once its real path (symbolic links resolved) is inside the workspace. */
async function readSchema(workspace: string, path: string): Promise<object> {
  let schema: unknown;
  try {
    const real = await realpath(resolve(workspace, path));
    const root = await realpath(workspace).catch(() => resolve(workspace));
    if (!real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new InvalidConfig(
        'schema',
        `input "schema": ${path} is not a file inside the workspace (${root}); give a relative path such as schemas/repo.json`,
      );
    }
    schema = JSON.parse(await readFile(real, 'utf8'));
  } catch (e) {
    if (e instanceof InvalidConfig) throw e;
    throw new InvalidConfig('schema', `input "schema": cannot read ${path} as JSON (${(e as Error).message})`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidConfig('schema', `input "schema": ${path} is not a JSON object (a JSON Schema)`);
  }
  return schema;
}

function summaryOf(type: string, ref: string, repository: string, r: MigrationResult): string {
  const c = r.counts;
  const head = `### docdb migrate${r.dryRun ? ' (dry run)' : ''} of \`${type}\` in \`${ref}\` of ${repository}\n\n`;
  const ops = r.operations.map((o) => `- \`${operationText(o).replace(/`/g, "'")}\``).join('\n');
  const counts = `\n\n| read | changed | unchanged | moved |\n|---|---|---|---|\n| ${c.read} | ${c.changed} | ${c.unchanged} | ${c.moved} |\n\n`;
  const outcome = r.dryRun
    ? `Nothing written (read at \`${r.previousVersion}\`).\n`
    : r.changed
      ? `New version \`${r.version}\` (previous \`${r.previousVersion}\`).\n`
      : `Nothing to change: no commit (version \`${r.version}\`).\n`;
  // Samples are the user's own documents, shown on a dry run because it was asked for; cut, in a code block.
  const samples =
    r.dryRun && r.samples.length > 0
      ? `\nThe first ${r.samples.length} changed document(s):\n\n\`\`\`\n${r.samples.flatMap(sampleLines).join('\n').replace(/```/g, "'''")}\n\`\`\`\n`
      : '';
  return head + ops + counts + outcome + samples;
}
