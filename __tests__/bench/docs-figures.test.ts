/**
 * One source for every benchmark figure: the tables and figures between `<!-- bench:NAME -->` and
 * `<!-- /bench -->` in README.md and docs/*.md must be exactly what `npm run bench:docs` writes from the
 * committed bench/results/*.json. Fast: renders from the JSON files, runs no benchmark.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fillMarkers } from '../../scripts/bench-docs/markers.js';
import { renderDocs } from '../../scripts/bench-docs/render.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('benchmark figures in README and docs', () => {
  let docs: ReturnType<typeof renderDocs>['docs'];
  let unused: string[];
  beforeAll(() => {
    ({ docs, unused } = renderDocs(ROOT));
  });

  it('match what npm run bench:docs writes from the committed bench/results', () => {
    // The first line that differs in each stale file, committed against generated.
    const stale = docs
      .filter((d) => d.current !== d.next)
      .map((d) => {
        const now = d.current.split('\n');
        const next = d.next.split('\n');
        const i = now.findIndex((l, k) => l !== next[k]);
        return `${d.file}:${i + 1}: committed "${now[i]}", generated "${next[i]}" — run npm run bench:docs`;
      });
    expect(stale).toEqual([]);
  });

  it('every figure the script defines is quoted somewhere, and the docs quote many', () => {
    expect(unused).toEqual([]);
    const markers = docs.reduce((n, d) => n + (d.current.match(/<!-- bench:[a-z0-9-]+ -->/g)?.length ?? 0), 0);
    expect(markers).toBeGreaterThan(30);
  });
});

describe('bench markers (the parser itself)', () => {
  const render = (name: string) => (name === 'table' ? '| a |\n|---|\n| 1 |' : `<${name}>`);

  it('fills inline markers in place and block markers on lines of their own', () => {
    const md = 'in <!-- bench:n -->7<!-- /bench --> requests\n\n<!-- bench:table -->\nold\n<!-- /bench -->\n';
    const { text, names } = fillMarkers(md, render);
    expect(names).toEqual(['n', 'table']);
    expect(text).toBe(
      'in <!-- bench:n --><n><!-- /bench --> requests\n\n<!-- bench:table -->\n\n| a |\n|---|\n| 1 |\n\n<!-- /bench -->\n',
    );
    expect(fillMarkers(text, render).text).toBe(text); // idempotent
  });

  it('refuses an unclosed marker and a multi-line figure inside a sentence', () => {
    expect(() => fillMarkers('a <!-- bench:n -->7 b', render)).toThrow(/without <!-- \/bench -->/);
    expect(() => fillMarkers('a <!-- bench:n -->7 <!-- bench:m -->8<!-- /bench -->', render)).toThrow(/not closed/);
    expect(() => fillMarkers('see <!-- bench:table --><!-- /bench -->', render)).toThrow(/line of its own/);
  });
});
