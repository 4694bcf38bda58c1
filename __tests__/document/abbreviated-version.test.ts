/**
 * The library takes full versions; a newcomer pasting the 7 characters docdb prints is told the way out:
 * `docs.resolveVersion` (issue 32 item 2).
 */
import { describe, expect, it } from 'vitest';
import { InvalidVersion } from '../../src/core/errors.js';
import { DocumentStore } from '../../src/document/document-store.js';
import { MemoryRefStore } from '../../src/stores/memory/index.js';

describe('an abbreviated version given to the library', () => {
  it('is refused with a pointer to docs.resolveVersion, which resolves it', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    const id = { namespace: 'n', doc_type: 't', id: 'a' };
    const version = (await docs.put({ namespace: 'n', type: 't', id: 'a', data: 1 })).version as string;
    const abbrev = version.slice(0, 7);
    const err = await docs.get(id, { version: abbrev }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidVersion);
    expect((err as Error).message).toBe(
      `version must be a 40-character lowercase hex commit SHA, got "${abbrev}"; an abbreviation? docs.resolveVersion("${abbrev}") gives the full version`,
    );
    expect(await docs.resolveVersion(abbrev)).toBe(version);
    expect((await docs.get(id, { version: await docs.resolveVersion(abbrev) }))?.data).toBe(1);
  });

  it('a value that is no abbreviation gets no such hint', async () => {
    const docs = new DocumentStore(new MemoryRefStore());
    const id = { namespace: 'n', doc_type: 't', id: 'a' };
    for (const bad of ['HEAD', 'abc', 'v1.0.0']) {
      const err = await docs.get(id, { version: bad }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidVersion);
      expect((err as Error).message).not.toContain('resolveVersion');
    }
  });
});
