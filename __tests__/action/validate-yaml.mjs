/**
 * Validate workflow and action YAML files with @actions/workflow-parser, in a child process.
 * The parser imports its JSON schemas without `with { type: 'json' }`, which Node 20 rejects (Node 22+
 * and bundlers accept it), so a loader hook adds the attribute. Usage:
 *   node validate-yaml.mjs workflow FILE... | action FILE
 * Prints JSON: { "<file>": ["error", ...] }.
 */

import { readFileSync } from 'node:fs';
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`export async function load(url, context, next) {
  if (url.endsWith('.json')) {
    return next(url, { ...context, importAttributes: { type: 'json' } });
  }
  return next(url, context);
}`),
  import.meta.url,
);

const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = await import('@actions/workflow-parser');
const { parseAction } = await import('@actions/workflow-parser/actions/action-parser');
const trace = new NoOperationTraceWriter();
const [kind, ...files] = process.argv.slice(2);
const out = {};
for (const file of files) {
  const content = readFileSync(file, 'utf8');
  if (kind === 'action') {
    const result = parseAction({ name: file, content }, trace);
    out[file] = result.context.errors.getErrors().map((e) => e.message);
  } else {
    const result = parseWorkflow({ name: file, content }, trace);
    const errors = result.context.errors.getErrors().map((e) => e.message);
    if (result.value) {
      const template = await convertWorkflowTemplate(result.context, result.value);
      errors.push(...(template.errors ?? []).map((e) => e.Message ?? String(e)));
    }
    out[file] = errors;
  }
}
console.log(JSON.stringify(out));
