/**
 * The parent side of a peak-memory measurement: run a scenario script (which calls `measure` from
 * measure.ts) in its own Node process and return how much its resident set grew above the baseline it took
 * after its imports. Memory is a property of the input, not of time: tests may assert it (a refused bomb
 * stays under a bound); timings never.
 */
import { spawn } from 'node:child_process';
import { MARK, type Measurement } from './measure.js';

export interface PeakRss extends Measurement {
  /** Peak resident set above the baseline, in bytes. */
  aboveBytes: number;
  stderr: string;
}

export const MiB = 1024 * 1024;

/**
 * Run `script` (a path to a .ts file) with `args` under `node --expose-gc --import tsx`.
 *
 * @example
 * const m = await peakRss('__tests__/memory/scenarios/pack-bomb.ts', [String(1 << 30)]);
 * expect(m.error?.code).toBe('InvalidResponse');
 * expect(m.aboveBytes).toBeLessThan(256 * MiB);
 */
export function peakRss(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<PeakRss> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      const line = stdout.split('\n').find((l) => l.startsWith(MARK));
      if (!line) {
        reject(new Error(`${script} printed no measurement (exit ${status ?? signal}):\n${stderr.slice(-4000)}`));
        return;
      }
      const m = JSON.parse(line.slice(MARK.length)) as Measurement;
      resolve({ ...m, aboveBytes: Math.max(0, m.peakBytes - m.baselineBytes), stderr });
    });
  });
}
