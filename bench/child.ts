/** Running a benchmark's worker process: its exit status and everything it printed. */
import { spawn } from 'node:child_process';

export interface ChildRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `cmd` with `args` to completion, asynchronously (the emulator answering the worker lives in the
 * calling process, so it must keep serving). `echo` also copies the child's output to this stderr.
 *
 * @example
 * const r = await runChild(process.execPath, ['--import', 'tsx', 'bench/writes-worker.ts', url, repo, '1000', 'spread']);
 * if (r.status !== 0) throw new Error(r.stderr);
 */
export function runChild(
  cmd: string,
  args: readonly string[],
  opts: { env?: NodeJS.ProcessEnv; echo?: boolean } = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      if (opts.echo) process.stderr.write(d);
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
