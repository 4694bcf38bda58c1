/**
 * `type: files` — documents from workspace files (`glob: data/**\/*.json`; JSON, YAML, CSV, NDJSON), so a
 * job can commit what earlier steps generated, atomically and verified, without `git push`. Paths are
 * confined to the workspace: globs are relative without `..` (checked in the spec), directories reached
 * through symbolic links are not entered, and a file whose real path is outside the workspace is an error.
 */
import { InvalidConfig } from '../../core/errors.js';
import type { SourceSpec } from '../spec/index.js';
import { type DataFormat, formatOfName, parseItems } from './formats.js';
import { globBase, globToRegExp } from './glob.js';
import type { ReadContext } from './read-context.js';
import type { SourcePage } from './types.js';

type FilesSpec = Extract<SourceSpec, { type: 'files' }>;

/** Largest file read (bytes). */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * The workspace-relative paths matching the globs, sorted, without duplicates.
 *
 * @example
 * await matchFiles('/work/ws', ['data/**\/*.json']); // ['data/a.json', 'data/sub/b.json']
 */
export async function matchFiles(workspace: string, globs: readonly string[]): Promise<string[]> {
  const { readdir, realpath } = await import('node:fs/promises');
  const { join, sep } = await import('node:path');
  const root = await realpath(workspace);
  const found = new Set<string>();
  for (const glob of globs) {
    const re = globToRegExp(glob);
    const base = globBase(glob);
    const walk = async (rel: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(join(root, rel), { withFileTypes: true });
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT' || (e as { code?: string }).code === 'ENOTDIR') return;
        throw e;
      }
      for (const e of entries) {
        const path = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (e.name !== '.git') await walk(path);
        } else if ((e.isFile() || e.isSymbolicLink()) && re.test(path)) {
          found.add(path);
        }
      }
    };
    // The base itself must stay inside the workspace even when it is a symbolic link.
    if (base) {
      let real: string;
      try {
        real = await realpath(join(root, base));
      } catch {
        continue;
      }
      if (real !== root && !real.startsWith(root + sep)) {
        throw new InvalidConfig('source.glob', `files source: ${base} leads outside the workspace (${workspace})`);
      }
    }
    await walk(base);
  }
  return [...found].sort();
}

/**
 * One page per file.
 *
 * @example
 * for await (const page of readFiles(ctx, { type: 'files', glob: ['data/**\/*.json'] })) console.log(page.repository);
 */
export async function* readFiles(ctx: ReadContext, source: FilesSpec): AsyncGenerator<SourcePage> {
  const { readFile, realpath, stat } = await import('node:fs/promises');
  const { join, sep } = await import('node:path');
  const root = await realpath(ctx.workspace);
  const paths = await matchFiles(ctx.workspace, source.glob);
  if (paths.length === 0) ctx.log(`files source: no file matches ${source.glob.join(', ')} in the workspace`);
  let page = 0;
  for (const path of paths) {
    const real = await realpath(join(root, path));
    if (real !== root && !real.startsWith(root + sep)) {
      throw new InvalidConfig(
        'source.glob',
        `files source: ${path} is a symbolic link to ${real}, outside the workspace; only files inside the workspace are read`,
      );
    }
    const size = (await stat(real)).size;
    if (size > MAX_FILE_BYTES) {
      throw new InvalidConfig('source.glob', `files source: ${path} has ${size} bytes, more than ${MAX_FILE_BYTES}`);
    }
    const format: DataFormat | undefined = source.format ?? formatOfName(path);
    if (!format) {
      throw new InvalidConfig(
        'source.format',
        `files source: cannot tell the format of ${path} from its extension; set format: json, yaml, csv or ndjson`,
      );
    }
    const list = parseItems(await readFile(real, 'utf8'), format, `files source ${path}`, source.items);
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    const base = path.slice(slash + 1);
    const dot = base.lastIndexOf('.');
    const name = dot > 0 ? base.slice(0, dot) : base;
    const file = dir ? `${dir}/${name}` : name;
    yield {
      repository: path,
      page: ++page,
      items: list.map((item, index) => ({
        repository: '',
        vars: { path, file, dir, name, index },
        item,
        matches: true,
      })),
    };
  }
}
