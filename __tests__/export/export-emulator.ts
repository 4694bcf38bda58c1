/**
 * The emulator the export-target tests share (CLI `doc export` and the Action's `mode: export`): one
 * repository whose section holds 200 notes — enough that an export reads it through the archive, one
 * codeload request — and a hook run when the archive is asked for, so a test can act "during the export"
 * without any timing.
 */
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import type { ResponseRecord } from '../../src/emulator/traffic.js';

export interface ExportEmulator {
  em: EmulatorHandle;
  /** Set to run something when the section's archive is requested (undefined: nothing). */
  onArchive: (() => void) | undefined;
}

/**
 * Start it with `token` (read access to every repository) and `repo` seeded.
 *
 * @example
 * const fx = await startExportEmulator(TOKEN, 'octo/export-target');
 * fx.onArchive = () => writeFileSync(join(dir, 'mine.txt'), 'written meanwhile');
 */
export async function startExportEmulator(token: string, repo: string): Promise<ExportEmulator> {
  const fx: ExportEmulator = { em: undefined as unknown as EmulatorHandle, onArchive: undefined };
  fx.em = await startEmulator({
    onResponse: (r: ResponseRecord) => {
      if (r.path.includes('/tarball/')) fx.onArchive?.();
    },
  });
  fx.em.state.addToken(token, { login: 'octo', repos: '*', rateLimit: 1_000_000 });
  fx.em.state.createRepo(repo);
  const files: Record<string, string | null> = { 'README.md': null };
  for (let i = 0; i < 200; i++) {
    files[`notes/note/n${i}.json`] = `${JSON.stringify({ data: i, id: `n${i}`, namespace: 'notes', type: 'note' })}\n`;
  }
  fx.em.state.commitFiles(repo, { branch: 'refs/docdb/documents', files });
  return fx;
}
