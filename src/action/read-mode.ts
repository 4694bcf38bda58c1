/**
 * The Action's `mode: read`: one document of the section (at the tip, or at `version`) as the `document`
 * output. When it is not there, the message says whether the repository is invisible, the section missing,
 * or only the document.
 */
import { NotFound } from '../core/errors.js';
import type { RefStore } from '../core/refstore.js';
import { DocumentStore } from '../document/index.js';
import type { ActionResult, ActionTools } from './context.js';
import type { ActionInputs } from './inputs.js';
import { rateOutputs } from './metered-fetch.js';
import { code, mdText } from './summary.js';

/**
 * Outputs and summary for `mode: read`.
 *
 * @example
 * const { outputs } = await readMode(inputs, { client: octokit, store, ref: 'refs/docdb/documents', meter, log });
 * JSON.parse(outputs.document).data;
 */
export async function readMode(inputs: ActionInputs, tools: ActionTools): Promise<ActionResult> {
  const { store, ref, meter, log } = tools;
  const documents = new DocumentStore(store);
  const identity = { namespace: inputs.namespace, doc_type: inputs.type, id: inputs.id };
  let envelope: Awaited<ReturnType<DocumentStore['get']>>;
  try {
    envelope = await documents.get(identity, inputs.version ? { version: inputs.version } : {});
  } catch (e) {
    // GitHub answers 404 to the ref read both for a missing section and an invisible repository; the
    // store then reads the repository itself, and a 404 there means the token cannot see it.
    if (e instanceof NotFound && e.data.step === 'read repository') throw notVisible(inputs, ref);
    throw e;
  }
  if (!envelope) {
    throw await whyNotFound(inputs, store, ref);
  }
  log(`read ${inputs.namespace}/${inputs.type}/${inputs.id} at ${envelope.version}`);
  const outputs = {
    document: JSON.stringify(envelope),
    version: String(envelope.version ?? ''),
    'previous-version': '',
    changed: 'false',
    verified: '',
    written: '0',
    deleted: '0',
    unchanged: '0',
    keys: '[]',
    requests: String(meter.requests),
    ...rateOutputs(meter),
  };
  const summary = `### docdb read: ${code(`${inputs.namespace}/${inputs.type}/${inputs.id}`)} from ${code(ref)} in ${mdText(inputs.repository)}\n\nVersion \`${String(envelope.version)}\`${inputs.version ? ' (pinned)' : ' (tip)'} · requests: ${meter.requests}\n`;
  return { outputs, summary };
}

function notVisible(inputs: ActionInputs, ref: string): NotFound {
  return new NotFound(
    `repository ${inputs.repository} is not visible: it does not exist or the token cannot see it; check the "repository" input, and give the "token" input read access to it (the workflow's GITHUB_TOKEN only sees its own repository)`,
    { repository: inputs.repository, ref, reason: 'repository-not-visible' },
  );
}

/**
 * Read mode found no document: say whether the section is missing or only the document. (An invisible
 * repository fails earlier, see notVisible: the store reads the repository when the ref read is a 404.)
 */
async function whyNotFound(inputs: ActionInputs, store: RefStore, ref: string): Promise<NotFound> {
  const at = inputs.version ? ` at ${inputs.version}` : '';
  const doc = `${inputs.namespace}/${inputs.type}/${inputs.id}`;
  const data = {
    repository: inputs.repository,
    ref,
    identity: { namespace: inputs.namespace, type: inputs.type, id: inputs.id },
  };
  const tip = inputs.version ? inputs.version : await store.head();
  if (tip) {
    return new NotFound(
      `document ${doc} not found in ${inputs.repository} ${ref}${at}: the section exists but has no such document; check "namespace", "type" and "id", or run the projection that writes it first`,
      { ...data, reason: 'document-missing' },
    );
  }
  return new NotFound(
    `section ${ref} does not exist in ${inputs.repository}, so document ${doc} cannot be read: run the projection first, or check the "root" and "section" inputs`,
    { ...data, reason: 'section-missing' },
  );
}
