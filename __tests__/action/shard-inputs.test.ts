/**
 * The inputs of `shard-commit: merge` and `mode: merge` (issue 30 item 3) are checked before any
 * request, each error naming the input and what is allowed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readInputs } from '../../src/action/inputs.js';
import { CLI_INPUT_NAMES } from '../../src/cli/input-flags.js';
import { InvalidConfig } from '../../src/core/errors.js';

const read = (values: Record<string, string>, names?: typeof CLI_INPUT_NAMES) =>
  readInputs((n) => values[n] ?? '', { GITHUB_REPOSITORY: 'o/r' }, names);

describe('shard-commit, shards and mode: merge', () => {
  it('defaults: direct, no shards', () => {
    expect(read({})).toMatchObject({ shardCommit: 'direct', shards: 0, notify: '', notifyRepository: 'o/r' });
    expect(read({ shard: '2/4', 'shard-commit': 'merge' })).toMatchObject({
      shardCommit: 'merge',
      shard: { index: 2, count: 4 },
    });
    expect(read({ mode: 'merge', shards: '16' })).toMatchObject({ mode: 'merge', shards: 16 });
  });

  it.each([
    [
      { 'shard-commit': 'rebase' },
      'shard-commit',
      /input "shard-commit": "rebase" is not a way to commit shards; use direct or merge/,
    ],
    [{ 'shard-commit': 'merge' }, 'shard-commit', /input "shard-commit": merge needs the shard input too/],
    [{ mode: 'merge' }, 'shards', /input "shards": is required with mode: merge \(how many shards the matrix has/],
    [{ mode: 'merge', shards: '0' }, 'shards', /input "shards": "0" must be a whole number from 1 to 256/],
    [{ mode: 'merge', shards: '257' }, 'shards', /input "shards": "257" must be a whole number from 1 to 256/],
    [{ mode: 'merge', shards: '4', shard: '1/4' }, 'shard', /input "shard": does not apply to mode: merge/],
    [{ shards: '4' }, 'shards', /input "shards": only applies to mode: merge \(mode is project\)/],
    [{ 'notify-repository': 'a/b' }, 'notify-repository', /input "notify-repository": needs notify too/],
    [
      { shard: '1/4', 'shard-commit': 'merge', notify: 'x' },
      'notify',
      /input "notify": belongs on the mode: merge job: with shard-commit: merge a shard commits to its own ref/,
    ],
    [{ notify: 'x', 'notify-repository': 'nope' }, 'notify-repository', /"nope" is not "owner\/name"/],
  ])('%j is refused naming %s', (values, field, message) => {
    const e = (() => {
      try {
        read(values);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(InvalidConfig);
    expect((e as InvalidConfig).data.field).toBe(field);
    expect((e as InvalidConfig).message).toMatch(message);
  });

  it('the CLI names its flags', () => {
    expect(() => read({ mode: 'merge' }, CLI_INPUT_NAMES)).toThrow(/^--shards: is required with mode: merge/);
  });
});

describe('examples/workflows/docdb-shard-merge.yml', () => {
  const example = parse(
    readFileSync(new URL('../../examples/workflows/docdb-shard-merge.yml', import.meta.url), 'utf8'),
  );
  type Step = { uses?: string; with?: Record<string, string> };
  const docdb = (job: { steps: Step[] }) => job.steps.find((s) => s.uses?.startsWith('docdb/docdb'))!.with!;

  it('every shard job and the merge job take inputs readInputs accepts; shards is the matrix size; the merge needs the matrix', () => {
    const matrix = example.jobs.shard.strategy.matrix.shard as number[];
    const shardWith = docdb(example.jobs.shard);
    for (const m of matrix) {
      const given = { ...shardWith, shard: shardWith.shard!.replace(/\$\{\{\s*matrix\.shard\s*\}\}/, String(m)) };
      expect(read(given)).toMatchObject({ shardCommit: 'merge', shard: { index: m, count: matrix.length } });
    }
    expect(example.jobs.merge.needs).toBe('shard');
    expect(read(docdb(example.jobs.merge))).toMatchObject({
      mode: 'merge',
      shards: matrix.length,
      notify: expect.any(String),
    });
  });
});
