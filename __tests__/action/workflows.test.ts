/** action.yml and every workflow YAML (CI and the copyable examples) must parse with GitHub's own parser. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');

const workflowFiles = [
  ...readdirSync(join(ROOT, '.github/workflows')).map((f) => `.github/workflows/${f}`),
  ...readdirSync(join(ROOT, 'examples/workflows')).map((f) => `examples/workflows/${f}`),
].filter((f) => /\.ya?ml$/.test(f));

/** Run GitHub's parser (in a child process, see validate-yaml.mjs) over files; returns errors per file. */
function validate(kind: 'workflow' | 'action', files: string[]): Promise<Record<string, string[]>> {
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      [join(import.meta.dirname, 'validate-yaml.mjs'), kind, ...files],
      { cwd: ROOT, encoding: 'utf8' },
      (err, stdout, stderr) => (err ? fail(new Error(stderr || String(err))) : done(JSON.parse(stdout))),
    ),
  );
}

/** Workflow snippets users copy from the README and docs/action.md (```yaml blocks with `on:` and `jobs:`). */
const docSnippets: { name: string; file: string }[] = [];

let results: Record<string, string[]> = {};
let dir = '';
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docdb-wf-'));
  for (const doc of ['README.md', 'docs/action.md']) {
    const blocks = [...readFileSync(join(ROOT, doc), 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]!);
    blocks.forEach((text, i) => {
      if (!/^on:/m.test(text) || !/^jobs:/m.test(text)) return;
      const file = join(dir, `${doc.replace(/\W/g, '_')}-${i}.yml`);
      writeFileSync(file, text);
      docSnippets.push({ name: `${doc} yaml block ${i + 1}`, file });
    });
  }
  const bad = join(dir, 'bad.yml');
  writeFileSync(bad, 'on: push\njobs:\n  a:\n    runs-on: x\n    stepz: []\n');
  const badAction = join(dir, 'action.yml');
  writeFileSync(badAction, 'name: x\ndescription: y\nruns:\n  using: node24\n  mian: dist/index.js\n');
  results = {
    ...(await validate('workflow', [...workflowFiles, ...docSnippets.map((d) => d.file), bad])),
    ...(await validate('action', ['action.yml', badAction])),
  };
  results.__bad = results[bad]!;
  results.__badAction = results[badAction]!;
});

describe('workflows parse with @actions/workflow-parser', () => {
  it('finds the CI workflow and the four examples', () => {
    expect(workflowFiles).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        'examples/workflows/docdb-scheduled.yml',
        'examples/workflows/docdb-on-push.yml',
        'examples/workflows/docdb-backfill.yml',
        'examples/workflows/docdb-read.yml',
        'examples/workflows/docdb-org-inventory-matrix.yml',
        'examples/workflows/docdb-viewer-pages.yml',
        'examples/workflows/docdb-feed-pages.yml',
      ]),
    );
  });

  for (const file of workflowFiles) {
    it(`${file} is a valid workflow`, () => {
      expect(results[file]).toEqual([]);
    });
  }

  it('the workflow YAML shown in README.md and docs/action.md is valid too', () => {
    expect(docSnippets.map((d) => d.name)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^README\.md/), expect.stringMatching(/^docs\/action\.md/)]),
    );
    for (const d of docSnippets) expect(results[d.file], d.name).toEqual([]);
  });

  it('the parser does catch mistakes (so the checks above mean something)', () => {
    expect(results.__bad!.join('\n')).toMatch(/Unexpected value 'stepz'/);
    expect(results.__badAction!.length).toBeGreaterThan(0);
  });

  it('examples use only inputs and outputs that action.yml declares', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
    const inputs = Object.keys(action.inputs);
    const outputs = Object.keys(action.outputs);
    for (const file of workflowFiles.filter((f) => f.startsWith('examples/'))) {
      const wf = parse(readFileSync(join(ROOT, file), 'utf8'));
      for (const job of Object.values(wf.jobs) as { steps: { uses?: string; with?: Record<string, unknown> }[] }[]) {
        for (const step of job.steps) {
          if (!step.uses?.startsWith('docdb/docdb')) continue;
          for (const k of Object.keys(step.with ?? {})) expect(inputs, `${file}: with.${k}`).toContain(k);
        }
      }
      // Outputs of docdb's steps only (another action's, such as deploy-pages' page_url, are its own).
      const ids = new Set(
        (Object.values(wf.jobs) as { steps: { id?: string; uses?: string }[] }[]).flatMap((job) =>
          job.steps.flatMap((step) => (step.uses?.startsWith('docdb/docdb') && step.id ? [step.id] : [])),
        ),
      );
      for (const m of readFileSync(join(ROOT, file), 'utf8').matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
        if (ids.has(m[1]!)) expect(outputs, `${file}: outputs.${m[2]}`).toContain(m[2]);
      }
    }
  });
});

describe('action.yml', () => {
  it('is valid action metadata with the public inputs and outputs', () => {
    const content = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    expect(results['action.yml']).toEqual([]);
    const action = parse(content);
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'spec',
        'token',
        'repository',
        'root',
        'section',
        'api-url',
        'mode',
        'projections',
        'namespace',
        'type',
        'id',
        'version',
        'since',
        'export-path',
        'export-format',
        'keep-commits',
        'keep-days',
        'thin',
        'where',
        'order-by',
        'limit',
        'fields',
        'require-index',
        'search',
        'operations',
        'dry-run',
        'schema',
        'retry-concurrent-writes',
        'commit-message',
        'shard',
        'shard-commit',
        'shards',
        'notify',
        'notify-repository',
        'min-rate-limit',
        'reducer-timeout',
        'quarantine',
        'pull-request',
        'viewer-url',
        'review-file',
        'feed',
        'feed-limit',
        'feed-url',
      ].sort(),
    );
    expect(Object.keys(action.outputs).sort()).toEqual(
      [
        'version',
        'previous-version',
        'changed',
        'verified',
        'written',
        'deleted',
        'unchanged',
        'keys',
        'document',
        'added',
        'modified',
        'removed',
        'path',
        'count',
        'rows',
        'answered-by',
        'total',
        'counts',
        'kept',
        'ok',
        'violations',
        'violation-count',
        'review',
        'conclusion',
        'preview-ref',
        'review-file',
        'feed',
        'comment-url',
        'check-url',
        'missing',
        'quarantine-ref',
        'quarantine-version',
        'requests',
        'rate-limit-remaining',
        'rate-limit-reset',
      ].sort(),
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a JS template
    expect(action.inputs.token.default).toBe('${{ github.token }}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a JS template
    expect(action.inputs['api-url'].default).toBe('${{ github.api_url }}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a JS template
    expect(action.inputs.repository.default).toBe('${{ github.repository }}');
    expect(action.inputs.spec.default).toBe('.github/docdb.yml');
    expect(action.inputs.root.default).toBe('docdb');
    expect(action.inputs.section.default).toBe('documents');
    expect(action.inputs.mode.default).toBe('project');
    for (const [name, def] of Object.entries({ ...action.inputs, ...action.outputs }) as [
      string,
      { description?: string },
    ][]) {
      expect(def.description, name).toBeTruthy();
    }
  });
});
