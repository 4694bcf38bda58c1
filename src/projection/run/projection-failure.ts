/**
 * A failure while projecting that the user fixes in the spec (a template that produced no id, two items on
 * one id, a reducer that threw or returned something that is not a document): an InvalidSpec that names
 * the spec file, the line of the field and the projection.
 */
import { InvalidSpec } from '../../core/errors.js';
import type { ProjectionSpec } from '../spec/index.js';

/**
 * `specFile:line: projections.<name>.<field><message>`; `field` may carry a suffix after `:` that the
 * message shows but the error's `field` leaves out.
 *
 * @example
 * throw projectionFailure('docdb.yml', p, p.lines.id, 'identity.id', ': template produced an empty id');
 */
export function projectionFailure(
  specFile: string,
  p: Pick<ProjectionSpec, 'name'>,
  line: number,
  field: string,
  message: string,
  data: Record<string, unknown> = {},
  cause?: unknown,
): InvalidSpec {
  return new InvalidSpec(
    `${specFile}:${line}: projections.${p.name}.${field}${message}`,
    {
      file: specFile,
      line,
      field: `projections.${p.name}.${field.split(':')[0]}`,
      ...data,
    },
    cause === undefined ? undefined : { cause },
  );
}
