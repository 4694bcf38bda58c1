/**
 * GitHub Action entry point (bundled to dist/index.js). Thin on purpose: read inputs with
 * @actions/core, call runAction, publish outputs and the job summary, or fail with what to fix.
 */
import * as core from '@actions/core';
import { describeFailure } from './failure.js';
import { type ActionInputs, readInputs } from './inputs.js';
import { runAction } from './run-action.js';

async function main(): Promise<void> {
  let inputs: ActionInputs | undefined;
  try {
    inputs = readInputs((name) => core.getInput(name), process.env);
    if (inputs.token) core.setSecret(inputs.token);
    // Relative paths (the spec) are relative to the workspace, as docs/action.md says; a runner also starts
    // JavaScript actions there, but an explicit GITHUB_WORKSPACE wins over whatever the cwd is.
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    const { outputs, summary } = await runAction(inputs, { log: (line) => core.info(line), workspace });
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
    if (summary) {
      // On a runner the summary goes to the job page; elsewhere (local runs) print it to the log.
      if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summary).write();
      else core.info(`\n${summary}`);
    }
  } catch (e) {
    core.setFailed(inputs ? describeFailure(e, inputs) : ((e as Error)?.message ?? String(e)));
  }
}

await main();
