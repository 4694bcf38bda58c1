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
  /** `stderrIsTTY`: run as if stderr were a terminal (commands show progress only there). */
  options: { env?: NodeJS.ProcessEnv; stdin?: string; cwd?: string; stderrIsTTY?: boolean } = {},
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
    ...(options.stderrIsTTY !== undefined ? { stderrIsTTY: options.stderrIsTTY } : {}),
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
