/** Run the CLI in-process with captured output (the same `main` bin/docdb.js runs). */
import { main } from '../../src/cli/main.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as the one JSON value `--json` promises. */
  json: () => unknown;
}

export async function runCli(
  argv: string[],
  options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string } = {},
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    readStdin: async () => options.stdin,
  });
  return {
    code,
    stdout,
    stderr,
    json: () => {
      const lines = stdout.trim().split('\n');
      if (lines.length !== 1) throw new Error(`expected one JSON line on stdout, got:\n${stdout}`);
      return JSON.parse(lines[0]!);
    },
  };
}
