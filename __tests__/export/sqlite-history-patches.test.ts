/**
 * `exportSqlite` with `history` on documents as docdb writes them (canonical JSON): each changed document is rebuilt
 * from its row and the patch the compare carries anyway (`changes({ withPatches })`, src/core/patch-apply.ts) instead
 * of being read again — checked against the same export with every patch removed (all read), so a rebuilt version
 * is byte for byte a read one. A patch is untrusted: one missing, one that does not apply and one that applies but
 * gives other bytes are each read instead, per document.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeText } from '../../src/document/envelope.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { exportSqlite } from '../../src/export/sqlite/export-sqlite.js';
import { tempDir } from '../git/helpers.js';
import { emulator, freshRepo } from '../remote-api/helpers.js';
import { commitDocs, meteredDocs, SQLITE3, sql } from './sqlite-fixture.js';

let em: EmulatorHandle;
let tmp: ReturnType<typeof tempDir>;
let repo: string;
let laterBytes = 0;
const SIZE = 300;
const COMMITS = 21;
const CHURN = 50;

/** A scraped record of about 1.6 KB as docdb stores it, of which a scrape changes three fields. */
const doc = (i: number, rev: number) =>
  envelopeText({
    namespace: 'city',
    type: 'weather',
    id: `c${i}`,
    data: {
      temp: i + rev,
      rev,
      station: { name: `s${i}`, lat: 48 + i / 1000, lon: 2 + i / 1000 },
      updated_at: `2026-01-01T00:${String(rev % 60).padStart(2, '0')}:00Z`,
      description: `Weather station ${i}, operated by the city; readings every ten minutes. `.repeat(8),
      links: Object.fromEntries(['html', 'api', 'history', 'map'].map((k) => [k, `https://example.org/${k}/${i}`])),
      sensors: Array.from({ length: 8 }, (_, j) => ({
        kind: `sensor-${j}`,
        model: `m${(i + j) % 5}`,
        since: 2020 + j,
      })),
    },
  });

beforeAll(async () => {
  em = await emulator();
  tmp = tempDir('docdb-sqlite-patches-');
  repo = freshRepo(em);
  const files: Record<string, string | null> = {};
  for (let i = 0; i < SIZE; i++) files[`city/weather/c${i}.json`] = doc(i, 0);
  commitDocs(em, repo, files, 'seed', true);
  // Each commit modifies CHURN documents; every fifth also adds one and deletes one of the last ten.
  for (let k = 1; k < COMMITS; k++) {
    const change: Record<string, string | null> = {};
    for (let j = 0; j < CHURN; j++) {
      const i = (k * CHURN + j) % (SIZE - 10);
      change[`city/weather/c${i}.json`] = doc(i, k);
    }
    if (k % 5 === 0) {
      change[`city/weather/new${k}.json`] = doc(1000 + k, k).replaceAll(`c${1000 + k}`, `new${k}`);
      change[`city/weather/c${SIZE - 10 + k / 5}.json`] = null;
    }
    for (const v of Object.values(change)) laterBytes += v === null ? 0 : Buffer.byteLength(v);
    commitDocs(em, repo, change, `update ${k}`);
  }
});
afterAll(async () => {
  await em?.stop();
  tmp?.cleanup();
});

/** Rewrite every compare answer's files (`edit` per file), as a proxy between the store and GitHub could. */
const compareFiles =
  (edit: (f: { filename: string; patch?: string }) => void) =>
  (url: string, body: Uint8Array): Uint8Array => {
    if (!url.includes('/compare/')) return body;
    const j = JSON.parse(new TextDecoder().decode(body)) as { files: { filename: string; patch?: string }[] };
    for (const f of j.files) edit(f);
    return new TextEncoder().encode(JSON.stringify(j));
  };

async function run(name: string, rewrite?: (url: string, body: Uint8Array) => Uint8Array) {
  const { docs, meter } = meteredDocs(em, repo, rewrite ? { rewrite } : {});
  const out = join(tmp.dir, `${name}.db`);
  const version = (await docs.head()) as string;
  await exportSqlite(docs, { file: out, section: `octo/${repo} ${docs.ref}`, version, history: true });
  const graphql = meter.log.filter((l) => l.path.endsWith('/graphql')).length;
  const later = meter.log.filter((l) => /\/compare\/|\/graphql/.test(l.path)).reduce((a, l) => a + l.bytes, 0);
  return { out, meter, graphql, later };
}

