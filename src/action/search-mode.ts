/**
 * The Action's `mode: query` with `search`: the documents of a namespace (or one type) whose text holds
 * the words, ranked by BM25 from the section's search index (DocumentStore.search; docs/search.md). The
 * hits go out as `mode: query` writes its rows: the `rows` output as JSON when it fits, else a JSON Lines
 * file in the workspace named by `path`; and a job-summary table.
 */
import { relative } from 'node:path';
import { InvalidConfig, NotFound } from '../core/errors.js';
import { type DocumentSearchResult, DocumentStore } from '../document/document-store.js';
import type { ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import { rowsOutput } from './query-mode.js';
import { code, mdText } from './summary.js';

/** Hits the job summary's table shows; every hit is in the output or the file. */
const SUMMARY_HITS = 20;

/**
 * Outputs and summary for `mode: query` with `search`.
 *
 * @example
 * const { outputs } = await searchMode(inputs, tools, process.env.GITHUB_WORKSPACE);
 * JSON.parse(outputs.rows).map((hit) => `${hit.type}/${hit.id} ${hit.score}`);
 */
export async function searchMode(inputs: ActionInputs, tools: ActionTools, workspace: string): Promise<ActionResult> {
  const q = inputs.query!;
  const text = q.search as string;
  const docs = new DocumentStore(tools.store);
  const r = await docs
    .search(text, {
      namespace: inputs.namespace,
      ...(inputs.type ? { type: inputs.type } : {}),
      ...(q.limit !== undefined ? { limit: q.limit } : {}),
      ...(inputs.version ? { version: inputs.version } : {}),
    })
    .catch((e) => {
      throw searchErrorInActionTerms(e);
    });
  if (r.version === null) {
    throw new NotFound(
      `section ${tools.ref} does not exist in ${inputs.repository}: nothing to search; run the projection first, or check the "root" and "section" inputs`,
      { repository: inputs.repository, ref: tools.ref, reason: 'section-missing' },
    );
  }
  const { rows, path } = await rowsOutput(r.hits, inputs.exportPath, workspace);
  tools.log(`search ${scopeOf(inputs)} for ${JSON.stringify(text)}: ${r.hits.length} of ${r.total} hit(s)`);
  const outputs = {
    version: r.version,
    count: String(r.hits.length),
    total: String(r.total),
    rows,
    path,
    'answered-by': 'search',
    changed: 'false',
    keys: '[]',
    requests: String(tools.meter.requests),
    ...rateOutputs(tools.meter),
  };
  return { outputs, summary: summary(inputs, tools.ref, r, path ? relative(workspace, path) : '') };
}

/** `github` or `github/repo`: what was searched. */
const scopeOf = (inputs: ActionInputs) => (inputs.type ? `${inputs.namespace}/${inputs.type}` : inputs.namespace);

/**
 * The library's refusal of a type (or a namespace) with no search index, in the Action's terms: the
 * input, and how a workflow declares one (`search:` on the projection that writes the type). Any other
 * error as it is.
 */
function searchErrorInActionTerms(e: unknown): unknown {
  const field = e instanceof InvalidConfig ? e.data.field : undefined;
  if (field !== 'type' && field !== 'namespace') return e;
  const reason = (e as Error).message.replace(/[;:]\s*declare[^;]*$/i, '');
  const instead = field === 'type' ? ', or leave type empty to search every type that has one' : '';
  return new InvalidConfig(
    field,
    `input "${field}": ${reason}; declare the searchable fields with search: on the projection that writes the type (e.g. search: [data.title, data.body])${instead}`,
    {
      allowed:
        field === 'type' ? 'a type with a search index declared, or empty' : 'a namespace with a search index declared',
    },
  );
}

function summary(inputs: ActionInputs, ref: string, r: DocumentSearchResult, file: string): string {
  const text = inputs.query?.search as string;
  const lines = [
    `### docdb search of ${code(scopeOf(inputs))} in ${code(ref)} of ${mdText(inputs.repository)}`,
    '',
    `${code(text)}: ${r.hits.length} of ${r.total} hit(s) at \`${r.version}\`, ranked by the search index · requests: ${r.requests ?? 0}${file ? ` · hits in ${code(file)}` : ''}`,
  ];
  if (r.hits.length > 0) {
    lines.push('', '| score | type | id | fields |', '| --: | --- | --- | --- |');
    for (const h of r.hits.slice(0, SUMMARY_HITS)) {
      lines.push(`| ${h.score.toFixed(4)} | ${mdText(h.type)} | ${mdText(h.id)} | ${mdText(h.fields.join(', '))} |`);
    }
    if (r.hits.length > SUMMARY_HITS) lines.push('', `… and ${r.hits.length - SUMMARY_HITS} more`);
  }
  return `${lines.join('\n')}\n`;
}
