/**
 * Sessions recorded on real GitHub by the live suite (DOCDB_LIVE_RECORD, token removed) and committed
 * under __tests__/fixtures/live/ replay against the emulator: the same statuses and response shapes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { type Recording, replayRecording } from './replay.js';

const DIR = resolve(import.meta.dirname, '../fixtures/live');
const files = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.json')) : [];
if (files.length === 0) {
  console.warn(
    'recorded-replay: no recordings in __tests__/fixtures/live/ yet — record one on GitHub with DOCDB_LIVE_TOKEN, DOCDB_LIVE_REPO and DOCDB_LIVE_RECORD (see CONTRIBUTING.md)',
  );
}

describe.skipIf(files.length === 0)('GitHub sessions replayed against the emulator', () => {
  it.each(files)('%s', async (name) => {
    const recording = JSON.parse(readFileSync(join(DIR, name), 'utf8')) as Recording;
    const em = await startEmulator();
    try {
      em.state.addToken('ghp_replay', { login: recording.repo.split('/')[0]!, repos: '*' });
      em.state.createRepo(recording.repo);
      expect(await replayRecording(em, recording, 'ghp_replay')).toBe(recording.exchanges.length);
    } finally {
      await em.stop();
    }
  });
});
