/**
 * A run whose commit a `schema:` or `expect:` refuses (issue 38: the runner, Action and quarantine side),
 * in-process against the emulator. The refusals are thrown by a section store standing in for the
 * declarations seam (InvalidDocument with `data.violations`, ExpectationsFailed with `data.version`, in the
 * contract's shapes), so the reporting is tested on its own: nothing written to the section, outputs
 * `ok=false` and `violations` (JSON), at most 10 annotations (the tenth says how many more), the first 50
 * violations as summary rows — every key and field escaped for Markdown and workflow commands — and with
 * quarantine the would-be commit on `refs/<root>/<section>.quarantine/<run>`, branched from the tip the
 * expectations were evaluated on, holding the run's documents.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { loadDocDbClient } from '../../src/browser/index.js';
import { fromUtf8 } from '../../src/core/bytes.js';
import { ExpectationsFailed, InvalidDocument } from '../../src/core/errors.js';
import type { RefStore } from '../../src/core/refstore.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { parseViewState } from '../../src/viewer/state.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghp_GuardedRunToken0123456789abcdefabcd';
const REPO = 'octo/guarded';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(TOKEN, { login: 'octo', rateLimit: 1_000_000 });
});
afterAll(async () => {
  await em?.stop();
});

/** A key and field name carrying every threat a report must neutralise. */
const HOSTILE = 'x::error::pwned @octo-org/owners #1 <!-- docdb --> | ![i](https://evil.example/p.png)';

type Refuse = (version: string | null) => Error;

