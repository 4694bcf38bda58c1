/**
 * Every code example in README.md and docs/*.md is accounted for, so new docs cannot silently drift: a
 * ts/js/html block is either marked `<!-- tested: NAME -->` — and then __tests__/package/install.test.ts
 * runs it from the installed package — or `<!-- fragment: why -->`, shown and never run. Examples import
 * the package (`docdb`, `docdb/node`, …), never this repository's sources. Fast: reads Markdown only.
 */
import { describe, expect, it } from 'vitest';
import { REPO } from '../package/consumer.js';
import { allDocBlocks, docBlocks, EXAMPLE_LANGS, promisedOutput } from '../package/doc-blocks.js';

const blocks = allDocBlocks(REPO);
const where = (b: { file: string; line: number }) => `${b.file}:${b.line}`;
/** `import … from 'x'` and `import('x')` specifiers of a block. */
const importsOf = (code: string) =>
  [...code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2]);

describe('documented examples', () => {
  it('every ts/js/html block is marked tested or fragment', () => {
    const unmarked = blocks.filter((b) => EXAMPLE_LANGS.includes(b.lang) && !b.mark).map(where);
    expect(
      unmarked,
      'add <!-- tested: NAME --> (runs in install.test.ts) or <!-- fragment: why --> above each',
    ).toEqual([]);
  });

  it('tested names are unique, and only programs and shell sessions are marked tested', () => {
    const tested = blocks.filter((b) => b.mark?.kind === 'tested');
    const names = tested.map((b) => (b.mark?.kind === 'tested' ? b.mark.name : ''));
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(tested.filter((b) => b.lang === 'html' || !b.lang).map(where)).toEqual([]);
    expect(names.length).toBeGreaterThan(15);
  });

  it('tested programs import only the package (and node: built-ins)', () => {
    const bad = blocks
      .filter((b) => b.mark?.kind === 'tested' && b.lang !== 'sh')
      .flatMap((b) =>
        importsOf(b.code)
          .filter((s) => !/^(docdb(\/[\w/.-]+)?|node:[\w/]+)$/.test(s ?? ''))
          .map((s) => `${where(b)} imports ${s}`),
      );
    expect(bad).toEqual([]);
  });

  it("no example imports this repository's sources", () => {
    const bad = blocks.filter((b) => importsOf(b.code).some((s) => /(^|\/)src\//.test(s ?? ''))).map(where);
    expect(bad).toEqual([]);
  });

  it('the markers are read as written (the parser itself)', () => {
    const md = [
      '<!-- tested: a-b (next to data.git) -->',
      '```ts',
      'console.log(1 + 1); // 2',
      '```',
      '',
      '<!-- fragment: a type -->',
      '',
      '```ts',
      'type A = 1;',
      '```',
      '```js',
      'x();',
      '```',
    ].join('\n');
    const [a, b, c] = docBlocks(md, 'x.md');
    expect(a?.mark).toEqual({ kind: 'tested', name: 'a-b', note: '(next to data.git)' });
    expect(promisedOutput(a!.code)).toEqual(['2']);
    expect(b?.mark).toEqual({ kind: 'fragment', reason: 'a type' });
    expect(c).toMatchObject({ line: 11, lang: 'js', mark: null });
  });
});
