/**
 * Issue 37 item 14: a ref in a section's reserved space (`refs/<root>/<section>.shards/<i>`, and the
 * `.quarantine/` and `.previews/` spaces) is refused by EVERY command that takes a section from the user —
 * found by walking the command table, so a command added later is checked too — with a usage error that
 * names the flag, the space and what to use, before any request. (A merge job deletes leftover shard refs:
 * a section written there would be lost.)
 */
import { describe, expect, it } from 'vitest';
import type { CliCommand } from '../../src/cli/command.js';
import { COMMANDS, isGroup } from '../../src/cli/main.js';
import { RESERVED_REF_SPACES } from '../../src/core/refname.js';
import { runCli } from './run-cli.js';

/** Every command (`doc get`, `project`, …) and its flags. */
async function everyCommand(): Promise<[string[], CliCommand][]> {
  const out: [string[], CliCommand][] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const c = await load();
    if (isGroup(c)) for (const [sub, l] of Object.entries(c.subcommands)) out.push([[name, sub], await l()]);
    else out.push([[name], c]);
  }
  return out;
}

/** An emulator URL that nothing listens on: any request would fail with a transport error, not exit 2. */
const env = { GITHUB_REPOSITORY: 'octo/data', GITHUB_API_URL: 'http://127.0.0.1:9', GITHUB_TOKEN: 'ghp_unused' };

describe('every command refuses a section ref in a reserved space', async () => {
  const commands = await everyCommand();
  const cases = commands.flatMap(([argv, c]) =>
    RESERVED_REF_SPACES.flatMap(({ suffix }) =>
      (['ref', 'section', 'root'] as const)
        .filter((flag) => c.flags[flag] !== undefined)
        .map((flag) => {
          const value =
            flag === 'ref'
              ? `refs/docdb/documents${suffix}/1`
              : flag === 'section'
                ? `documents${suffix}/1`
                : `docdb${suffix}`;
          return [`${argv.join(' ')} --${flag} ${value}`, argv, flag, value, suffix] as const;
        }),
    ),
  );

  it('finds the commands that take a section (doc *, project, section compact, view)', () => {
    const names = new Set(cases.map(([, argv]) => argv.join(' ')));
    for (const n of ['doc get', 'doc put', 'doc query', 'doc export', 'project', 'section compact', 'view']) {
      expect(names).toContain(n);
    }
  });

  it.each(cases)('%s', async (_, argv, flag, value, suffix) => {
    // The document's name for the commands that need one: only the section is wrong.
    const named = ['get', 'put', 'delete', 'history'].includes(argv[1] ?? '') ? ['github/repo/octo/a'] : [];
    const r = await runCli([...argv, ...named, `--${flag}`, value], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--${flag}`);
    expect(r.stderr).toContain(`is in a reserved space: a component ending in "${suffix}"`);
    if (flag === 'ref') expect(r.stderr).toContain("use the section's own ref refs/docdb/documents");
    expect(r.stdout).toBe('');
  });
});
