/**
 * Reading a spec file from disk (Node only). The spec decides what code runs and where data goes, so when
 * a workspace is given the file must be inside it, symbolic links resolved first.
 */
import { InvalidSpec } from '../../core/errors.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../../core/input-names.js';
import { parseSpec } from './parse.js';
import type { ParseSpecOptions, Spec } from './types.js';

export interface LoadSpecOptions extends ParseSpecOptions {
  /** How messages name the file (default `path`), e.g. the workspace-relative path the user wrote. */
  displayPath?: string;
  /** When given, the spec's real path (symbolic links resolved) must be inside this directory. */
  workspace?: string;
}

/**
 * Read and parse a spec file from disk (Node only).
 *
 * @example
 * const spec = await loadSpec('.github/docdb.yml', { defaultRepository: 'octo/hello' });
 */
export async function loadSpec(path: string, options: LoadSpecOptions = {}): Promise<Spec> {
  const shown = options.displayPath ?? path;
  const names = options.inputNames ?? ACTION_INPUT_NAMES;
  let text: string;
  try {
    text = await readConfined(path, shown, options.workspace, names);
  } catch (e) {
    if (e instanceof InvalidSpec) throw e;
    const code = (e as { code?: string }).code;
    throw new InvalidSpec(
      code === 'ENOENT'
        ? `projection spec ${shown} not found: create it (see docs/projection-spec.md) or set ${names.phrase('spec')} to its path`
        : `cannot read projection spec ${shown}: ${(e as Error).message}`,
      { file: shown, line: 0, field: 'spec' },
    );
  }
  const spec = parseSpec(text, shown, options);
  return spec;
}

/** The file's text, once its real path is known to be inside `workspace` (when given). */
async function readConfined(
  path: string,
  shown: string,
  workspace: string | undefined,
  names: InputNames,
): Promise<string> {
  const { readFile, realpath } = await import('node:fs/promises');
  const { sep, resolve } = await import('node:path');
  const real = await realpath(path);
  if (workspace !== undefined) {
    // The spec decides what code runs and where data goes: it must come from the checked-out repository.
    const root = await realpath(workspace).catch(() => resolve(workspace));
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      throw new InvalidSpec(
        `projection spec ${shown} resolves to ${real}, outside the workspace ${root}; ${names.phrase('spec')} must name a file inside the workspace (symbolic links are resolved first)`,
        { file: shown, line: 0, field: 'spec', reason: 'outside-workspace' },
      );
    }
  }
  return readFile(real, 'utf8');
}
