/**
 * The Action's `mode: export`: every document of the section (or of `namespace`/`type`) with its data, at
 * the tip or at `version`, written to a file of the workspace for later steps (a site build, a report):
 * JSON Lines (`export-format: jsonl`, default) or one file per document under a directory
 * (`export-format: files`). The documents are read in bulk — the section's archive, a handful of requests
 * — and written under a temporary name, renamed when complete. The path must stay inside the workspace,
 * also once symbolic links are resolved: a link in the workspace pointing out of it is refused.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import type { RefStore } from '../core/refstore.js';
import { DocumentStore } from '../document/document-store.js';
import { isInside, realTarget } from '../export/real-path.js';
import { ExportChanged, ExportTargetError, writeDirectory, writeJsonLines } from '../export/write-export.js';
import type { ActionInputs } from './inputs.js';

/** The workspace file inputs this guard checks (`export-path`, and `feed`: feed-step.ts). */
type FileInput = 'export-path' | 'feed';

const notInside = (path: string, workspace: string, how: string, input: FileInput, example: string) =>
  new InvalidConfig(
    input,
    `input "${input}": ${JSON.stringify(path)} is not a file inside the workspace (${workspace})${how}; give a relative path such as ${example}`,
    { allowed: 'a relative path inside the workspace' },
  );

/**
 * The export target as an absolute path inside `workspace`; `InvalidConfig` naming `input` (default
 * `export-path`) otherwise. Lexical only: {@link realExportTarget} also resolves symbolic links.
 *
 * @example
 * exportTarget('out/docs.jsonl', '/home/runner/work/repo'); // '/home/runner/work/repo/out/docs.jsonl'
 */
export function exportTarget(
  path: string,
  workspace: string,
  input: FileInput = 'export-path',
  example = 'docdb-export.jsonl',
): string {
  const target = resolve(workspace, path);
  const rel = relative(resolve(workspace), target);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw notInside(path, workspace, '', input, example);
  return target;
}

/**
 * Where the export would really be written: {@link exportTarget}, then the real path of its deepest
 * existing part, which must be inside the workspace's real path (a symbolic link such as `site ->
 * /elsewhere` does not lead out of it). `InvalidConfig` naming `input` (default `export-path`; the Action's
 * `feed` is checked the same way) otherwise, before anything is written.
 *
 * @example
 * await realExportTarget('site/docs.jsonl', '/home/runner/work/repo'); // with site -> /srv: InvalidConfig
 */
export async function realExportTarget(
  path: string,
  workspace: string,
  input: FileInput = 'export-path',
  example = 'docdb-export.jsonl',
): Promise<string> {
  const lexical = exportTarget(path, workspace, input, example);
  const root = await realpath(workspace).catch(() => resolve(workspace));
  const real = await realTarget(lexical);
  if (real === root || !isInside(real, root)) {
    throw notInside(path, workspace, `: through a symbolic link it leads to ${real}`, input, example);
  }
  return real;
}

/**
 * Outputs and summary for `mode: export`.
 *
 * @example
 * const { outputs } = await exportMode(inputs, store, 'refs/docdb/documents', process.env.GITHUB_WORKSPACE);
 * outputs.path; // absolute path of the written file
 */
export async function exportMode(
  inputs: ActionInputs,
  store: RefStore,
  ref: string,
  workspace: string,
): Promise<{ outputs: Record<string, string>; summary: string }> {
  const target = await realExportTarget(inputs.exportPath, workspace);
  const docs = new DocumentStore(store);
  const version = inputs.version || (await docs.head());
  const filter = {
    ...(inputs.namespace ? { namespace: inputs.namespace } : {}),
    ...(inputs.type ? { type: inputs.type } : {}),
  };
  const entries = version === null ? (async function* () {})() : docs.stream({ ...filter, version, withData: true });
  let written: { count: number; path: string };
  try {
    written =
      inputs.exportFormat === 'files'
        ? await writeDirectory(target, entries, false)
        : await writeJsonLines(target, entries);
  } catch (e) {
    if (e instanceof ExportTargetError || e instanceof ExportChanged) {
      throw new InvalidConfig(
        'export-path',
        `input "export-path": ${e.message.replace(' (pass --force to replace it)', '')}`,
        e instanceof ExportChanged ? { changed: e.entries } : {},
      );
    }
    throw e;
  }
  const { count, path } = written;
  const outputs = { version: version ?? '', path, count: String(count), changed: 'false', keys: '[]' };
  const where = `\`${ref}\` of ${inputs.repository}`;
  const root = await realpath(workspace).catch(() => resolve(workspace));
  const summary = `### docdb export of ${where}\n\n${count} document(s) at \`${version ?? '(no section)'}\` → \`${relative(root, path)}\` (${inputs.exportFormat})\n`;
  return { outputs, summary };
}
