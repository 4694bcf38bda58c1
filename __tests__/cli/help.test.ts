/**
 * The CLI, its help and docs/cli.md agree (issue 22): every command's and group's --help exits 0, every
 * command has a section and a table row in cli.md naming each of its flags, and the exit-code table in
 * cli.md is exactly the codes the CLI uses, as the overview help lists them. The README's CLI section
 * names every command and every exit code too.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliCommand } from '../../src/cli/command.js';
import { EXIT } from '../../src/cli/io.js';
import { COMMANDS, isGroup } from '../../src/cli/main.js';
import { STORE_FLAGS } from '../../src/cli/store-factory.js';
import { runCli } from './run-cli.js';

const CLI_MD = readFileSync(resolve(import.meta.dirname, '../../docs/cli.md'), 'utf8');
const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The README's `## CLI` section up to the first example. */
function readmeCli(readme: string): string {
  const start = readme.indexOf('\n## CLI\n');
  return start < 0 ? '' : readme.slice(start, readme.indexOf('```', start));
}

/** The commands a README CLI section names: `docdb doc a | b`, `docdb name`. */
function readmeCommands(text: string): string[] {
  return [...text.matchAll(/`docdb ([a-z]+)((?: \| [a-z][a-z-]*|(?: [a-z][a-z-]*)?)*)`/g)].flatMap(([, first, rest]) => {
    const words = (rest ?? '').trim();
    if (!words) return [first!];
    const [sub, ...alternatives] = words.split(' | ');
    return [sub!, ...alternatives].map((w) => `${first} ${w}`);
  });
}

/** The codes in a README line "exit codes 0 ok, 1 error, …". */
function readmeExitCodes(text: string): number[] {
  const list = /exit codes ((?:\d [a-z ]+(?:\([^)]*\))?,? ?)+)/.exec(text)?.[1] ?? '';
  return [...list.matchAll(/(\d) [a-z]/g)].map((m) => Number(m[1]));
}

async function allCommands(): Promise<CliCommand[]> {
  const out: CliCommand[] = [];
  for (const load of Object.values(COMMANDS)) {
    const c = await load();
    if (isGroup(c)) for (const sub of Object.values(c.subcommands)) out.push(await sub());
    else out.push(c);
  }
  return out;
}

/** The text of `### \`docdb <name>\`` up to the next heading. */
function section(name: string): string {
  const start = CLI_MD.indexOf(`### \`docdb ${name}\``);
  if (start < 0) return '';
  const end = CLI_MD.indexOf('\n#', start + 1);
  return CLI_MD.slice(start, end < 0 ? undefined : end);
}

/** The first code block of a cli.md section: the command's synopsis. */
function synopsis(text: string): string {
  return /```\n([^`]*)```/.exec(text)?.[1] ?? '';
}

const words = (text: string) => text.trim().split(/\s+/).join(' ');

describe('every command against docs/cli.md', async () => {
  const commands = await allCommands();
  it('covers every command', () => {
    expect(commands.map((c) => c.name).sort()).toEqual(
      [
        'demo',
        'doc changes',
        'doc delete',
        'doc export',
        'doc get',
        'doc history',
        'doc index',
        'doc list',
        'doc put',
        'doc query',
        'doc schema',
        'doc search',
        'doc search-index',
        'doc test',
        'emulator',
        'init',
        'migrate',
        'project',
        'section compact',
        'section feed',
        'section quarantine',
        'view',
      ].sort(),
    );
  });
  for (const command of commands) {
    it(`docdb ${command.name}: --help exits 0; cli.md has its row, section and every flag`, async () => {
      const help = await runCli([...command.name.split(' '), '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: docdb ${command.name}`));
      expect(CLI_MD).toContain(`| \`${command.name}\` |`);
      const text = section(command.name);
      expect(text, `docs/cli.md has no section for docdb ${command.name}`).not.toBe('');
      // The section's synopsis is the help's usage (up to its first blank line), word for word.
      expect(words(synopsis(text))).toBe(words(help.stdout.split('\n\n')[0]!.replace(/^usage: /, '')));
      for (const flag of Object.keys(command.flags)) {
        const documented = flag in STORE_FLAGS ? CLI_MD.includes(`\`--${flag}`) : text.includes(`--${flag}`);
        expect(documented, `docs/cli.md does not document --${flag} of docdb ${command.name}`).toBe(true);
        expect(help.stdout, `--help of docdb ${command.name} omits --${flag}`).toContain(`--${flag}`);
      }
    });
  }
});

describe('groups and mistakes point at the right help', () => {
  it('docdb doc --help lists the subcommands and exits 0; docdb doc alone is a usage error', async () => {
    const help = await runCli(['doc', '--help']);
    expect(help.code).toBe(0);
    for (const sub of ['get', 'put', 'list', 'delete', 'history', 'changes'])
      expect(help.stdout).toContain(`  ${sub} `);
    const bare = await runCli(['doc']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Run "docdb doc --help" for usage.');
  });
  it('an unknown command points at docdb --help, not at itself', async () => {
    const r = await runCli(['frob']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "frob"');
    expect(r.stderr).toContain('Run "docdb --help" for usage.');
    expect(r.stderr).not.toContain('docdb frob --help');
  });
});

describe('exit codes', () => {
  it('the table in docs/cli.md is exactly the codes the CLI uses, and --help lists them all', async () => {
    const table = [...CLI_MD.matchAll(/^\| `(\d)` \|/gm)].map((m) => Number(m[1]));
    expect(table).toEqual(Object.values(EXIT).sort());
    const overview = (await runCli(['--help'])).stdout;
    for (const code of Object.values(EXIT)) expect(overview).toMatch(new RegExp(`\\b${code} [a-z]`));
  });
});

describe("the README's CLI section", async () => {
  const commands = (await allCommands()).map((c) => c.name).sort();
  const text = readmeCli(README);
  it('names every command, and its exit codes are the ones the CLI uses', () => {
    expect(readmeCommands(text).sort()).toEqual(commands);
    expect(readmeExitCodes(text)).toEqual(Object.values(EXIT).sort());
  });
  it('the checks catch a command or an exit code left out', () => {
    const stale =
      '\n## CLI\n\n`docdb init`, `docdb doc get | put | list | delete | history`, `docdb project`, `docdb emulator`, `docdb demo`;\n' +
      'exit codes 0 ok, 1 error, 2 usage, 3 not found. Full reference.\n```';
    const old = readmeCli(stale);
    expect(commands.filter((c) => !readmeCommands(old).includes(c))).toEqual([
      'doc changes',
      'doc export',
      'doc index',
      'doc query',
      'doc schema',
      'doc search',
      'doc search-index',
      'doc test',
      'migrate',
      'section compact',
      'section feed',
      'section quarantine',
      'view',
    ]);
    expect(readmeExitCodes(old)).toEqual([0, 1, 2, 3]);
  });
});
