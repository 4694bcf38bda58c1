#!/usr/bin/env node
/**
 * Release checks and notes for a tag `vX.Y.Z`, as .github/workflows/release.yml runs them — and locally
 * with `--dry-run`, which prints the commands the workflow would run after the checks pass:
 *
 *   node scripts/release.mjs v0.2.0 --dry-run            # check, print notes and the plan; change nothing
 *   node scripts/release.mjs v0.2.0 --notes NOTES.md     # check, write the release notes to NOTES.md
 *
 * Checks: the tag is vX.Y.Z and equals package.json's version; CHANGELOG.md has a non-empty section
 * `## [X.Y.Z]`; dist/ matches a fresh build of src/ (skip with --skip-dist when the caller just ran it).
 * Exit 1 with a message naming what to fix.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The CHANGELOG section of `version` (without its heading), or undefined when there is none.
 *
 * @example
 * changelogSection('## [1.0.0] - 2026-01-01\n- first\n\n## [0.9.0]\n- old\n', '1.0.0'); // '- first'
 */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## [${version}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .replace(/\n\[[^\]]+\]: .*$/gm, '')
    .trim();
}

/** Every problem with releasing `tag` from `dir` (empty when it can be released). */
export function releaseProblems(tag, dir = root) {
  const problems = [];
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(tag ?? '');
  if (!m) return [`the tag must look like v1.2.3, got ${JSON.stringify(tag)}`];
  const version = tag.slice(1);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (pkg.version !== version) {
    problems.push(
      `package.json says version ${pkg.version}, the tag says ${version}: bump it (npm version ${version} --no-git-tag-version) and commit`,
    );
  }
  const notes = changelogSection(readFileSync(join(dir, 'CHANGELOG.md'), 'utf8'), version);
  if (!notes)
    problems.push(`CHANGELOG.md has no (or an empty) section "## [${version}]": move the Unreleased notes under it`);
  return problems;
}

function main(argv) {
  const tag = argv.find((a) => !a.startsWith('--') && argv[argv.indexOf(a) - 1] !== '--notes');
  const dryRun = argv.includes('--dry-run');
  const notesAt = argv.indexOf('--notes');
  const problems = releaseProblems(tag);
  if (problems.length === 0 && !argv.includes('--skip-dist')) {
    try {
      execFileSync(process.execPath, [join(root, 'scripts/check-dist.mjs')], { cwd: root, stdio: 'pipe' });
    } catch (e) {
      problems.push(`dist/ is stale: run npm run build:action and commit dist/ (${String(e.stdout ?? '').trim()})`);
    }
  }
  if (problems.length > 0) {
    for (const p of problems) console.error(`release: ${p}`);
    process.exit(1);
  }
  const version = tag.slice(1);
  const notes = changelogSection(readFileSync(join(root, 'CHANGELOG.md'), 'utf8'), version);
  if (notesAt >= 0) writeFileSync(argv[notesAt + 1], `${notes}\n`);
  if (dryRun) {
    const major = `v${version.split('.')[0]}`;
    console.log(`release ${tag}: checks passed\n\n--- release notes ---\n${notes}\n---------------------\n`);
    console.log('the workflow would run:');
    console.log(`  gh release create ${tag} --title ${tag} --notes-file <notes>`);
    console.log(`  git tag -f ${major} ${tag}^{commit} && git push -f origin ${major}`);
    console.log('  npm publish --provenance --access public');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
