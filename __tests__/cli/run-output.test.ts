/**
 * What the CLI prints about a projection run in a terminal (issue 32 items 4 and 8): workflow commands
 * read back into plain lines, a plain-text summary that names removed keys, and messages that name the
 * CLI's flags where the Action names its inputs — the same message builders, two vocabularies.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { renderSummary, type SummaryInput } from '../../src/action/summary.js';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { keyList, outputsSummary, renderTextSummary } from '../../src/cli/run-summary.js';
import { plainStepLog, underActions } from '../../src/cli/workflow-commands.js';
import { InvalidConfig } from '../../src/core/errors.js';
import type { RunReport } from '../../src/projection/run/index.js';
import { loadSpec, parseSpec } from '../../src/projection/spec/index.js';
import { tempDir } from '../temp-dir.js';

const MARKUP = /<code>|<\/?details>|<summary>|::[a-z-]+(?: [^:]*)?::|%3A|%2C|\*\*|\|---/;

function report(over: Partial<RunReport> = {}, removed: string[] = ['github/repo/octo-org/api.json']): RunReport {
  const added = ['github/repo/octo-org/widgets.json'];
  return {
    mode: 'project',
    ref: 'refs/docdb/documents',
    projections: [
      {
        name: 'repos',
        source: 'repository',
        repositories: [],
        incremental: false,
        items: 1,
        skipped: 0,
        skips: [],
        notModified: 0,
        added,
        changed: [],
        removed,
        unchanged: 2,
      },
    ],
    changed: true,
    version: 'a'.repeat(40),
    previousVersion: 'b'.repeat(40),
    written: added,
    deleted: removed,
    unchanged: 2,
    keys: [...added, ...removed].sort(),
    ...over,
  };
}

const input = (r: RunReport): SummaryInput => ({
  report: r,
  repository: 'octo-org/widgets',
  serverUrl: 'https://github.com',
  requests: 7,
  rateLimit: { limit: 5000, remaining: 4990, used: 10, reset: 1_800_000_000, resource: 'core' },
});

describe('plain-text run summary', () => {
  it('says what was projected, the counts, the removed keys, the new version and the rate limit — no markup', () => {
    const text = renderTextSummary(input(report()));
    expect(text).not.toMatch(MARKUP);
    expect(text.split('\n')).toEqual([
      'docdb project: refs/docdb/documents in octo-org/widgets',
      '  repos  repository  1 added, 0 modified, 1 removed, 2 unchanged',
      '1 removed: github/repo/octo-org/api',
      `new version ${'a'.repeat(40)} (previous ${'b'.repeat(40)})`,
      '7 request(s), rate limit left 4990/5000 (resets 2027-01-15T08:00:00.000Z)',
      '',
    ]);
  });

  it('caps the removed keys with "and N more"; a dry run says what would be removed', () => {
    const many = Array.from({ length: 13 }, (_, i) => `github/repo/o/r${String(i).padStart(2, '0')}.json`);
    const text = renderTextSummary(input(report({ mode: 'dry-run', changed: false }, many)));
    // Names as doc get takes them: the key without ".json" (issue 32 items 3/12).
    const names = many.map((k) => k.replace(/\.json$/, ''));
    expect(text).toContain(`13 would be removed: ${names.slice(0, 10).join(', ')} and 3 more\n`);
    expect(text).not.toContain('.json');
    expect(text).toContain('dry run: 14 document(s) would change; nothing was written');
    expect(keyList(['a', 'b', 'c'], 2)).toBe('a, b and 1 more');
    expect(keyList(['a', 'b'], 2)).toBe('a, b');
  });

  it('a run without removals has no removed line; an unchanged run says so', () => {
    const text = renderTextSummary(input(report({ changed: false }, [])));
    expect(text).not.toMatch(/removed:/);
    expect(text).toContain(`no changes: no commit, no write request; the section is at ${'a'.repeat(40)}`);
  });

  it('the step outputs of a dist/index.js run as plain text', () => {
    const text = outputsSummary({
      changed: 'true',
      written: '3',
      deleted: '1',
      unchanged: '0',
      version: 'v',
      requests: '9',
    });
    expect(text).toBe(
      `3 document(s) written (added or modified), 1 removed, 0 unchanged\n1 removed by prune, named in the Markdown job summary (GITHUB_STEP_SUMMARY) and by docdb doc changes --since PREVIOUS (lines D)\nnew version v (section created)\n9 request(s)\n`,
    );
    // Given the names (demo reads them from the section), they are listed as doc get takes them (issue 32 item 8).
    const named = outputsSummary(
      { changed: 'true', written: '0', deleted: '2', unchanged: '1', version: 'v', 'previous-version': 'p'.repeat(40) },
      ['github/repo/o/b', 'github/repo/o/a'],
    );
    expect(named).toContain('\n2 removed: github/repo/o/a, github/repo/o/b\n');
    expect(outputsSummary({ deleted: '0', version: 'v' })).not.toMatch(/removed( by prune)?:/);
  });
});

describe('the Markdown job summary names removed keys (item 8)', () => {
  it('outside the folded list, capped', () => {
    expect(renderSummary(input(report()))).toContain('**1 removed**: <code>github/repo/octo-org/api.json</code>\n');
    const many = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}.json`);
    expect(renderSummary(input(report({}, many)))).toMatch(
      /\*\*12 removed\*\*: (<code>k\d\d\.json<\/code>, ){9}<code>k09\.json<\/code> and 2 more\n/,
    );
    expect(renderSummary(input(report({}, [])))).not.toContain('removed**');
  });
});

describe('workflow commands in a terminal', () => {
  it('become plain lines: debug and masks left out, annotations with their file and line, escapes undone', () => {
    const log = [
      '::add-mask::***',
      '::debug::GET https://api.github.com/repos/o/r 200',
      '::group::projection repos',
      '[repos] 3 item(s)',
      '::endgroup::',
      '::error title=docdb%3A NotFound,file=specs/bad.yml,line=4::source repository octo-org/nope not found%0D%0Asecond line 100%25',
      '::warning::a %253A stays',
      'plain :: text',
    ].join('\n');
    const plain = plainStepLog(log);
    expect(plain.split('\n')).toEqual([
      '▸ projection repos',
      '[repos] 3 item(s)',
      'error: source repository octo-org/nope not found',
      'second line 100% (specs/bad.yml:4)',
      'warning: a %3A stays',
      'plain :: text',
    ]);
    expect(plain).not.toMatch(/::debug::|title=|docdb%3A/);
  });

  it('only GITHUB_ACTIONS=true is Actions', () => {
    expect(underActions({ GITHUB_ACTIONS: 'true' })).toBe(true);
    expect(underActions({ GITHUB_ACTIONS: 'false' })).toBe(false);
    expect(underActions({ CI: 'true' })).toBe(false);
  });
});

describe("messages name the setting in the entry point's words", () => {
  it('input errors: input "mode" for the Action, --mode for the CLI', () => {
    const get = (values: Record<string, string>) => (n: string) => values[n] ?? '';
    const err = (names?: typeof CLI_INPUT_NAMES) => {
      try {
        readInputs(get({ mode: 'sync', repository: 'o/r' }), {}, names);
      } catch (e) {
        return e as InvalidConfig;
      }
      throw new Error('no error');
    };
    expect(err().message).toMatch(/^input "mode": "sync" is not a mode/);
    expect(err(CLI_INPUT_NAMES).message).toMatch(/^--mode: "sync" is not a mode/);
    expect(err(CLI_INPUT_NAMES)).toBeInstanceOf(InvalidConfig);
    expect(() => readInputs(get({ repository: 'o/r', shard: '0/2' }), {}, CLI_INPUT_NAMES)).toThrow(/^--shard: "0\/2"/);
    expect(() => readInputs(get({ repository: 'nope' }), {}, CLI_INPUT_NAMES)).toThrow(/^--repo: "nope" is not/);
  });

  it('a missing spec: set the "spec" input (Action), set --spec (CLI)', async () => {
    const dir = tempDir('docdb-names-');
    const missing = join(dir, 'nope.yml');
    await expect(loadSpec(missing, { displayPath: 'nope.yml' })).rejects.toThrow(
      /nope\.yml not found: .* or set the "spec" input to its path$/,
    );
    await expect(loadSpec(missing, { displayPath: 'nope.yml', inputNames: CLI_INPUT_NAMES })).rejects.toThrow(
      /nope\.yml not found: .* or set --spec to its path$/,
    );
    const outside = tempDir('docdb-names-outside-');
    writeFileSync(join(outside, 'docdb.yml'), 'version: 1\n');
    await expect(loadSpec(join(outside, 'docdb.yml'), { workspace: dir })).rejects.toThrow(
      /; the "spec" input must name a file inside the workspace/,
    );
    await expect(loadSpec(join(outside, 'docdb.yml'), { workspace: dir, inputNames: CLI_INPUT_NAMES })).rejects.toThrow(
      /outside the workspace .*; --spec must name a file inside the workspace/,
    );
  });

  it('no default repository: the "repository" input (Action), --repo (CLI)', () => {
    const yml = 'version: 1\nprojections:\n  r:\n    source: { type: issues }\n';
    expect(() => parseSpec(yml, 'd.yml')).toThrow(/set defaults\.repositories or the "repository" input/);
    expect(() => parseSpec(yml, 'd.yml', { inputNames: CLI_INPUT_NAMES })).toThrow(
      /set defaults\.repositories or --repo\)/,
    );
  });
});
