/**
 * GitHub Action entry point (bundled to dist/index.js). Thin on purpose: read inputs with
 * @actions/core and the runner's context with @actions/github, call runAction, publish outputs and the
 * job summary, or fail with what to fix (spec problems as annotations on the spec's lines). Every line it
 * logs passes through `logText`: secrets redacted, and text from a source, the section or a server made
 * inert — no terminal control sequence, no workflow command (`::add-mask::` at a line's start) of its own.
 */
import * as core from '@actions/core';
import { context } from '@actions/github';
import { redactError, redactText } from '../core/redact.js';
import { inertText } from '../core/terminal-text.js';
import { annotations } from './annotations.js';
import { describeFailure } from './failure.js';
import { type ActionInputs, readInputs } from './inputs.js';
import { runAction } from './run-action.js';
import { checkRunnerFiles } from './runner-files.js';

async function main(): Promise<void> {
  let inputs: ActionInputs | undefined;
  const logText = (raw: string) => inertText(redactText(raw, [inputs?.token]));
  // Relative paths (the spec) are relative to the workspace, as docs/action.md says; a runner also starts
  // JavaScript actions there, but an explicit GITHUB_WORKSPACE wins over whatever the cwd is. (The
  // workspace is not part of @actions/github's context.)
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  try {
    let repository: string | undefined;
    try {
      repository = `${context.repo.owner}/${context.repo.repo}`;
    } catch {
      repository = undefined; // no GITHUB_REPOSITORY and no event payload: the "repository" input must say it
    }
    inputs = readInputs((name) => core.getInput(name), {
      GITHUB_REPOSITORY: repository,
      GITHUB_API_URL: context.apiUrl,
    });
    if (inputs.token) core.setSecret(inputs.token);
    // Outputs are written after the commit: a step that could commit but not report it must fail first.
    await checkRunnerFiles(process.env);
    const { outputs, summary, failed } = await runAction(inputs, {
      // Warnings (e.g. section state that was ignored as untrusted) become annotations on the run page.
      log: (raw) => {
        const line = logText(raw);
        if (line.startsWith('warning: ')) core.warning(line.slice('warning: '.length));
        else core.info(line);
      },
      debug: (line) => core.debug(logText(line)),
      group: { start: (name) => core.startGroup(logText(`projection ${name}`)), end: () => core.endGroup() },
      workspace,
      // The review modes read the pull request from the event (untrusted JSON, size-capped: review-event.ts).
      event: { name: process.env.GITHUB_EVENT_NAME, path: process.env.GITHUB_EVENT_PATH },
      serverUrl: context.serverUrl,
      run: {
        id: Number.isFinite(context.runId) ? context.runId : undefined,
        attempt: Number.isFinite(context.runAttempt) ? context.runAttempt : undefined,
      },
    });
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
    if (summary) {
      // On a runner the summary goes to the job page; elsewhere (local runs) print it to the log.
      if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summary).write();
      else core.info(logText(`\n${summary}`));
    }
    // Refused by a schema or expectations: the outputs and summary say why; the step still fails.
    if (failed) {
      core.info(logText(failed.message));
      for (const a of failed.annotations) {
        core.error(logText(a.message), { ...a.properties, title: logText(a.properties.title) });
      }
      if (failed.annotations.length === 0) core.setFailed(logText(failed.message));
      else process.exitCode = core.ExitCode.Failure;
    }
  } catch (e) {
    // Nothing printed relies on the runner's ::add-mask:: alone: every string of the error is redacted first.
    const secrets = [inputs?.token];
    redactError(e, secrets);
    const described = inputs ? describeFailure(e, inputs) : ((e as Error)?.message ?? String(e));
    const message = logText(described);
    const marks = annotations(e, message, workspace);
    if (marks.length === 0) core.setFailed(message);
    else {
      // One annotation per problem, on the spec line it is about (setFailed would add an unplaced duplicate).
      for (const a of marks) core.error(logText(a.message), { ...a.properties, title: logText(a.properties.title) });
      process.exitCode = core.ExitCode.Failure;
    }
  }
}

await main();
