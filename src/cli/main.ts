/**
 * `docdb` command line: parses argv and dispatches to one command module. Entry point only:
 * commands live in ./commands/<name>.ts and call the library.
 */
import { parseArgs } from 'node:util';
import type { CliCommand } from './command.js';

const COMMANDS: Record<string, () => Promise<{ command: CliCommand }>> = {
  // Each command registers itself here: name → lazy import of ./commands/<name>.js
  emulator: () => import('./commands/emulator.js'),
  demo: () => import('./commands/demo.js'),
  doc: () => import('./commands/doc.js'),
};

function usage(): string {
  const names = Object.keys(COMMANDS).sort();
  return `usage: docdb <command> [options]\n\ncommands:\n${names.map((n) => `  ${n}`).join('\n')}\n\nRun "docdb <command> --help" for a command's options.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`docdb: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 2;
  }
  const { command } = await load();
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    console.error(`docdb ${name}: ${(e as Error).message}\n\n${command.usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(parsed.values, parsed.positionals);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    console.error(`docdb ${name}: ${err.code ? `${err.code}: ` : ''}${err.message ?? String(e)}`);
    return 1;
  }
}

// Run when executed directly (tsx src/cli/main.ts …, or bin/docdb.js).
const invoked = process.argv[1] ?? '';
if (/[\\/]cli[\\/]main\.[jt]s$/.test(invoked)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
