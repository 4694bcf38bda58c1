/** Shape of one CLI command module (`src/cli/commands/<name>.ts` exports `command`). */
import type { ParseArgsConfig } from 'node:util';

export interface CliCommand {
  /** Options in node:util parseArgs form (`--help` is added for every command). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Help text printed for --help and on bad options. */
  usage: string;
  /** Runs the command; returns the process exit code. */
  run(
    values: Record<string, string | boolean | (string | boolean)[] | undefined>,
    positionals: string[],
  ): Promise<number>;
}
