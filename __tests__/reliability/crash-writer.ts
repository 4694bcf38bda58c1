/**
 * A child process that writes COUNT documents labelled LABEL in one putMany, to the GitHub API store
 * (`api <url> <token> <owner/repo> COUNT LABEL`) or a GitRefStore (`git <dir> <git executable> - COUNT
 * LABEL`). crash-safety.test.ts kills it at chosen points of the write.
 */
import { DocumentStore } from '../../src/document/document-store.js';
import { GitRefStore } from '../../src/stores/git/index.js';
import { RemoteApiRefStore } from '../../src/stores/remote-api/index.js';
import { fetchTransport } from '../../src/transport/fetch.js';
import { crashDocuments } from './crash-documents.js';

const [kind, target, secret, repo, count, label] = process.argv.slice(2) as string[] as [
  string,
  string,
  string,
  string,
  string,
  string,
];

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
const result = await new DocumentStore(store).putMany(crashDocuments(Number(count), label));
if (store instanceof GitRefStore) await store.close();
process.stdout.write(`${JSON.stringify({ version: result.version, changed: result.changed })}\n`);