/** The API store on any ref; the section's store refuses every commit with `refuse` when given. */
function storeOnWith(refuse?: { section: string; error: Refuse }) {
  return (ref: string, startAt?: string) => {
    const store = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'octo',
      repo: 'guarded',
      ref,
      token: TOKEN,
      ...(startAt ? { startAt } : {}),
    });
    if (!refuse || ref !== refuse.section) return store;
    const fail = async () => {
      throw refuse.error(await store.head());
    };
    return new Proxy(store, {
      get(target, p, receiver) {
        if (p === 'commit' || p === 'commitParts') return fail;
        const v = Reflect.get(target, p, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as RefStore & Pick<RemoteApiRefStore, 'deleteRefs'>;
  };
}

const SPEC = (extra = '') => `${extra}projections:
  rows:
    source: { type: files, glob: rows.csv }
    identity: { id: "{item.key}" }
    prune: true
    schema: { type: object, required: [value] }
    expect: { max-removed: "10%" }
`;
const csv = (n: number) => `key,value\n${Array.from({ length: n }, (_, i) => `k${i},v${i}`).join('\n')}\n`;

async function run(
  cwd: string,
  section: string,
  storeOn: ReturnType<typeof storeOnWith>,
  extra: Record<string, string> = {},
) {
  const values: Record<string, string> = { token: TOKEN, 'api-url': em.url, repository: REPO, section, ...extra };
  const inputs = readInputs((n) => values[n] ?? '', {});
  return runAction(inputs, { workspace: cwd, writeSpacingMs: 0, storeOn, run: { id: 4711, attempt: 1 } });
}

const db = () => em.state.repo(REPO).db;
const tipOf = (ref: string) => db().readRef(ref);
function files(ref: string): Map<string, string> {
  const out = new Map<string, string>();
  const tip = tipOf(ref);
  if (!tip) return out;
  for (const e of db().flattenTree(db().getCommit(tip).tree))
    if (e.type === 'blob') out.set(e.path, fromUtf8(db().getBlob(e.sha)));
  return out;
}

describe('a run refused by its expectations', () => {
  it('writes nothing to the section; ok=false, violations, ≤ 10 annotations, 50 escaped summary rows; quarantine holds the would-be commit', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC('quarantine: true\n'), 'rows.csv': csv(10) });
    const section = 'refs/docdb/refused';
    const first = await run(cwd, 'refused', storeOnWith());
    expect(first.outputs).toMatchObject({ ok: 'true', violations: '[]', changed: 'true' });
    const before = tipOf(section)!;
    // 60 violations, each naming a document whose key and field carry the threats.
    const violations = Array.from({ length: 60 }, (_, i) => ({
      expectation: 'max-removed',
      field: `data.${HOSTILE}`,
      key: `data/rows/${HOSTILE}${i}.json`,
      message: `${HOSTILE}\n::error::second line ${i}\r% done`,
    }));
    const error: Refuse = (version) => new ExpectationsFailed(violations.slice(0, 50), version, violations.length);
    writeFileSync(join(cwd, 'rows.csv'), csv(4));
    const result = await run(cwd, 'refused', storeOnWith({ section, error }));

    // The section is untouched; the step fails with the outputs and summary written.
    expect(tipOf(section)).toBe(before);
    expect(result.failed?.message).toMatch(/^expectations failed on \w{7}, nothing was written: max-removed/);
    expect(result.outputs).toMatchObject({ ok: 'false', changed: 'false', version: before, 'violation-count': '60' });
    const out = JSON.parse(result.outputs.violations!) as { key: string; kind: string; expectation: string }[];
    expect(out).toHaveLength(50);
    expect(out[0]).toMatchObject({ kind: 'expect', expectation: 'max-removed', key: `data/rows/${HOSTILE}0.json` });

    // The quarantine: branched from the tip the expectations were evaluated on, holding the run's 4 rows.
    const qref = 'refs/docdb/refused.quarantine/4711.1';
    const qtip = tipOf(qref)!;
    expect(result.outputs['quarantine-ref']).toBe(qref);
    expect(result.outputs['quarantine-version']).toBe(qtip);
    const qcommit = db().getCommit(qtip);
    expect(qcommit.parents).toEqual([before]);
    expect(qcommit.message).toContain(`Docdb-Quarantine-Base: ${before}`);
    const docs = [...files(qref).keys()].filter((k) => !k.startsWith('_docdb/')).sort();
    expect(docs).toEqual(['data/rows/k0.json', 'data/rows/k1.json', 'data/rows/k2.json', 'data/rows/k3.json']);
    expect(result.failed?.message).toContain(`quarantined at ${qref} (version ${qtip})`);

    // Annotations: 10 at most, the tenth saying how many more; one line each, no workflow command inside.
    const marks = result.failed!.annotations;
    expect(marks).toHaveLength(10);
    expect(marks[9]?.message).toMatch(/and 50 more violation\(s\): see the job summary/);
    for (const a of marks) {
      expect(a.message).not.toMatch(/[\r\n]/);
      expect(a.message).not.toContain('::');
      expect(a.properties.file).toBe('.github/docdb.yml');
      // Line 8 is the projection's `expect:`; each violation names it and its expectation.
      expect(a.properties.startLine).toBe(8);
      expect(a.message).toMatch(/^projections\.rows\.expect: max-removed data\./);
    }

    // Summary: the first 50 as rows, every threat inert.
    const rows = result.summary.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Projection'));
    expect(rows).toHaveLength(50);
    expect(result.summary).toMatch(/… and 10 more violation\(s\)/);
    // With every character reference taken out, nothing of the threats is left as Markdown or HTML.
    const bare = result.summary.replace(/&#\d+;/g, '');
    for (const bad of ['@octo-org', '#1', '<!--', '](https', '::error::', '\r']) expect(bare).not.toContain(bad);
    for (const r of rows) expect(r.split('|')).toHaveLength(7); // 5 cells: no "|" from a key splits a row
    // A mention is broken by a zero-width space too: GitHub decodes references before it looks for mentions.
    expect(result.summary).toContain('&#64;&#8203;octo-org/owners &#35;&#8203;1 &#60;!-- docdb --&#62; &#124;');
    expect(result.summary).toContain(`<code>${qref}</code>`);
    // The terminal's text (docdb project): plain lines, nothing a terminal or a runner would act on.
    expect(result.text).toMatch(/^docdb: run refused by the expectations: nothing written to refs\/docdb\/refused/);
    expect(result.text).toContain(`quarantined at ${qref}: ${qtip}`);
    expect(result.text).not.toMatch(/^\s*::|\r/m);

    // The viewer's diff of the quarantine against the tip (view=diff&from=<tip>&to=<quarantine version>
    // &quarantine=<id>), at the request level: the browser client asked for the quarantine by name reads
    // what the refused run would have changed; the section's own client does not know that version.
    const { state } = parseViewState(
      `?repo=${REPO}&section=refused&quarantine=4711.1&view=diff&from=${before}&to=${qtip}`,
    );
    expect(state).toMatchObject({ ref: section, quarantine: '4711.1', view: 'diff', from: before, to: qtip });
    const open = (quarantine?: string) =>
      loadDocDbClient({
        owner: 'octo',
        repo: 'guarded',
        ref: section,
        apiUrl: em.url,
        ...(quarantine ? { quarantine } : {}),
        hostCapabilities: { transport: { fetch: globalThis.fetch }, credentials: async () => TOKEN },
      });
    const q = await open(state!.quarantine);
    expect(q.ref).toBe(qref);
    const diff = await q.changes({ from: before, to: qtip });
    expect(diff.removed.map((d) => d.id).sort()).toEqual(['k4', 'k5', 'k6', 'k7', 'k8', 'k9']);
    expect(diff.added).toEqual([]);
    const plain = await open();
    await expect(plain.changes({ from: before, to: qtip })).rejects.toMatchObject({ code: 'InvalidVersion' });
  });

  it('without quarantine nothing is written anywhere', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC(), 'rows.csv': csv(3) });
    const section = 'refs/docdb/plain';
    await run(cwd, 'plain', storeOnWith());
    const before = tipOf(section)!;
    const error: Refuse = (version) =>
      new ExpectationsFailed([{ expectation: 'count', message: 'count 1 is below min 3' }], version);
    writeFileSync(join(cwd, 'rows.csv'), csv(1));
    const result = await run(cwd, 'plain', storeOnWith({ section, error }));
    expect(tipOf(section)).toBe(before);
    expect(result.outputs).toMatchObject({ ok: 'false', 'quarantine-ref': '', 'quarantine-version': '' });
    expect(db().listRefs('refs/docdb/plain.quarantine/')).toEqual([]);
    expect(result.failed?.annotations).toHaveLength(1);
  });
});

