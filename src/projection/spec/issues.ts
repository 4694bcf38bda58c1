/**
 * Problems in a spec, as the user reads them: `file:line:column: field: what is wrong`. Every problem found
 * in one pass is reported at once (one InvalidSpec listing them all), so a user fixes a spec in one edit,
 * not one error per run.
 */
import type { z } from 'zod';
import { InvalidSpec } from '../../core/errors.js';
import { allowedFields } from './projection-schema.js';
import { SOURCE_TYPES } from './source-types.js';
import type { SpecIssue } from './types.js';
import type { SpecYaml } from './yaml-document.js';

/**
 * Dotted name of a field path, e.g. `projections.repos.source.repositories[1]`.
 *
 * @example
 * fieldName(['projections', 'repos', 'source', 'repositories', 1]); // 'projections.repos.source.repositories[1]'
 */
export function fieldName(path: readonly PropertyKey[]): string {
  return (
    path
      .map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))
      .join('.')
      .replace(/\.\[/g, '[') || '(root)'
  );
}

/**
 * The error for a list of problems: its message lists them all, its `data` has `file`, `line`, `column`
 * and `field` of the first and `issues` (all).
 *
 * @example
 * throw specError('docdb.yml', [{ file: 'docdb.yml', line: 1, column: 1, field: 'projections', message: 'is required' }]);
 */
export function specError(file: string, issues: SpecIssue[]): InvalidSpec {
  const first = issues[0]!;
  const lines = issues.map((i) => `${i.file}:${i.line}:${i.column}: ${i.field}: ${i.message}`);
  return new InvalidSpec(
    issues.length === 1
      ? `invalid projection spec: ${lines[0]}`
      : `invalid projection spec (${issues.length} problems):\n${lines.join('\n')}`,
    { file, line: first.line, column: first.column, field: first.field, issues },
  );
}

/**
 * zod's issues as spec issues, each located in the YAML: unknown fields first (a typo'd key is usually why
 * a required one is "missing"), then by position.
 *
 * @example
 * if (!parsed.success) throw specError(file, schemaIssues(parsed.error.issues, yaml, file));
 */
export function schemaIssues(issues: z.ZodError['issues'], yaml: SpecYaml, file: string): SpecIssue[] {
  const out: SpecIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({
          file,
          ...yaml.locate(issue.path, key),
          field: fieldName([...issue.path, key]),
          message: `unknown field "${key}"${allowedHint(issue.path)}`,
        });
      }
      continue;
    }
    out.push({ file, ...yaml.locate(issue.path), field: fieldName(issue.path), message: messageOf(issue) });
  }
  const rank = (i: SpecIssue) => (i.message.startsWith('unknown field') ? 0 : 1);
  return out.sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
}

/** zod's message, reworded where it would name zod's internals rather than the spec. */
function messageOf(issue: z.ZodError['issues'][number]): string {
  let message = issue.message;
  if (issue.code === 'invalid_key' && issue.issues[0]) message = issue.issues[0].message;
  const last = issue.path[issue.path.length - 1];
  if (issue.code === 'invalid_type' && /received undefined/.test(message)) {
    message = `is required${last === 'source' ? `: one of ${SOURCE_TYPES.join(', ')}` : ''}`;
  }
  if (issue.code === 'invalid_union' && last === 'type' && issue.path.includes('source')) {
    message = `must be one of ${SOURCE_TYPES.join(', ')}`;
  }
  return message;
}

function allowedHint(path: readonly PropertyKey[]): string {
  const allowed = allowedFields(path);
  return allowed ? `; allowed here: ${allowed.join(', ')}` : '';
}
