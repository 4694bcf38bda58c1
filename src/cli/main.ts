/**
 * `docdb` command line: finds the command, parses its flags, runs it, prints errors the one way
 * and returns the exit code (docs/cli.md). Entry point only: commands live in ./commands/.
 */
import { describeFlags, parseCommandArgs } from './args.js';
import type { CliCommand, CliGroup } from './command.js';
import { type CliIo, EXIT, OutputClosed, processIo, reportError, terminalIo, UsageError } from './io.js';
import { didYouMean } from './suggest.js';
import { packageVersion } from './version.js';

type Entry = () => Promise<CliCommand | CliGroup>;

/** Every command: name → lazy import (a command loads only what it needs). */
export const COMMANDS: Record<string, Entry> = {
  doc: async () => (await import('./commands/doc.js')).group,
  project: async () => (await import('./commands/project.js')).command,
  emulator: async () => (await import('./commands/emulator.js')).command,
  demo: async () => (await import('./commands/demo.js')).command,
  init: async () => (await import('./commands/init.js')).command,
  migrate: async () => (await import('./commands/migrate.js')).command,
  section: async () => (await import('./commands/section.js')).group,
  view: async () => (await import('./commands/view.js')).command,
};

export const isGroup = (c: CliCommand | CliGroup): c is CliGroup => 'subcommands' in c;

async function overview(): Promise<string> {
  const lines: string[] = [];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const c = await load();
    if (isGroup(c)) {
      for (const [sub, loadSub] of Object.entries(c.subcommands)) {
        lines.push(`  ${`${name} ${sub}`.padEnd(14)} ${(await loadSub()).summary}`);
      }
    } else lines.push(`  ${name.padEnd(14)} ${c.summary}`);
  }
  return `usage: docdb <command> [flags]

A versioned document database on one git ref (refs/<root>/<section>), through GitHub's API or git.

commands:
${lines.join('\n')}

  --version      print the docdb version
  --help         this help; "docdb <command> --help" for a command's flags

Store flags (doc, section and project): --refstore api|git|subprocess|git-http, --repo, --api-url, --ref |
--root/--section, --git-dir, --remote, --token-env. Token: --token-env NAME, else $GITHUB_TOKEN, else
$GH_TOKEN, else "gh auth token"; a git remote not on GitHub: --token-env NAME or $DOCDB_GIT_TOKEN only.
Exit codes: 0 ok, 1 error, 2 usage, 3 not found, 4 precondition failed (--if-match); a closed stdout
(docdb … | head) ends quietly with 141, as git and gh do.
--json on every command.
Reference: docs/cli.md`;
}

function helpOf(c: CliCommand): string {
  return `${c.usage}\n\nflags:\n${describeFlags(c.flags)}\n`;
}

/** Help of a command group: its subcommands, as `git <group> -h` and `gh <group> --help` show them. */
async function groupHelp(g: CliGroup): Promise<string> {
  const lines: string[] = [];
  for (const [sub, load] of Object.entries(g.subcommands)) lines.push(`  ${sub.padEnd(10)} ${(await load()).summary}`);
  return `usage: docdb ${g.name} <subcommand> [flags]

${g.summary}

subcommands:
${lines.join('\n')}

"docdb ${g.name} <subcommand> --help" shows a subcommand's flags.
`;
}

const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');

/** `; did you mean "docdb doc get"?` when `name` is a subcommand given without its group (`docdb get`). */
async function groupOf(name: string | undefined): Promise<string | undefined> {
  if (name === undefined) return undefined;
  for (const [group, load] of Object.entries(COMMANDS)) {
    const c = await load();
    if (isGroup(c) && Object.hasOwn(c.subcommands, name)) return `; did you mean "docdb ${group} ${name}"?`;
  }
  return undefined;
}

/** Resolve argv to a command and its own arguments, or throw a UsageError. */
async function findCommand(argv: string[]): Promise<{ command: CliCommand; args: string[] } | { group: CliGroup }> {
  const [name, ...rest] = argv;
  const load = name === undefined ? undefined : COMMANDS[name];
  if (!load) {
    const known = [...Object.keys(COMMANDS), '--version', '--help'];
    const hint = (await groupOf(name)) ?? didYouMean(name ?? '', known);
    throw new UsageError(
      `unknown command ${JSON.stringify(name ?? '')}${hint} (commands: ${Object.keys(COMMANDS).join(', ')})`,
      undefined,
      '',
    );
  }
  const entry = await load();
  if (!isGroup(entry)) return { command: entry, args: rest };
  const [sub, ...args] = rest;
  if ((sub === undefined || sub.startsWith('-')) && wantsHelp(rest)) return { group: entry };
  const loadSub = sub === undefined ? undefined : entry.subcommands[sub];
  if (!loadSub) {
    const names = Object.keys(entry.subcommands).join(', ');
    throw new UsageError(
      sub === undefined || sub.startsWith('-')
        ? `docdb ${entry.name} needs a subcommand: ${names}`
        : `unknown subcommand ${JSON.stringify(sub)} of docdb ${entry.name}${didYouMean(sub, Object.keys(entry.subcommands), (n) => `"docdb ${entry.name} ${n}"`)} (allowed: ${names})`,
    );
  }
  return { command: await loadSub(), args };
}

/**
 * Run the CLI with `argv` (without `node` and the script) and return the exit code.
 *
 * @example
 * process.exitCode = await main(['doc', 'get', '--namespace', 'github', '--type', 'repo', '--id', 'o/r']);
 */
export async function main(argv: string[], given: CliIo = processIo()): Promise<number> {
  const io = terminalIo(given);
  let code: number;
  try {
    code = await run(argv, io);
  } catch (e) {
    // A closed stdout (`docdb … | head`) stops the command at its next write; nothing more is printed.
    if (!(e instanceof OutputClosed)) throw e;
    code = e.exitCode;
  }
  return given.closedExitCode?.() ?? code;
}

async function run(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const [first] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const text = await overview();
    if (json) io.stdout(`${JSON.stringify({ usage: text })}\n`);
    else (first === undefined ? io.stderr : io.stdout)(`${text}\n`);
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === '--version' || first === '-V') {
    const version = packageVersion();
    io.stdout(json ? `${JSON.stringify({ version })}\n` : `${version}\n`);
    return EXIT.ok;
  }
  let label = first;
  const secrets: string[] = [];
  try {
    const found = await findCommand(argv);
    if ('group' in found) {
      const text = await groupHelp(found.group);
      io.stdout(json ? `${JSON.stringify({ command: found.group.name, usage: text })}\n` : text);
      return EXIT.ok;
    }
    const { command, args } = found;
    label = command.name;
    if (wantsHelp(args)) {
      const text = helpOf(command);
      io.stdout(json ? `${JSON.stringify({ command: command.name, usage: text })}\n` : text);
      return EXIT.ok;
    }
    const { values, positionals, ordered } = parseCommandArgs(args, command.flags, command.maxPositionals ?? 0);
    return await command.run({ values, positionals, ordered, json, io, secrets });
  } catch (e) {
    if (e instanceof OutputClosed) throw e;
    return reportError(io, label, e, { json, secrets });
  }
}

// Run when executed directly (tsx src/cli/main.ts …); the installed entry is bin/docdb.js.
const invoked = process.argv[1] ?? '';
if (/[\\/]cli[\\/]main\.[jt]s$/.test(invoked)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(e);
      process.exitCode = EXIT.error;
    },
  );
}
