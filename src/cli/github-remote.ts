/**
 * The GitHub repository a directory is a clone of, for commands that print a next step to type (`docdb
 * init`): `$GITHUB_REPOSITORY` when set (on a runner), else the `origin` remote of the directory when it
 * is a github.com URL, else nothing (the caller prints a placeholder).
 */
import { execFile } from 'node:child_process';

/**
 * `owner/name` of a github.com remote URL (https, ssh or scp-like), or undefined for any other URL.
 *
 * @example
 * githubRepoOfUrl('git@github.com:octo-org/widgets.git'); // 'octo-org/widgets'
 */
export function githubRepoOfUrl(url: string): string | undefined {
  const m =
    /^(?:https?:\/\/(?:[^@/]+@)?|ssh:\/\/(?:[^@/]+@)?|(?:[^@/]+@))github\.com[:/]([A-Za-z0-9][A-Za-z0-9-]{0,38})\/([A-Za-z0-9._-]{1,100}?)(?:\.git)?\/?$/i.exec(
      url.trim(),
    );
  return m ? `${m[1]}/${m[2]}` : undefined;
}

/** The `origin` remote's URL of the git repository at `dir`, or undefined (not a repository, no origin, no git). */
function originUrl(dir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((done) => {
    // Only this directory's own configuration: no GIT_DIR from the caller's environment redirects it.
    const { GIT_DIR: _d, GIT_WORK_TREE: _w, ...clean } = env;
    execFile('git', ['-C', dir, 'config', '--get', 'remote.origin.url'], { env: clean, timeout: 5000 }, (err, out) =>
      done(err ? undefined : out.trim() || undefined),
    );
  });
}

/**
 * The repository `dir` belongs to on GitHub: `$GITHUB_REPOSITORY`, else its github.com `origin`.
 *
 * @example
 * await githubRepository('.', process.env); // 'octo-org/widgets' | undefined
 */
export async function githubRepository(dir: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (env.GITHUB_REPOSITORY) return env.GITHUB_REPOSITORY;
  const url = await originUrl(dir, env);
  return url === undefined ? undefined : githubRepoOfUrl(url);
}
