/** Shape of one CLI command module (`src/cli/commands/<name>.ts` exports `command`). */
import type { FlagSpecs, FlagValues } from './args.js';
import type { CliIo } from './io.js';

export interface CommandContext {
  values: FlagValues;
  positionals: string[];
  /** Every string flag in the order given, across flags (args.ts `Parsed.ordered`); absent in hand-built contexts. */
  ordered?: { name: string; value: string }[];
  /** `--json`: one JSON value on stdout. */
  json: boolean;
  io: CliIo;
  /** Strings to hide from anything printed (the resolved token); commands add to it. */
  secrets: string[];
}

export interface CliCommand {
  /** Full name, e.g. `doc get`. */
  name: string;
  /** One line for `docdb --help`. */
  summary: string;
  /** Help text: synopsis and description (the flag table is appended). */
  usage: string;
  /** Flags (`--json` and `--help` are added to every command). */
  flags: FlagSpecs;
  /** Positionals allowed (default 0). */
  maxPositionals?: number;
  /** Runs the command; returns the exit code (errors are thrown and reported by main). */
  run(ctx: CommandContext): Promise<number>;
}

/** A command with subcommands (`docdb doc get|put|…`). */
export interface CliGroup {
  name: string;
  summary: string;
  subcommands: Record<string, () => Promise<CliCommand>>;
}
