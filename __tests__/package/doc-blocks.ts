/**
 * The fenced code blocks of README.md and docs/*.md and how each is marked. A marker is an HTML comment on
 * the last non-blank line before the block:
 * - `<!-- tested: NAME … -->`: the pack-and-install test runs the block from the installed package;
 * - `<!-- fragment: why … -->`: shown, never run (a signature, a browser page, a configuration excerpt).
 * Blocks in the languages of {@link EXAMPLE_LANGS} must carry one of the two (docs-examples.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Languages whose blocks are code a user would paste into a program: each must be tested or a fragment. */
export const EXAMPLE_LANGS = ['ts', 'typescript', 'tsx', 'js', 'javascript', 'mjs', 'html'];

/** A block's marker; `note` is the rest of a `tested` comment (how it runs, e.g. "next to … data.git"). */
export type BlockMark = { kind: 'tested'; name: string; note: string } | { kind: 'fragment'; reason: string } | null;

export interface DocBlock {
  /** Path relative to the package root, e.g. `docs/core.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  code: string;
  mark: BlockMark;
}

/** The marker on the last non-blank line before line index `at`, if any. */
function markBefore(lines: readonly string[], at: number): BlockMark {
  let i = at - 1;
  while (i >= 0 && lines[i]?.trim() === '') i--;
  const prev = lines[i]?.trim() ?? '';
  const tested = /^<!-- tested: ([\w-]+)\b(.*?) ?-->$/.exec(prev);
  if (tested) return { kind: 'tested', name: tested[1]!, note: tested[2]!.trim() };
  const fragment = /^<!-- fragment: (.+?) ?-->$/.exec(prev);
  return fragment ? { kind: 'fragment', reason: fragment[1]! } : null;
}

/**
 * Every fenced block of one Markdown file, in order.
 *
 * @example
 * docBlocks('<!-- fragment: a type -->\n```ts\ntype A = 1;\n```\n', 'x.md')[0].mark // { kind: 'fragment', … }
 */
export function docBlocks(markdown: string, file: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code block`);
    blocks.push({
      file,
      line: i + 1,
      lang: open[1]!,
      code: `${lines.slice(i + 1, end).join('\n')}\n`,
      mark: markBefore(lines, i),
    });
    i = end;
  }
  return blocks;
}

/** README.md and every docs/*.md under `root`, relative to it. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The blocks of README.md and docs/*.md under `root` (this checkout, or the installed package). */
export function allDocBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((f) => docBlocks(readFileSync(join(root, f), 'utf8'), f));
}

/** The block marked `tested: NAME` (throws when there is none). */
export function testedBlock(blocks: readonly DocBlock[], name: string): DocBlock {
  const b = blocks.find((x) => x.mark?.kind === 'tested' && x.mark.name === name);
  if (!b) throw new Error(`no code block is marked "tested: ${name}"`);
  return b;
}

/**
 * The output an example promises: for each `console.log(…)` line that ends in a `// comment`, that
 * comment — in order. The pack-and-install test checks that the example prints exactly these lines.
 *
 * @example
 * promisedOutput("console.log(1 + 1); // 2\n") // ['2']
 */
export function promisedOutput(code: string): string[] {
  return code
    .split('\n')
    .map((l) => /console\.log\(.*?\/\/ (.+?)\s*$/.exec(l)?.[1])
    .filter((c): c is string => c !== undefined);
}
