/**
 * Runs documented examples in ONE Node process (started by install.test.ts with the tsx loader, in the
 * consumer project where `docdb` is installed). argv[2] is a JSON list of `{ name, file, dir }`; each file
 * is imported in turn with the working directory set to its `dir`, its console.log output captured. Prints
 * one JSON line: `{ [name]: { ok, output, error? } }`. Examples resolve `docdb` from their own location.
 */
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

interface Example {
  name: string;
  file: string;
  dir: string;
}
interface Outcome {
  ok: boolean;
  output: string;
  error?: string;
}

const examples = JSON.parse(process.argv[2] ?? '[]') as Example[];
const results: Record<string, Outcome> = {};
const log = console.log;
let current: Outcome | undefined;
process.on('unhandledRejection', (e) => {
  if (current) Object.assign(current, { ok: false, error: `unhandled rejection: ${String(e)}` });
});

for (const ex of examples) {
  const outcome: Outcome = { ok: true, output: '' };
  current = outcome;
  results[ex.name] = outcome;
  console.log = (...args: unknown[]) => {
    outcome.output += `${format(...args)}\n`;
  };
  try {
    process.chdir(ex.dir);
    await import(pathToFileURL(ex.file).href);
  } catch (e) {
    outcome.ok = false;
    outcome.error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  } finally {
    console.log = log;
  }
}
current = undefined;
log(JSON.stringify(results));
// An example that leaves a handle open (a timer, a socket) must not hang the test: its outcome is in.
process.exit(0);