/** The versions table and the type table, as the sqlite3 shell hashes their content (`.sha3sum`). */
const versions = (file: string) =>
  execFileSync(SQLITE3, ['-readonly', file, '.sha3sum city_weather%'], { encoding: 'utf8' });
const count = (file: string) => sql(file, 'SELECT count(*) AS n FROM city_weather_versions')[0];

describe('exportSqlite --history: changed documents rebuilt from the compare’s patches', () => {
  it('no document read after the first commit; the versions equal those read whole; bytes well under 2×', async () => {
    const rebuilt = await run('rebuilt');
    const read = await run(
      'read',
      compareFiles((f) => delete f.patch),
    );
    // Per later commit one GraphQL query, the old blob SHAs; reading the documents took one more per 100 of them.
    expect(rebuilt.graphql).toBe(COMMITS - 1);
    expect(read.graphql).toBe(COMMITS - 1 + Math.ceil(((COMMITS - 1) * CHURN + 4) / 100));
    expect(versions(rebuilt.out)).toEqual(versions(read.out));
    expect(count(rebuilt.out)).toEqual({ n: SIZE + (COMMITS - 1) * CHURN + 8 });
    // Bytes after the first commit, against the documents changed: each costs its compare entry (URLs and a patch of
    // two small hunks), no longer also its text in a GraphQL answer.
    const ratio = rebuilt.later / laterBytes;
    expect(ratio).toBeLessThan(1);
    expect(read.later / laterBytes).toBeGreaterThan(ratio + 0.9);
  }, 120_000);

  it('a re-export without history after a commit: its changed documents rebuilt too, none read', async () => {
    const out = join(tmp.dir, 'catch-up.db');
    const first = meteredDocs(em, repo);
    const [tip, before] = (await first.docs.store.commits?.())?.entries ?? [];
    const section = `octo/${repo} ${first.docs.ref}`;
    await exportSqlite(first.docs, { file: out, section, version: before?.version as string });
    const { docs, meter } = meteredDocs(em, repo);
    const r = await exportSqlite(docs, { file: out, section, version: tip?.version as string });
    expect(r).toMatchObject({ mode: 'updated', rows: CHURN + 2 });
    // The compare and one GraphQL query of old blob SHAs: no read of the 51 documents it names.
    expect(meter.log.filter((l) => l.path.endsWith('/graphql'))).toHaveLength(1);
    expect(
      sql(out, `SELECT rev, temp FROM city_weather WHERE id = 'c${((COMMITS - 1) * CHURN) % (SIZE - 10)}'`),
    ).toEqual([{ rev: COMMITS - 1, temp: (((COMMITS - 1) * CHURN) % (SIZE - 10)) + COMMITS - 1 }]);
  }, 60_000);

  it('a patch missing, one that does not apply, one that applies to other bytes: each read instead', async () => {
    const hit = new Set<string>();
    /** Compare answers (commits) in which a patch was made to fail (c52, c53). */
    const failing = new Set<string>();
    let url = '';
    const edit = (f: { filename: string; patch?: string }, name: string, to: string | undefined) => {
      if (!f.filename.endsWith(`/${name}.json`) || to === f.patch) return;
      hit.add(name);
      if (name !== 'c51') failing.add(url);
      if (to === undefined) delete f.patch;
      else f.patch = to;
    };
    const rewrite = compareFiles((f) => {
      edit(f, 'c51', undefined);
      // A context line that is not in the text: the patch does not apply.
      edit(f, 'c52', f.patch?.replace('\n   ', '\n   X'));
      // An added line changed: it applies, but the bytes no longer hash to the new blob SHA.
      edit(f, 'c53', f.patch?.replace('+    "rev": 1,', '+    "rev": 7,'));
    });
    const broken = await run('broken', (u, body) => {
      url = u;
      return rewrite(u, body);
    });
    expect([...hit].sort()).toEqual(['c51', 'c52', 'c53']);
    const read = await run(
      'read-all',
      compareFiles((f) => delete f.patch),
    );
    expect(versions(broken.out)).toEqual(versions(read.out));
    expect(sql(broken.out, `SELECT id, rev FROM city_weather_versions WHERE id IN ('c52', 'c53') AND rev = 1`)).toEqual(
      [
        { id: 'c52', rev: 1 },
        { id: 'c53', rev: 1 },
      ],
    );
    // Besides the old-SHA queries: the versions without a patch read together (one query), and in each commit where
    // a patch failed, one read when that commit is written — per commit, not per document.
    expect(failing.size).toBeGreaterThan(1);
    expect(broken.graphql).toBe(COMMITS - 1 + 1 + failing.size);
  }, 120_000);
});
