/**
 * Loading `node:sqlite` (src/export/sqlite/node-sqlite.ts): a Node without it (22.12 without
 * --experimental-sqlite) gets a clear error naming the versions that have it; Node 22 prints an ExperimentalWarning
 * when the module loads (Node 24 no longer does): that one warning is dropped — and only that one.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSqlite, SqliteUnavailable } from '../../src/export/sqlite/node-sqlite.js';

const ROOT = resolve(import.meta.dirname, '../..');

describe('loadSqlite', () => {
  it('a Node without node:sqlite: SqliteUnavailable, saying which Node versions have it', () => {
    const err = (() => {
      try {
        loadSqlite(() => undefined);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SqliteUnavailable);
    expect((err as Error).message).toMatch(/needs Node's built-in node:sqlite.*Node 22\.13 or later.*Node 24/);
    expect((err as Error).message).toContain(process.version);
    // Node 22.12 throws for the unflagged module instead of answering undefined: the same error.
    expect(() =>
      loadSqlite(() => {
        throw Object.assign(new Error('No such built-in module: node:sqlite'), { code: 'ERR_UNKNOWN_BUILTIN_MODULE' });
      }),
    ).toThrow(SqliteUnavailable);
  });

  it('this Node has it (22.13+): a database opens', () => {
    const { DatabaseSync } = loadSqlite();
    const db = new DatabaseSync(':memory:');
    expect(db.prepare('SELECT 1 + 1 AS two').get()).toEqual({ two: 2 });
    db.close();
  });

  it('the SQLite ExperimentalWarning Node 22 prints is dropped; other warnings still reach stderr', () => {
    const stderrOf = (load: string) => {
      const script = [
        `import { loadSqlite } from ${JSON.stringify(`${ROOT}/src/export/sqlite/node-sqlite.ts`)};`,
        load,
      ];
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script.join('\n')], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      expect(r.status).toBe(0);
      return r.stderr;
    };
    // Loaded plainly, this Node (22, the suite's) warns — so the test can see the warning at all…
    expect(stderrOf("process.getBuiltinModule('node:sqlite');")).toMatch(
      /ExperimentalWarning: SQLite is an experimental feature/,
    );
    // …through loadSqlite it does not, and another warning while it loads (even an experimental one) still does.
    expect(stderrOf('loadSqlite();')).toBe('');
    const other = stderrOf(
      "loadSqlite((id) => { process.emitWarning('Frobnicate is an experimental feature', 'ExperimentalWarning'); return process.getBuiltinModule(id); });",
    );
    expect(other).not.toMatch(/SQLite/);
    expect(other).toMatch(/ExperimentalWarning: Frobnicate is an experimental feature/);
  }, 60_000);
});
