/**
 * The Action's `mode: compact`: replace the section's older history by one root commit, keeping what
 * `keep-commits` / `keep-days` / `thin` say (docs/retention.md). Paced within GitHub's content-creation
 * limits on a real host; unpaced against a loopback API (the emulator).
 */
import type { RefStore } from '../core/refstore.js';
import { isLoopbackHost } from '../projection/spec/index.js';
import { compactSection } from '../retention/index.js';
import type { ActionInputs } from './inputs.js';

/**
 * Outputs and summary for `mode: compact`.
 *
 * @example
 * const { outputs } = await compactMode(inputs, store, 'refs/docdb/documents');
 * outputs.kept; // '720'
 */
export async function compactMode(
  inputs: ActionInputs,
  store: RefStore,
  ref: string,
): Promise<{ outputs: Record<string, string>; summary: string }> {
  const loopback = isLoopbackHost(new URL(inputs.apiUrl).hostname);
  const r = await compactSection(store, inputs.retention ?? {}, loopback ? { pacing: false } : {});
  const outputs: Record<string, string> = {
    version: r.version ?? '',
    'previous-version': r.previousVersion,
    changed: String(r.compacted),
    kept: String(r.kept),
    written: '0',
    deleted: '0',
    unchanged: '0',
    keys: '[]',
    document: '',
  };
  const summary =
    `### docdb compact of \`${ref}\` in ${inputs.repository}\n\n` +
    (r.compacted
      ? `History replaced from \`${r.previousVersion}\`: ${r.kept} commit(s) kept${r.removed === null ? '' : `, ${r.removed} removed`}; new tip \`${r.version}\`${r.attempts > 1 ? ` (${r.attempts - 1} concurrent write(s) re-created)` : ''}.\n`
      : `Nothing to compact: the history already fits the policy (tip \`${r.version}\`).\n`);
  return { outputs, summary };
}
