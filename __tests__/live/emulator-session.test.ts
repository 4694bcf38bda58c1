/**
 * The live suite checked here: run against the emulator as if it were GitHub (so the suite's steps and
 * budgets are themselves tested), recorded, and the recording replayed against a fresh emulator (so the
 * recorder and the replay that turn a GitHub session into a test work).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type EmulatorHandle, startEmulator } from '../../src/emulator/index.js';
import { REPOSITORY_ID_QUERY } from '../../src/stores/remote-api/update-refs.js';
import { describeLiveSuite } from './live-suite.js';
import { type Recording, replayRecording } from './replay.js';

const TOKEN = 'ghp_live_session_token_123456';
const dir = mkdtempSync(join(tmpdir(), 'docdb-live-'));
const file = join(dir, 'session.json');
let em: EmulatorHandle | undefined;
afterAll(async () => {
  await em?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function emulator(): Promise<EmulatorHandle> {
  const e = await startEmulator();
  e.state.addToken(TOKEN, { login: 'live', repos: '*' });
  e.state.createRepo('live/scratch');
  return e;
}

describe('against the emulator', () => {
  describeLiveSuite('emulator', true, () => {
    if (!em) throw new Error('emulator not started');
    return { apiUrl: em.url, token: TOKEN, repo: 'live/scratch', recordTo: file, section: 'session' };
  });
});

// Started before the suite's beforeAll reads the target (hooks of enclosing files run first).
const ready = emulator().then((e) => {
  em = e;
});
await ready;

describe('the recorded session', () => {
  it('holds no token and replays against a fresh emulator with the same statuses and shapes', async () => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(TOKEN);
    const recording = JSON.parse(text) as Recording;
    expect(recording.ref).toBe('refs/docdb-live/session');
    expect(recording.exchanges.length).toBeGreaterThan(20);
    expect(recording.exchanges.some((x) => x.status === 422)).toBe(true); // the lost race is in it
    const fresh = await emulator();
    try {
      expect(await replayRecording(fresh, recording, TOKEN)).toBe(recording.exchanges.length);
      expect(fresh.state.repo('live/scratch').db.readRef(recording.ref)).toBeDefined();
    } finally {
      await fresh.stop();
    }
  });

  it("replays with GitHub's own repository node id: the id updateRefs takes is mapped as SHAs are", async () => {
    const text = readFileSync(file, 'utf8');
    const idQuery = (JSON.parse(text) as Recording).exchanges.find(
      (x) => (x.body as { query?: string })?.query === REPOSITORY_ID_QUERY,
    );
    expect(idQuery, 'the session holds the repository id query').toBeDefined();
    const id = (idQuery!.response as { data: { repository: { id: string } } }).data.repository.id;
    // As recorded on GitHub: another id in the answer and in every mutation that quotes it.
    const onGitHub = text.split(JSON.stringify(id)).join(JSON.stringify('R_kgDOLiveGitHubId'));
    expect(onGitHub).not.toBe(text);
    const fresh = await emulator();
    try {
      const recording = JSON.parse(onGitHub) as Recording;
      expect(await replayRecording(fresh, recording, TOKEN)).toBe(recording.exchanges.length);
    } finally {
      await fresh.stop();
    }
  });
});
