/**
 * Failures that point at a line of the projection spec become workflow annotations on that line
 * (`::error file=…,line=…,col=…,title=…::message`), one per problem, so the run page marks the spec.
 * See https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands#setting-an-error-message
 */
import { isAbsolute, relative } from 'node:path';
import { DocDbError } from '../core/errors.js';

export interface Annotation {
  message: string;
  properties: { title: string; file: string; startLine: number; startColumn?: number };
}

interface Issue {
  file?: unknown;
  line?: unknown;
  column?: unknown;
  field?: unknown;
  message?: unknown;
}

/** Annotations must name files relative to the repository root, which is the workspace. */
function workspacePath(file: string, workspace: string): string {
  return isAbsolute(file) ? relative(workspace, file) : file.replace(/^\.\//, '');
}

/**
 * The annotations for a failure (empty when it is about no spec line). `message` is the full text the log
 * shows when there is a single problem.
 *
 * @example
 * for (const a of annotations(error, describeFailure(error, inputs), workspace)) core.error(a.message, a.properties);
 */
export function annotations(e: unknown, message: string, workspace: string): Annotation[] {
  if (!(e instanceof DocDbError)) return [];
  const data = e.data;
  const issues = Array.isArray(data.issues) ? (data.issues as Issue[]) : [];
  const title = e.code === 'InvalidSpec' ? 'docdb: invalid projection spec' : `docdb: ${e.code}`;
  if (issues.length > 1) {
    return issues
      .filter((i) => typeof i.file === 'string' && typeof i.line === 'number' && i.line > 0)
      .map((i) => ({
        message: `${String(i.file)}:${String(i.line)}:${String(i.column)}: ${String(i.field)}: ${String(i.message)}`,
        properties: {
          title,
          file: workspacePath(String(i.file), workspace),
          startLine: i.line as number,
          ...(typeof i.column === 'number' ? { startColumn: i.column } : {}),
        },
      }));
  }
  if (typeof data.file !== 'string' || typeof data.line !== 'number' || data.line <= 0) return [];
  return [
    {
      message,
      properties: {
        title,
        file: workspacePath(data.file, workspace),
        startLine: data.line,
        ...(typeof data.column === 'number' ? { startColumn: data.column } : {}),
      },
    },
  ];
}
