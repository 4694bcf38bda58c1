/**
 * The Action's `mode: query`: the documents of one namespace/type that match the `where` clauses
 * (DocumentStore.query — from the section's index when one covers the fields; docs/indexes.md). The rows
 * go to the `rows` output as JSON when they fit GitHub's output limits, else to a JSON Lines file in the
 * workspace (`export-path`, written as `mode: export` writes), named by the `path` output.
 */
import { relative } from 'node:path';
import { InvalidConfig, NotFound } from '../core/errors.js';
import { type DocumentQueryResult, DocumentStore } from '../document/document-store.js';
import { formatWhere } from '../document/query-text.js';
import { formatItems } from '../export/formats.js';
import { writeTextFile } from '../export/write-export.js';
import type { ActionResult, ActionTools } from './context.js';
import { realExportTarget } from './export-mode.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import { code, mdText } from './summary.js';

/**
 * Largest `rows` output, in bytes of UTF-16 — the encoding GitHub approximates an output's size in. Its
 * limit is 1 MB for all of a job's outputs (https://docs.github.com/actions/writing-workflows/choosing-what-your-workflow-does/passing-information-between-jobs):
 * half of it leaves room for the other outputs of the step and the job. Larger results go to a file.
 */
export const MAX_ROWS_OUTPUT_BYTES = 512 * 1024;

/** Rows the job summary's table shows; the rest are in the output or the file. */
const SUMMARY_ROWS = 20;

type Result = DocumentQueryResult<unknown>;

/** One item of the `rows` output or the file: the row, with its document when the documents were read. */
function items(r: Result): unknown[] {
  return r.rows.map((row, i) => (r.documents ? { ...row, document: r.documents[i] } : row));
}

/**
 * Outputs and summary for `mode: query`.
 *
 * @example
 * const { outputs } = await queryMode(inputs, tools, process.env.GITHUB_WORKSPACE);
 * JSON.parse(outputs.rows).map((row) => row.id);
 */
export async function queryMode(inputs: ActionInputs, tools: ActionTools, workspace: string): Promise<ActionResult> {
  const q = inputs.query!;
  const docs = new DocumentStore(tools.store);
  const r = await docs
    .query({
      namespace: inputs.namespace,
      type: inputs.type,
      ...(q.where.length > 0 ? { where: q.where } : {}),
      ...(q.orderBy ? { orderBy: q.orderBy } : {}),
      ...(q.limit !== undefined ? { limit: q.limit } : {}),
      ...(q.fields ? { fields: q.fields } : {}),
      ...(inputs.version ? { version: inputs.version } : {}),
      ...(q.requireIndex ? { requireIndex: true } : {}),
    })
    .catch((e) => {
      throw requireIndexInActionTerms(e);
    });
  if (r.version === null) {
    throw new NotFound(
      `section ${tools.ref} does not exist in ${inputs.repository}: nothing to query; run the projection first, or check the "root" and "section" inputs`,
      { repository: inputs.repository, ref: tools.ref, reason: 'section-missing' },
    );
  }
  const { rows, path } = await rowsOutput(items(r), inputs.exportPath, workspace);
  tools.log(`query ${inputs.namespace}/${inputs.type}: ${r.rows.length} row(s), answered by ${r.answeredBy}`);
  const outputs = {
    version: r.version,
    count: String(r.rows.length),
    rows,
    path,
    'answered-by': r.answeredBy,
    changed: 'false',
    keys: '[]',
    requests: String(tools.meter.requests),
    ...rateOutputs(tools.meter),
  };
  return { outputs, summary: summary(inputs, tools.ref, r, path ? relative(workspace, path) : '') };
}

/**
 * The `rows` output: the items as JSON when that fits GitHub's output limits; else empty, and the items
 * written as JSON Lines to `exportPath` in the workspace (as `mode: export` writes), whose path is returned.
 *
 * @example
 * const { rows, path } = await rowsOutput(hits, inputs.exportPath, workspace); // rows '' when path is set
 */
export async function rowsOutput(
  all: readonly unknown[],
  exportPath: string,
  workspace: string,
): Promise<{ rows: string; path: string }> {
  const json = JSON.stringify(all);
  if (json.length * 2 <= MAX_ROWS_OUTPUT_BYTES) return { rows: json, path: '' };
  const path = await writeTextFile(await realExportTarget(exportPath, workspace), formatItems(all, 'jsonl'));
  return { rows: '', path };
}

/** The library's "no index answers this" in the Action's terms: the input, and how a workflow declares one. */
function requireIndexInActionTerms(e: unknown): unknown {
  if (!(e instanceof InvalidConfig) || e.data.field !== 'requireIndex') return e;
  const reason = e.message.replace(/; declare it \(declareIndexes\) or drop requireIndex$/, '');
  return new InvalidConfig(
    'require-index',
    `input "require-index": ${reason}; declare the fields with index: on the projection that writes this type, or set require-index: false`,
    { allowed: 'a query on indexed fields, or require-index: false' },
  );
}

/** A table cell: strings as they are, absent empty, anything else as JSON — Markdown-escaped. */
const cell = (v: unknown) => mdText(v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

function summary(inputs: ActionInputs, ref: string, r: Result, file: string): string {
  const q = inputs.query!;
  const clauses = q.where.length > 0 ? q.where.map((w) => code(formatWhere(w))).join(' and ') : 'every document';
  const by =
    r.answeredBy === 'index'
      ? 'answered by the index'
      : `answered by reading the documents (${mdText(r.fallbackReason ?? 'no index covers the query')})`;
  const lines = [
    `### docdb query of ${code(`${inputs.namespace}/${inputs.type}`)} in ${code(ref)} of ${mdText(inputs.repository)}`,
    '',
    `${clauses}: ${r.rows.length} row(s) at \`${r.version}\`, ${by} · requests: ${r.requests ?? 0}${file ? ` · rows in ${code(file)}` : ''}`,
  ];
  const columns = [...new Set(r.rows.flatMap((row) => Object.keys(row.values)))].filter((c) => c !== 'id');
  if (r.rows.length > 0) {
    const header = ['id', ...columns].map(mdText);
    lines.push('', `| ${header.join(' | ')} |`, `|${' --- |'.repeat(header.length)}`);
    for (const row of r.rows.slice(0, SUMMARY_ROWS)) {
      lines.push(`| ${[row.id, ...columns.map((c) => row.values[c])].map(cell).join(' | ')} |`);
    }
    if (r.rows.length > SUMMARY_ROWS) lines.push('', `… and ${r.rows.length - SUMMARY_ROWS} more`);
  }
  return `${lines.join('\n')}\n`;
}
