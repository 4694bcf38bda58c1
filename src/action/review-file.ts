/**
 * The `review-file` (issue 39): where `mode: review` writes the review as JSON (for
 * `actions/upload-artifact`, so a `workflow_run` workflow can publish a fork's review) and where
 * `mode: review-publish` reads it from. Both paths stay inside the workspace, also once symbolic links are
 * resolved (as `export-path` does: export/real-path.ts); the file is read size-capped, its contents are the
 * review renderers' business (readReviewFile validates them).
 */
import { mkdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidConfig } from '../core/errors.js';
import { isInside, realTarget } from '../export/real-path.js';

/** The review file is refused past this size before it is read (render39's readReviewFile checks it too). */
export const MAX_REVIEW_FILE_BYTES = 8 * 1024 * 1024;

const notInside = (path: string, workspace: string, how: string) =>
  new InvalidConfig(
    'review-file',
    `input "review-file": ${JSON.stringify(path)} is not a file inside the workspace (${workspace})${how}; give a relative path such as docdb-review.json`,
    { allowed: 'a relative path inside the workspace' },
  );

/**
 * The real path `path` leads to, which must be inside the workspace's real path.
 *
 * @example
 * await reviewFileTarget('docdb-review.json', '/home/runner/work/repo'); // '/home/runner/work/repo/docdb-review.json'
 */
export async function reviewFileTarget(path: string, workspace: string): Promise<string> {
  const root = await realpath(workspace).catch(() => resolve(workspace));
  const real = await realTarget(resolve(workspace, path));
  if (real === root || !isInside(real, root)) throw notInside(path, workspace, `: it leads to ${real}`);
  return real;
}

/**
 * Write the review JSON to `path` (inside the workspace); its real path.
 *
 * @example
 * const written = await writeReviewTo('docdb-review.json', writeReviewFile(review), workspace);
 */
export async function writeReviewTo(path: string, json: string, workspace: string): Promise<string> {
  const target = await reviewFileTarget(path, workspace);
  // Its directory may not exist yet (out/review.json): made where the real path said, inside the workspace.
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, json);
  return target;
}

/**
 * The review file's text, refused (naming `review-file`) when missing or larger than {@link MAX_REVIEW_FILE_BYTES}.
 *
 * @example
 * const review = readReviewFile(await readReviewText('docdb-review.json', workspace));
 */
export async function readReviewText(path: string, workspace: string): Promise<string> {
  const target = await reviewFileTarget(path, workspace);
  const size = (await stat(target).catch(() => undefined))?.size;
  if (size === undefined) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": ${JSON.stringify(path)} does not exist in the workspace (download the review artifact first)`,
      {
        allowed: 'the review file mode: review wrote',
      },
    );
  }
  if (size > MAX_REVIEW_FILE_BYTES) {
    throw new InvalidConfig(
      'review-file',
      `input "review-file": ${JSON.stringify(path)} is ${size} bytes, more than a review file holds (${MAX_REVIEW_FILE_BYTES}); it is not read`,
      { allowed: `at most ${MAX_REVIEW_FILE_BYTES} bytes` },
    );
  }
  return readFile(target, 'utf8');
}
