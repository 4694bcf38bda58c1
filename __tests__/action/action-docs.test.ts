/**
 * docs/action.md documents exactly the Action's interface (issue 22): every input and output that
 * action.yml declares has a row in the "Inputs" / "Outputs" table, and no row names one that action.yml
 * lacks. A row may name several (`namespace`, `type`, `id`).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const ACTION = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
};
const ACTION_MD = readFileSync(join(ROOT, 'docs/action.md'), 'utf8');

/** The table under `## <heading>`: the back-quoted names in each row's first cell. */
function tableNames(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/action.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  const rows = markdown
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

/** What the table gets wrong against the declared names. */
function mismatch(declared: string[], documented: string[]): { missing: string[]; unknown: string[] } {
  return {
    missing: declared.filter((name) => !documented.includes(name)),
    unknown: documented.filter((name) => !declared.includes(name)),
  };
}

describe('docs/action.md against action.yml', () => {
  it.each([
    ['Inputs', Object.keys(ACTION.inputs)],
    ['Outputs', Object.keys(ACTION.outputs)],
  ])('the %s table has a row for each one declared, and no other', (heading, declared) => {
    expect(mismatch(declared, tableNames(ACTION_MD, heading))).toEqual({ missing: [], unknown: [] });
  });

  it('catches a missing row and a row for an input action.yml lacks', () => {
    const table = [
      '## Inputs',
      '',
      '| Input | Default | Meaning |',
      '|---|---|---|',
      '| `spec` | `.github/docdb.yml` | Projection spec. |',
      '| `namespace`, `type` | — | `mode: read`. |',
      '| `sync` | — | not an input. |',
      '',
      '## Outputs',
    ].join('\n');
    expect(mismatch(['spec', 'namespace', 'type', 'since'], tableNames(`\n${table}`, 'Inputs'))).toEqual({
      missing: ['since'],
      unknown: ['sync'],
    });
  });
});
