/**
 * `schema:` and `quarantine:` in the spec (issue 38, the runner's side): an inline schema or a `.json` path,
 * kept on the projection with its line; two projections writing one type must give the same schema (the
 * refusal names both); `quarantine:` is true or false. A schema file is read before any request under the
 * reducer modules' rule — relative to the spec file, its real path inside the workspace — and refused naming
 * `projections.<name>.schema` and its line when it is missing, outside the workspace (by "..", an absolute
 * path or a symbolic link), not JSON, or not an object.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidSpec } from '../../src/core/errors.js';
import { loadSchemas } from '../../src/projection/run/index.js';
import { parseSpec } from '../../src/projection/spec/index.js';
import { tempDir } from '../temp-dir.js';

const ROWS = 'projections:\n  rows:\n    source: { type: files, glob: "*.csv" }\n    identity: { id: "{item.key}" }\n';

function specError(text: string): InvalidSpec {
  try {
    parseSpec(text, 'docdb.yml');
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidSpec);
    return e as InvalidSpec;
  }
  throw new Error('expected the spec to be rejected');
}

describe('schema: in the spec', () => {
  it('keeps an inline schema or a path, with the line of schema:', () => {
    const inline = parseSpec(`${ROWS}    schema: { type: object, required: [value] }\n`, 'docdb.yml');
    expect(inline.projections[0]?.schema).toEqual({ inline: { type: 'object', required: ['value'] } });
    expect(inline.projections[0]?.lines.schema).toBe(5);
    const file = parseSpec(`${ROWS}    schema: ./schemas/row.json\n`, 'docdb.yml');
    expect(file.projections[0]?.schema).toEqual({ file: './schemas/row.json' });
    expect(parseSpec(ROWS, 'docdb.yml').projections[0]).not.toHaveProperty('schema');
  });

  it.each([
    ['schema: ./schemas/row.yaml', /must be a JSON Schema \(a mapping\) or the path of a \.json file/],
    ['schema: [a, b]', /must be a JSON Schema \(a mapping\) or the path of a JSON file/],
    ['schema: 3', /must be a JSON Schema \(a mapping\) or the path of a JSON file/],
  ])('%s is refused naming the field and line', (line, message) => {
    const e = specError(`${ROWS}    ${line}\n`);
    expect(e.data.field).toBe('projections.rows.schema');
    expect(e.data.line).toBe(5);
    expect(e.message).toMatch(message);
  });

  it('two projections of one type with different schemas are refused naming both; the same one, or one only, is fine', () => {
    const two = (a: string, b: string) =>
      `${ROWS}    ${a}\n  more:\n    source: { type: files, glob: "*.tsv" }\n    identity: { type: rows, id: "{item.key}" }\n    ${b}\n`;
    const e = specError(two('schema: { type: object }', 'schema: { type: array }'));
    expect(e.data.field).toBe('projections.more.schema');
    expect(e.message).toMatch(/"rows" and "more" both write data\/rows\/… with different schemas/);
    expect(specError(two('schema: ./a.json', 'schema: ./b.json')).message).toMatch(/different schemas/);
    expect(specError(two('schema: ./a.json', 'schema: { type: object }')).message).toMatch(/different schemas/);
    // Key order does not make two schemas different; "./" does not make two paths different.
    expect(() =>
      parseSpec(two('schema: { type: object, required: [a] }', 'schema: { required: [a], type: object }'), 'd.yml'),
    ).not.toThrow();
    expect(() => parseSpec(two('schema: ./a.json', 'schema: a.json'), 'd.yml')).not.toThrow();
    expect(() => parseSpec(two('schema: ./a.json', 'description: none'), 'd.yml')).not.toThrow();
  });

  it('quarantine: is a top-level true or false', () => {
    expect(parseSpec(`quarantine: true\n${ROWS}`, 'docdb.yml').quarantine).toBe(true);
    expect(parseSpec(ROWS, 'docdb.yml')).not.toHaveProperty('quarantine');
    const e = specError(`quarantine: sometimes\n${ROWS}`);
    expect(e.data.field).toBe('quarantine');
    expect(e.message).toMatch(/must be true or false/);
    expect(specError(`quarentine: true\n${ROWS}`).message).toMatch(/unknown field "quarentine".*quarantine/);
  });
});

describe('schema files (loadSchemas)', () => {
  /** A workspace with the spec in .github/ and an `outside` directory beside it. */
  function setup(files: Record<string, string>) {
    const root = tempDir('docdb-schema-');
    const ws = join(root, 'ws');
    mkdirSync(join(ws, '.github', 'schemas'), { recursive: true });
    mkdirSync(join(root, 'outside'), { recursive: true });
    writeFileSync(join(root, 'outside', 'secret.json'), '{"type":"object"}');
    for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text);
    return { root, ws, base: join(ws, '.github') };
  }
  const load = (schemaLine: string, ws: string, base: string) => {
    const spec = parseSpec(`${ROWS}    ${schemaLine}\n`, '.github/docdb.yml');
    return loadSchemas(spec.projections, { specFile: spec.file, baseDir: base, confineTo: ws });
  };

  it('reads a file relative to the spec file; an inline schema needs no file; one per type', async () => {
    const { ws, base } = setup({ '.github/schemas/row.json': '{"type":"object","required":["value"]}' });
    expect(await load('schema: ./schemas/row.json', ws, base)).toEqual([
      { namespace: 'data', type: 'rows', schema: { type: 'object', required: ['value'] } },
    ]);
    expect(await load('schema: { type: object }', ws, base)).toEqual([
      { namespace: 'data', type: 'rows', schema: { type: 'object' } },
    ]);
  });

  it.each([
    ['a path climbing out with ..', () => '../../outside/secret.json', 'outside-workspace', /outside the workspace/],
    [
      'an absolute path outside',
      (root: string) => join(root, 'outside', 'secret.json'),
      'outside-workspace',
      /outside the workspace/,
    ],
    ['a missing file', () => './schemas/none.json', 'not-found', /not found \(looked for/],
  ])('%s is refused naming projections.rows.schema and its line', async (_, path, reason, message) => {
    const { root, ws, base } = setup({});
    const e = await load(`schema: ${path(root)}`, ws, base).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidSpec);
    expect(e.data).toMatchObject({ field: 'projections.rows.schema', line: 5, reason, projection: 'rows' });
    expect(e.message).toMatch(/^\.github\/docdb\.yml:5: projections\.rows\.schema: schema file/);
    expect(e.message).toMatch(message);
  });

  it.each([
    ['a $ref to the network', '{ type: object, properties: { a: { $ref: "https://evil.example/s.json" } } }', /\$ref/],
    ['an unknown keyword', '{ type: object, propertiez: {} }', /propertiez/],
  ])('an inline schema with %s is a spec error at the schema: line, before any request', async (_, inline, message) => {
    const { ws, base } = setup({});
    const e = await load(`schema: ${inline}`, ws, base).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidSpec);
    expect(e.data).toMatchObject({ field: 'projections.rows.schema', line: 5, reason: 'invalid-schema' });
    expect(e.message).toMatch(/^\.github\/docdb\.yml:5: /);
    expect(e.message).toMatch(message);
  });

  it('a symbolic link inside the workspace that points out of it is refused (resolved first)', async () => {
    const { root, ws, base } = setup({});
    symlinkSync(join(root, 'outside', 'secret.json'), join(base, 'schemas', 'link.json'));
    const e = await load('schema: ./schemas/link.json', ws, base).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidSpec);
    expect(e.data).toMatchObject({ field: 'projections.rows.schema', reason: 'outside-workspace' });
    expect(e.message).toMatch(/resolves to .*outside[/\\]secret\.json, outside the workspace/);
  });

  it.each([
    ['not JSON', '{ type: object', 'not-json', /is not JSON/],
    ['an array', '[{"type":"object"}]', 'not-object', /must hold a JSON object \(a JSON Schema\), not an array/],
    ['null', 'null', 'not-object', /not null/],
  ])('a file holding %s is refused', async (_, text, reason, message) => {
    const { ws, base } = setup({ '.github/schemas/bad.json': text });
    const e = await load('schema: ./schemas/bad.json', ws, base).catch((x) => x);
    expect(e).toBeInstanceOf(InvalidSpec);
    expect(e.data).toMatchObject({ field: 'projections.rows.schema', reason });
    expect(e.message).toMatch(message);
  });
});
