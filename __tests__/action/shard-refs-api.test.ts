/**
 * Shard refs through the GitHub API (src/action/shard-commit.ts: the shard's store creates its ref on its
 * commit), in-process against the emulator: a token that may only read cannot write a shard, and the step
 * says which permission to grant (a typed Forbidden, never the client's error with its request), with
 * nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/action/failure.js';
import { readInputs } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import { DocumentStore } from '../../src/document/document-store.js';
import type { EmulatorHandle } from '../../src/emulator/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/index.js';
import { startEmulator } from '../emulator/checked-emulator.js';
import { workspace } from './run-dist.js';

const WRITER = 'ghp_ShardRefsWriter0123456789abcdefab';
const READER = 'ghp_ShardRefsReader0123456789abcdefab';
const REPO = 'octo/refs';
let em: EmulatorHandle;

beforeAll(async () => {
  em = await startEmulator();
  em.state.createRepo(REPO);
  em.state.addToken(WRITER, { login: 'octo' });
  em.state.addToken(READER, { login: 'reader', repos: { [REPO]: 'read' } });
});
afterAll(async () => {
  await em?.stop();
});

describe('shard refs through the API', () => {
  it('a read-only token: Forbidden naming the request and "contents: write", no shard ref, no token in the message', async () => {
    const section = new RemoteApiRefStore({
      transport: fetchTransport(),
      apiUrl: em.url,
      owner: 'octo',
      repo: 'refs',
      ref: 'refs/docdb/ro',
      token: WRITER,
    });
    await new DocumentStore(section).put({ namespace: 'n', type: 't', id: 'a', data: 1 });
    const cwd = workspace({
      '.github/docdb.yml': 'projections:\n  rows:\n    source: { type: files, glob: "*.csv" }\n',
      'a.csv': 'key,value\nk,v\n',
    });
    const values: Record<string, string> = {
      token: READER,
      'api-url': em.url,
      repository: REPO,
      section: 'ro',
      shard: '1/2',
      'shard-commit': 'merge',
    };
    const inputs = readInputs((n) => values[n] ?? '', {});
    const e = await runAction(inputs, { workspace: cwd, writeSpacingMs: 0 }).catch((x) => x);
    expect(e).toMatchObject({ code: 'Forbidden', data: { status: 403 } });
    expect(e.message).toContain(REPO);
    const message = describeFailure(e, inputs);
    // The shard's first write (its tree; the ref comes last, on the commit) is what GitHub refuses.
    expect(message).toMatch(/^commit: create tree \(POST \/repos\/octo\/refs\/git\/trees\)/);
    expect(message).toMatch(/contents: write/);
    expect(message).not.toContain(READER);
    expect(JSON.stringify(e)).not.toContain(READER);
    expect(em.state.repo(REPO).db.readRef('refs/docdb/ro.shards/1')).toBeUndefined();
  });
});
