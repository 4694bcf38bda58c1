/**
 * A child process that compacts a section to its last 3 commits: on the GitHub API store
 * (`api <url> <token> <owner/repo>`) or a GitRefStore (`git <dir> <git executable>`).
 * compact-kill.test.ts kills it at chosen points of the compaction.
 */
import { compactSection } from '../../src/retention/index.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';

const [kind, target, secret, repo] = process.argv.slice(2) as [string, string, string, string];
const store =
  kind === 'api'
    ? new RemoteApiRefStore({
        transport: fetchTransport(),
        apiUrl: target,
        token: secret,
        owner: repo.split('/')[0]!,
        repo: repo.split('/')[1]!,
      })
    : new GitRefStore({ dir: target, git: secret });
const r = await compactSection(store, { keepCommits: 3 }, { pacing: false });
if (store instanceof GitRefStore) await store.close();
process.stdout.write(`${JSON.stringify({ compacted: r.compacted, version: r.version })}\n`);
