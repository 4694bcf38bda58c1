/**
 * `notify` (issue 30 item 4), in-process (runAction from src/) against the emulator, whose
 * `POST /repos/{o}/{r}/dispatches` checks bodies against GitHub's OpenAPI description and records events:
 * - a commit that changed something sends ONE repository_dispatch with the section, versions, counts and
 *   keys; a run with no change sends none; notify off sends none;
 * - the key list is cut to fit GitHub's 64 KB payload limit, and `truncated: true` says so;
 * - 403 (same repository: the job's permissions) and 404 (another repository the token cannot see) are
 *   explained, saying the commit landed; an event type over 100 characters is refused before any request.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/action/failure.js';
import { readInputs } from '../../src/action/inputs.js';
import { dispatchBody, MAX_DISPATCH_BYTES } from '../../src/action/notify.js';
import { runAction } from '../../src/action/run-action.js';
import { utf8 } from '../../src/core/bytes.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const TOKEN = 'ghp_NotifyToken0123456789abcdefabcdef';
const REPO = 'octo/notify';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.createRepo('octo/listener');
  em.state.createRepo('else/readonly');
  em.state.createRepo('else/hidden', { private: true });
  em.state.addToken(TOKEN, {
    login: 'octo',
    rateLimit: 1_000_000,
    repos: { [REPO]: 'write', 'octo/listener': 'write', 'else/readonly': 'read' },
  });
});
afterAll(async () => {
  await em?.stop();
});

const SPEC =
  'projections:\n  rows:\n    source: { type: files, glob: rows.csv }\n    identity: { id: "{item.key}" }\n    prune: true\n';
const csv = (n: number, tag: string) =>
  `key,value\n${Array.from({ length: n }, (_, i) => `row-${String(i).padStart(5, '0')},${tag}`).join('\n')}\n`;

function run(cwd: string, given: Record<string, string>) {
  const inputs = readInputs((n) => ({ token: TOKEN, 'api-url': em.url, repository: REPO, ...given })[n] ?? '', {});
  return runAction(inputs, { workspace: cwd, writeSpacingMs: 0 });
}
const events = (repo = REPO) => em.state.repo(repo).dispatches;

describe('notify: repository_dispatch after a commit', () => {
  it('one event per commit that changed something, with section, versions, counts and keys; none without a change or without notify', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(3, 'a') });
    const quiet = await run(cwd, { section: 'n1' });
    expect(quiet.outputs.changed).toBe('true');
    expect(events()).toHaveLength(0);
    writeFileSync(join(cwd, 'rows.csv'), csv(4, 'b'));
    const first = await run(cwd, { section: 'n1', notify: 'docdb-updated' });
    expect(events()).toEqual([
      {
        eventType: 'docdb-updated',
        sender: 'octo',
        clientPayload: {
          section: 'refs/docdb/n1',
          repository: REPO,
          version: first.outputs.version,
          previousVersion: quiet.outputs.version,
          counts: { written: 4, deleted: 0 },
          keys: JSON.parse(first.outputs.keys!),
          truncated: false,
        },
      },
    ]);
    const again = await run(cwd, { section: 'n1', notify: 'docdb-updated' });
    expect(again.outputs.changed).toBe('false');
    expect(events()).toHaveLength(1);
    // Another repository (the token can write there): the event goes there, not here.
    writeFileSync(join(cwd, 'rows.csv'), csv(2, 'c'));
    await run(cwd, { section: 'n1', notify: 'docdb-updated', 'notify-repository': 'octo/listener' });
    expect(events('octo/listener')).toMatchObject([{ clientPayload: { counts: { written: 2, deleted: 2 } } }]);
    expect(events()).toHaveLength(1);
  });

  it('a key list too long for 64 KB is cut to fit, truncated: true; GitHub (the emulator) accepts it', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(3000, 'a') });
    const r = await run(cwd, { section: 'n2', notify: 'many' });
    expect(JSON.parse(r.outputs.keys!)).toHaveLength(3000);
    const [event] = events().filter((e) => e.eventType === 'many');
    const payload = event!.clientPayload as { keys: string[]; truncated: boolean; counts: { written: number } };
    expect(payload.truncated).toBe(true);
    expect(payload.counts.written).toBe(3000);
    expect(payload.keys.length).toBeGreaterThan(1000);
    expect(payload.keys).toEqual(JSON.parse(r.outputs.keys!).slice(0, payload.keys.length));
    const size = utf8(JSON.stringify({ event_type: 'many', client_payload: payload })).length;
    expect(size).toBeLessThan(MAX_DISPATCH_BYTES);
  });

  it('dispatchBody keeps every key that fits and no more (the limit is strict)', () => {
    const payload = {
      section: 's',
      repository: 'o/r',
      version: 'v',
      previousVersion: null,
      counts: { written: 3, deleted: 0 },
      keys: ['aaaa', 'bbbb', 'cccc'],
      truncated: false,
    };
    const whole = utf8(JSON.stringify({ event_type: 'e', client_payload: payload })).length;
    expect(dispatchBody('e', payload, whole + 1).client_payload).toMatchObject({
      keys: payload.keys,
      truncated: false,
    });
    const cut = dispatchBody('e', payload, whole);
    expect(cut.client_payload).toMatchObject({ keys: ['aaaa', 'bbbb'], truncated: true });
    expect(utf8(JSON.stringify(cut)).length).toBeLessThan(whole);
  });

  it('403 in the same repository and 404 for another are explained; the commit landed; nothing is sent for a bad event type', async () => {
    const cwd = workspace({ '.github/docdb.yml': SPEC, 'rows.csv': csv(2, 'a') });
    // What GitHub answers a GITHUB_TOKEN without contents: write.
    em.inject({
      method: 'POST',
      path: `/repos/${REPO}/dispatches`,
      kind: 'status',
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    const same = await run(cwd, { section: 'n3', notify: 'x' }).catch((e) => e);
    expect(same).toMatchObject({ code: 'Forbidden', data: { status: 403, repository: REPO } });
    expect(same.message).toMatch(/give the job "permissions: contents: write"/);
    const landed = em.state.repo(REPO).db.readRef('refs/docdb/n3')!;
    expect(same.message).toContain(`The commit itself landed (version ${landed})`);
    expect(same.message).not.toContain(TOKEN);
    // The step's failure message is that explanation, with no generic advice about the target repository.
    expect(
      describeFailure(
        same,
        readInputs((n) => ({ repository: REPO, notify: 'x' })[n] ?? '', {}),
      ),
    ).toBe(same.message);
    writeFileSync(join(cwd, 'rows.csv'), csv(2, 'b'));
    const readOnly = await run(cwd, { section: 'n3', notify: 'x', 'notify-repository': 'else/readonly' }).catch(
      (e) => e,
    );
    expect(readOnly).toMatchObject({ code: 'Forbidden', data: { status: 403, repository: 'else/readonly' } });
    expect(readOnly.message).toMatch(
      /only reaches its own repository, so pass a token with Contents: write on else\/readonly/,
    );
    writeFileSync(join(cwd, 'rows.csv'), csv(2, 'c'));
    const hidden = await run(cwd, { section: 'n3', notify: 'x', 'notify-repository': 'else/hidden' }).catch((e) => e);
    expect(hidden).toMatchObject({ code: 'Forbidden', data: { status: 404, repository: 'else/hidden' } });
    expect(events('else/readonly')).toHaveLength(0);
    // 101 characters: refused while reading the inputs, before any request.
    em.clearLog();
    expect(() => readInputs((n) => ({ repository: REPO, notify: 'e'.repeat(101) })[n] ?? '', {})).toThrow(
      /input "notify": is 101 characters long; a repository_dispatch event type has at most 100/,
    );
    expect(() =>
      readInputs(
        (n) => ({ repository: REPO, mode: 'read', namespace: 'a', type: 'b', id: 'c', notify: 'x' })[n] ?? '',
        {},
      ),
    ).toThrow(/input "notify": only applies to mode: project, backfill and merge/);
    expect(em.requests).toHaveLength(0);
  });
});
