/**
 * Render the benchmark figures of README.md and docs/*.md from bench/results/*.json: what each file would be
 * after `npm run bench:docs`, and which figures no file uses.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { figures } from './figures.js';
import { fillMarkers } from './markers.js';
import { loadResults, type Results } from './results.js';

/** One Markdown file: its text now and with every marker regenerated. */
export interface RenderedDoc {
  file: string;
  current: string;
  next: string;
}

/** README.md and docs/*.md under `root`, relative to it. */
export function markdownFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
  return ['README.md', ...docs.sort().map((f) => `docs/${f}`)];
}

/**
 * Every Markdown file with its markers filled from `results` (default: `root`/bench/results), and the
 * figures defined but used by no file. Throws on a marker naming no figure, or a figure whose result is missing.
 *
 * @example
 * const { docs } = renderDocs(process.cwd());
 * docs.filter((d) => d.current !== d.next).map((d) => d.file); // the files `npm run bench:docs` would change
 */
export function renderDocs(root: string, results: Results = loadResults(join(root, 'bench', 'results'))) {
  const used = new Set<string>();
  const docs: RenderedDoc[] = markdownFiles(root).map((file) => {
    const current = readFileSync(join(root, file), 'utf8');
    const { text, names } = fillMarkers(current, (name) => {
      const figure = figures[name];
      if (!figure) throw new Error(`${file}: <!-- bench:${name} --> names no figure (scripts/bench-docs/figures.ts)`);
      return figure(results);
    });
    for (const n of names) used.add(n);
    return { file, current, next: text };
  });
  return { docs, unused: Object.keys(figures).filter((n) => !used.has(n)) };
}
