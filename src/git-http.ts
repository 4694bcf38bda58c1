/**
 * `docdb/git-http`: GitHttpRefStore, the section on any git server over smart HTTP (Gitea/Forgejo,
 * GitLab, Bitbucket, GitHub's git endpoint, `git http-backend`) with no git binary. Platform-neutral:
 * Node, browsers (its own bundle, so `docdb/browser` does not grow) and workers. Also in `docdb/node`.
 *
 * @example
 * import { DocumentStore } from 'docdb';
 * import { GitHttpRefStore } from 'docdb/git-http';
 * const docs = new DocumentStore(new GitHttpRefStore({ remote: 'https://gitea.example.com/org/data.git', token }));
 */
export { defaultUsername, GitHttpRefStore, type GitHttpRefStoreOptions } from './stores/git-http/index.js';
