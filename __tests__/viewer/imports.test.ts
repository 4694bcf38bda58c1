/**
 * ARCHITECTURE.md: the viewer "imports only what docdb/browser exports". Every import in src/viewer is
 * either another viewer file or src/browser/index.ts — checked on the source text, so a new shortcut into
 * the library's internals fails here.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const VIEWER = resolve('src/viewer');
const BROWSER_ENTRY = resolve('src/browser/index.ts');

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sources(path)));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Import specifiers of a file (static `from '…'` and dynamic `import('…')`). */
function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
}

describe('viewer imports', () => {
  it('reach only viewer files and the docdb/browser entry', async () => {
    const outside: string[] = [];
    for (const file of await sources(VIEWER)) {
      for (const spec of importsOf(await readFile(file, 'utf8'))) {
        if (!spec.startsWith('.')) {
          outside.push(`${relative(VIEWER, file)} → ${spec} (a package: the viewer bundles only docdb/browser)`);
          continue;
        }
        const target = resolve(file, '..', spec.replace(/\.js$/, '.ts'));
        if (target !== BROWSER_ENTRY && !target.startsWith(VIEWER)) outside.push(`${relative(VIEWER, file)} → ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('catches an import into the library internals', () => {
    expect(importsOf("import { x } from '../../core/errors.js';\nconst m = await import('./views/a.js');")).toEqual([
      '../../core/errors.js',
      './views/a.js',
    ]);
  });
});
