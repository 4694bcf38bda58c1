/**
 * The project's CI (.github/workflows/ci.yml) runs what it claims: on the Node 24 leg of the test matrix,
 * `npm test` gets DOCDB_NODE24, so the tests that run dist/index.js on the Action's own runtime
 * (__tests__/action/dist-node24.test.ts) run on GitHub instead of skipping; on the other legs it is empty
 * (the runner's node is not 24 there, and "is really Node 24" would fail).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

interface Job {
  strategy: { matrix: { node: number[]; include?: Record<string, unknown>[] } };
  steps: { uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }[];
}

/** The legs of a matrix of `node` values plus `include` entries (GitHub's rule: extend the legs they match). */
function legs(matrix: Job['strategy']['matrix']): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = matrix.node.map((node) => ({ node }));
  for (const extra of matrix.include ?? []) {
    const leg = out.find((l) => l.node === extra.node);
    if (leg) Object.assign(leg, extra);
    else out.push({ ...extra });
  }
  return out;
}

/** `${{ matrix.<key> }}` for one leg; any other expression is a failure (this check would not understand it). */
function evaluate(text: string, leg: Record<string, unknown>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    const m = /^matrix\.(\w+)$/.exec(expr);
    if (!m) throw new Error(`ci-workflow: unexpected expression \${{ ${expr} }}`);
    return String(leg[m[1]!] ?? '');
  });
}

/** Per leg: the Node version setup-node installs and the DOCDB_NODE24 `npm test` runs with. */
function nodeOfLegs(job: Job): { node: string; node24: string }[] {
  const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  const test = job.steps.find((s) => s.run === 'npm test');
  if (!setup || !test) throw new Error('ci-workflow: the test job has no setup-node or npm test step');
  return legs(job.strategy.matrix).map((leg) => ({
    node: evaluate(String(setup.with?.['node-version']), leg),
    node24: evaluate(test.env?.DOCDB_NODE24 ?? '', leg),
  }));
}

describe('.github/workflows/ci.yml', () => {
  it("passes DOCDB_NODE24 (the runner's node) to npm test on the Node 24 leg only", () => {
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { jobs: { test: Job } };
    expect(nodeOfLegs(ci.jobs.test)).toEqual([
      { node: '22', node24: '' },
      { node: '24', node24: 'node' },
    ]);
  });

  it('the check catches a Node 24 leg without it', () => {
    const nodeVersion = ['$', '{{ matrix.node }}'].join('');
    const job: Job = {
      strategy: { matrix: { node: [22, 24] } },
      steps: [{ uses: 'actions/setup-node@v4', with: { 'node-version': nodeVersion } }, { run: 'npm test' }],
    };
    expect(nodeOfLegs(job)).toContainEqual({ node: '24', node24: '' });
  });
});
