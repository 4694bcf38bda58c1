/**
 * The archive is the default bulk read on Node (issue 32 item 13): a RemoteApiRefStore built without
 * `archive` — as the README's first example builds it — reads a whole section from GitHub's archive once
 * the Node entry point (src/index.node.ts, what `import 'docdb'` resolves to in Node) has loaded;
 * `archive: false` turns it off (GraphQL batches, as in a browser); the platform-neutral core alone has
 * no default.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidConfig } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/index.js';
import '../../src/index.node.js';
import { RemoteApiRefStore } from '../../src/index.js';
import { platformArchiveReader, setPlatformArchiveReader } from '../../src/stores/remote-api/archive-default.js';
import type { RemoteApiRefStoreOptions } from '../../src/stores/remote-api/config.js';
import { emulatorPerFile, OWNER, ops, store, TOKEN } from './helpers.js';

const fx = emulatorPerFile();
const REF = 'refs/docdb/documents';
// Loading the Node entry point installed its reader; each test restores it.
const nodeDefault = platformArchiveReader();
afterEach(() => setPlatformArchiveReader(nodeDefault));

function seedDocs(n: number): void {
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < n; i++) {
    const doc = { data: { i, text: 'x'.repeat(200) }, id: `g${i % 50}/item-${i}`, namespace: 'bench', type: 'item' };
    files[`bench/item/g${i % 50}/item-${i}.json`] = `${JSON.stringify(doc, null, 2)}\n`;
  }
  fx.em.state.commitFiles(`${OWNER}/${fx.repo}`, { branch: REF, files });
}

/** A store as the README's first example builds it: transport, apiUrl, owner, repo, ref, token — no archive. */
function readmeStore(extra: Partial<RemoteApiRefStoreOptions> = {}) {
  return store(fx.em, fx.repo, { ref: REF, ...extra });
}

const codeload = (from: number) => ops(fx.em, from).filter((o) => o.includes('codeload'));

describe('the archive reader by default on Node', () => {
  it('a 10,000-document list with data in 4 requests without naming archive; archive: false batches', async () => {
    seedDocs(10_000);
    const from = fx.em.requests.length;
    const page = await new DocumentStore(readmeStore()).list({ withData: true });
    expect(page.documents).toHaveLength(10_000);
    expect(page.requests).toBe(4); // ref, commit, the archive (302, codeload): its tree is the listing
    expect(codeload(from)).toEqual(['GET codeload/legacy.tar.gz 200']);

    const from2 = fx.em.requests.length;
    const off = await new DocumentStore(readmeStore({ archive: false })).list({ withData: true });
    expect(off.documents.map((d) => d.document?.data)).toEqual(page.documents.map((d) => d.document?.data));
    expect(codeload(from2)).toEqual([]);
    // 100 blobs per GraphQL query: a hundred batches and the listing.
    expect(off.requests).toBeGreaterThan(100);
  }, 120_000);

  it('without a platform default (a browser, or the core imported directly) nothing goes to codeload', async () => {
    setPlatformArchiveReader(undefined);
    seedDocs(300);
    const from = fx.em.requests.length;
    const page = await new DocumentStore(readmeStore()).list({ withData: true });
    expect(page.documents).toHaveLength(300);
    expect(codeload(from)).toEqual([]);
    expect(ops(fx.em, from).filter((o) => o.includes('graphql'))).toHaveLength(3);
  });

  it('an archive that is neither a reader function nor false is refused, naming the field', () => {
    const bad = () =>
      new RemoteApiRefStore({
        transport: { request: async () => ({ status: 200, headers: {}, body: new Uint8Array() }) },
        owner: OWNER,
        repo: 'r',
        token: TOKEN,
        archive: true as unknown as false,
      });
    expect(bad).toThrow(InvalidConfig);
    expect(bad).toThrow(/archive must be an archive reader function \(nodeArchiveReader\(\)\) or false, got boolean/);
  });
});
