/**
 * Sections for the document view and section diff tests, committed straight into the emulator (no HTTP):
 * each `commit` is one commit of the section with documents put (an envelope) or removed (null).
 */
import type { Page } from 'playwright-core';
import { encodeEnvelope } from '../../src/document/envelope.js';
import { deriveKey, type Identity } from '../../src/document/identity.js';
import type { EmulatorHandle } from '../../src/emulator/types.js';
import { freshRepo, OWNER } from '../remote-api/helpers.js';

export const REF = 'refs/docdb/documents';

export interface SeedDoc {
  namespace: string;
  type: string;
  id: string;
  data: unknown;
}

export const identityOf = (d: { namespace: string; type: string; id: string }): Identity => ({
  namespace: d.namespace,
  doc_type: d.type,
  id: d.id,
});

/** A section seeder on a fresh public repository of `em`. */
export function seeder(em: EmulatorHandle) {
  const repo = freshRepo(em);
  let first = true;
  return {
    repo,
    /** One commit putting `docs` and removing `removed`; returns its SHA. */
    commit(docs: SeedDoc[], removed: SeedDoc[] = [], message = 'seed'): string {
      const files: Record<string, Uint8Array | string | null> = {};
      for (const d of docs) files[deriveKey(identityOf(d))] = encodeEnvelope(d);
      for (const d of removed) files[deriveKey(identityOf(d))] = null;
      const sha = em.state.commitFiles(`${OWNER}/${repo}`, { branch: REF, files, message, orphan: first });
      first = false;
      return sha;
    },
  };
}

/** True when nothing in the page is wider than the viewport (no horizontal scrolling). */
export function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