describe('a quarantine that cannot be written', () => {
  it('leaves the refusal the failure and says why beside it; no quarantine output', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC('quarantine: true\n'), 'rows.csv': csv(3) });
    const section = 'refs/docdb/qfail';
    await run(cwd, 'qfail', storeOnWith());
    const before = tipOf(section)!;
    const refusing = storeOnWith({
      section,
      error: (version) => new ExpectationsFailed([{ expectation: 'count', message: 'too few' }], version),
    });
    // Every quarantine ref's store refuses to write (a token that may not create refs, say).
    const storeOn = (ref: string, startAt?: string) => {
      const store = refusing(ref, startAt);
      if (!ref.includes('.quarantine/')) return store;
      return new Proxy(store, {
        get(target, p, receiver) {
          if (p === 'commit' || p === 'commitParts')
            return async () => {
              throw new Error('403 refs: forbidden');
            };
          const v = Reflect.get(target, p, receiver);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      });
    };
    writeFileSync(join(cwd, 'rows.csv'), csv(1));
    const result = await run(cwd, 'qfail', storeOn);
    expect(tipOf(section)).toBe(before);
    expect(result.outputs).toMatchObject({ ok: 'false', 'quarantine-ref': '', 'quarantine-version': '' });
    expect(result.failed?.message).toMatch(/; quarantining the would-be commit failed too: 403 refs: forbidden$/);
  });
});

describe('a run refused by a schema', () => {
  it('annotates the schema: line per violation, names key, pointer, rule and type found; no quarantine even when on', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC('quarantine: true\n'), 'rows.csv': csv(2) });
    const section = 'refs/docdb/schema';
    const violations = [
      { key: 'data/rows/k0.json', pointer: '/data/value', rule: 'type', expected: 'integer', found: 'string' },
      { key: `data/rows/${HOSTILE}.json`, pointer: `/data/${HOSTILE}`, rule: 'required', found: 'absent' },
    ];
    const error: Refuse = () =>
      new InvalidDocument('data', 'data/rows/k0.json: /data/value breaks "type" (found string); 2 violation(s)', {
        violations,
        count: 2,
      });
    const result = await run(cwd, 'schema', storeOnWith({ section, error }), { quarantine: 'true' });
    expect(tipOf(section)).toBeUndefined();
    expect(db().listRefs('refs/docdb/schema.quarantine/')).toEqual([]);
    expect(result.outputs).toMatchObject({ ok: 'false', 'violation-count': '2', 'quarantine-ref': '' });
    const marks = result.failed!.annotations;
    // The spec's line 7 is `schema:` of projection rows.
    expect(marks.map((a) => a.properties.startLine)).toEqual([7, 7]);
    expect(marks[0]?.message).toBe(
      'projections.rows.schema: data/rows/k0.json: /data/value breaks "type" (expected integer), found string',
    );
    expect(marks[1]?.message).not.toContain('::');
    expect(JSON.parse(result.outputs.violations!)).toMatchObject([
      { kind: 'schema', projection: 'rows', line: 7, pointer: '/data/value', rule: 'type', found: 'string' },
      { kind: 'schema', rule: 'required', found: 'absent' },
    ]);
    expect(result.summary).toMatch(/run refused by a schema: nothing written/);
  });
});

describe('the quarantine input', () => {
  const read = (values: Record<string, string>) => () =>
    readInputs((n) => ({ repository: REPO, ...values })[n] ?? '', {});
  it('is true, false or empty (the spec decides), and only for the modes that commit a run', () => {
    expect(read({ quarantine: 'true' })().quarantine).toBe(true);
    expect(read({ quarantine: 'false', mode: 'backfill' })().quarantine).toBe(false);
    expect(read({})()).not.toHaveProperty('quarantine');
    expect(read({ quarantine: 'yes' })).toThrow(/input "quarantine": "yes" must be true or false/);
    expect(read({ quarantine: 'true', mode: 'dry-run' })).toThrow(
      /input "quarantine": only applies to mode: project and backfill.*\(mode is dry-run\)/,
    );
  });
});
