/**
 * The live suite against real GitHub. Runs only with DOCDB_LIVE_TOKEN (a token that can write contents of
 * the repository) and DOCDB_LIVE_REPO (owner/name, with at least one commit); DOCDB_LIVE_API_URL points it
 * at GitHub Enterprise Server; DOCDB_LIVE_RECORD=<file> saves the session for the emulator's replay test
 * (copy it to __tests__/fixtures/live/). Without a token and repository it is skipped, saying why.
 */
import { describeLiveSuite } from './live-suite.js';

const token = process.env.DOCDB_LIVE_TOKEN ?? '';
const repo = process.env.DOCDB_LIVE_REPO ?? '';
const enabled = token !== '' && /^[\w.-]+\/[\w.-]+$/.test(repo);
if (!enabled) {
  console.warn(
    'live suite against GitHub: skipped — set DOCDB_LIVE_TOKEN and DOCDB_LIVE_REPO=owner/name (a scratch repository the token can write) to run it',
  );
}

describeLiveSuite('GitHub', enabled, () => ({
  apiUrl: process.env.DOCDB_LIVE_API_URL || 'https://api.github.com',
  token,
  repo,
  ...(process.env.DOCDB_LIVE_RECORD ? { recordTo: process.env.DOCDB_LIVE_RECORD } : {}),
}));
