/**
 * A run refused by a `schema:` or `expect:` (projection/run/guarded-write.ts `RunRefusal`), as the Action
 * reports it: step outputs (`ok=false`, `violations` as JSON cut to a size step outputs take), one workflow
 * annotation per violation on the spec line it is about (GitHub shows at most 10 errors per step: the tenth
 * says how many more), and the first 50 violations as rows of the job summary. Keys, pointers and messages
 * come from documents and are untrusted: escaped for Markdown (core/markdown-text.ts `mdText`, plus `@` and `#`, which
 * notify people and link issues) and made inert for workflow commands (no line break, no `::` command).
 */

import { code, mdUntrusted } from '../core/markdown-text.js';
import { inertText } from '../core/terminal-text.js';
import type { RunRefusal, RunViolation } from '../projection/run/index.js';
import type { Annotation } from './annotations.js';

// Moved down to src/core/markdown-text.ts (shared with src/review/); re-exported for its callers.
export { mdUntrusted };

/** GitHub shows at most 10 error annotations per step (workflow commands). */
export const MAX_ANNOTATIONS = 10;
/** Violations shown as rows in the job summary. */
export const SUMMARY_ROWS = 50;
/**
 * The `violations` output is cut to this many bytes of JSON: step outputs share 1 MB per job (GitHub's
 * limit), and the other outputs and steps need room too.
 */
export const VIOLATIONS_OUTPUT_BYTES = 64 * 1024;

/**
 * One line of a workflow command's message: line breaks become spaces, `::` cannot start a command
 * (inertText), and @actions/core percent-encodes what is left.
 *
 * @example
 * commandText('a\n::error::x'); // 'a \\u003A:error\\u003A:x', one line
 */
export function commandText(s: string): string {
  return inertText(s.replace(/[\r\n\u2028\u2029]+/g, ' ')).replace(/::/g, '\\u003A:');
}

/**
 * The step outputs of a refused run.
 *
 * @example
 * const outputs = refusalOutputs(refusal); // { ok: 'false', violations: '[…]', 'violation-count': '3', … }
 */
export function refusalOutputs(refusal: RunRefusal): Record<string, string> {
  return {
    ok: 'false',
    violations: cappedJson(refusal.violations, VIOLATIONS_OUTPUT_BYTES),
    'violation-count': String(refusal.count),
    'quarantine-ref': refusal.quarantine?.ref ?? '',
    'quarantine-version': refusal.quarantine?.version ?? '',
  };
}

/** As many violations (from the first) as fit in `max` bytes of JSON. */
function cappedJson(violations: readonly RunViolation[], max: number): string {
  let n = violations.length;
  let json = JSON.stringify(violations);
  while (Buffer.byteLength(json) > max && n > 0) {
    n = Math.floor(n / 2);
    json = JSON.stringify(violations.slice(0, n));
  }
  return json;
}

/**
 * The annotations of a refused run: one per violation (at most 10; the last says how many more), each on
 * its projection's `schema:`/`expect:` line, or the first line of the spec when no projection declares the type.
 *
 * @example
 * for (const a of refusalAnnotations(refusal, 'docdb.yml')) core.error(a.message, a.properties);
 */
export function refusalAnnotations(refusal: RunRefusal, specFile: string): Annotation[] {
  const title = refusal.kind === 'schema' ? 'docdb: schema violation' : 'docdb: expectation not met';
  const shown = refusal.violations.slice(0, MAX_ANNOTATIONS);
  const more = refusal.count - shown.length;
  const file = specFile.replace(/^\.\//, '');
  return shown.map((v, i) => {
    const last = i === shown.length - 1 && more > 0;
    const where = v.projection ? `projections.${v.projection}.${v.kind === 'schema' ? 'schema' : 'expect'}: ` : '';
    const tail = last
      ? ` (and ${more} more violation(s): see the job summary and the "violations" output; nothing was written)`
      : '';
    return {
      message: commandText(`${where}${v.message}${tail}`),
      properties: { title, file, startLine: v.line > 0 ? v.line : 1 },
    };
  });
}

/**
 * The job summary's section for a refused run: what refused it, that the section is untouched, the
 * quarantine when there is one, and the first 50 violations as table rows.
 *
 * @example
 * summary += renderRefusal(refusal, 'refs/docdb/documents');
 */
export function renderRefusal(refusal: RunRefusal, sectionRef: string): string {
  const lines: string[] = [];
  const what = refusal.kind === 'schema' ? 'a schema' : 'the expectations';
  lines.push(
    `### docdb: run refused by ${what}: nothing written to ${code(sectionRef)}`,
    '',
    `${refusal.count} violation(s); the section stays at ${refusal.version ? code(refusal.version.slice(0, 12)) : '(no section yet)'}.`,
    '',
  );
  const q = refusal.quarantine;
  if (q) {
    lines.push(
      `Quarantined: the would-be commit is ${code(q.version)} on ${code(q.ref)}. Compare it with the section, then \`docdb section quarantine promote ${mdUntrusted(q.id)}\` (or \`drop\`); see docs/quarantine.md.`,
      '',
    );
  }
  const rows = refusal.violations.slice(0, SUMMARY_ROWS);
  lines.push('| Projection | Key | Where | Rule | Problem |', '|---|---|---|---|---|');
  for (const v of rows) {
    const where = v.kind === 'schema' ? (v.pointer ?? '') : (v.field ?? '');
    const rule = v.kind === 'schema' ? (v.rule ?? '') : (v.expectation ?? '');
    lines.push(
      `| ${mdUntrusted(v.projection ?? '')} | ${v.key ? `<code>${mdUntrusted(v.key)}</code>` : ''} | ${mdUntrusted(where)} | ${mdUntrusted(rule)} | ${mdUntrusted(v.message)} |`,
    );
  }
  const more = refusal.count - rows.length;
  if (more > 0) lines.push('', `… and ${more} more violation(s) (the first ${rows.length} are listed).`);
  return `${lines.join('\n')}\n`;
}

/**
 * The refused run for a terminal (`docdb project`): plain lines, every string from documents made inert
 * (no control sequence, no workflow command at a line's start).
 *
 * @example
 * io.stdout(refusalText(refusal, 'refs/docdb/documents'));
 */
export function refusalText(refusal: RunRefusal, sectionRef: string): string {
  const what = refusal.kind === 'schema' ? 'a schema' : 'the expectations';
  const lines = [
    `docdb: run refused by ${what}: nothing written to ${sectionRef} (still at ${refusal.version ?? '(no section yet)'})`,
    `${refusal.count} violation(s):`,
    ...refusal.violations.slice(0, SUMMARY_ROWS).map((v) => `  ${commandText(v.message)}`),
  ];
  const more = refusal.count - Math.min(refusal.violations.length, SUMMARY_ROWS);
  if (more > 0) lines.push(`  … and ${more} more`);
  const q = refusal.quarantine;
  if (q) lines.push(`quarantined at ${q.ref}: ${q.version} (docdb section quarantine promote ${q.id} | drop ${q.id})`);
  return `${lines.join('\n')}\n`;
}
