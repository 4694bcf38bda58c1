/**
 * What `docdb init` writes: a commented projection spec (`.github/docdb.yml`) with one projection per
 * chosen source, and the workflow that runs it on a schedule. Pure text; src/cli/commands/init.ts checks
 * the flags and writes the files. The spec's fields are those of docs/projection-spec.md; the workflow
 * follows examples/workflows/docdb-scheduled.yml.
 */

/** The sources `docdb init --sources` offers, in menu order, with the projection each one writes. */
export const INIT_SOURCES = {
  repos: {
    about: 'each repository: description, default branch, branch tips',
    permission: undefined,
    spec: `  # One document per repository, id "<owner>/<name>": description, default branch, branch tips.
  repos:
    source:
      type: repository
      # repositories: [my-org/api, my-org/web]   # or my-org/* (every repository of an organisation)
    identity: { namespace: github, type: repo, id: "{owner}/{name}" }
    reducer: repository
    prune: true   # a repository no longer listed loses its document
`,
  },
  issues: {
    about: 'open issues (closed ones are pruned)',
    permission: 'issues: read',
    spec: `  # Open issues, read incrementally (only what changed since the last run); closed ones are pruned.
  issues:
    source: { type: issues, state: open }
    identity: { namespace: github, type: issue, id: "{repo}#{number}" }
    prune: true
`,
  },
  pulls: {
    about: 'pull requests, open and closed',
    permission: 'pull-requests: read',
    spec: `  # Pull requests, open and closed.
  pulls:
    source: { type: pulls, state: all }
    identity: { namespace: github, type: pull, id: "{repo}#{number}" }
`,
  },
  releases: {
    about: 'published releases (no drafts)',
    permission: undefined,
    spec: `  # Published releases, one document per tag.
  releases:
    source: { type: releases, drafts: false }
    identity: { namespace: github, type: release, id: "{repo}@{tag}" }
`,
  },
} as const;

export type InitSource = keyof typeof INIT_SOURCES;
export const DEFAULT_INIT_SOURCES: readonly InitSource[] = ['repos', 'issues'];
/** Minute 17 of every hour: off the top of the hour, when GitHub's scheduler is busiest. */
export const DEFAULT_SCHEDULE = '17 * * * *';

/**
 * The projection spec for these sources.
 *
 * @example
 * initSpec(['repos', 'issues']); // "version: 1\n…projections:\n  repos: …"
 */
export function initSpec(sources: readonly InitSource[]): string {
  return `# docdb projection spec, written by \`docdb init\`. Every field: docs/projection-spec.md in the
# docdb package (https://github.com/docdb/docdb/blob/main/docs/projection-spec.md).
# Check it locally without writing anything:
#   npx docdb project --spec .github/docdb.yml --mode dry-run
version: 1

# Sources that list no repositories read the workflow's own repository. To read others for every
# projection, uncomment (a token that can read them is needed: see the workflow's "token" input).
# defaults:
#   repositories: [my-org/api, my-org/web]

projections:
${sources.map((s) => INIT_SOURCES[s].spec).join('\n')}`;
}

/**
 * The scheduled workflow running the spec.
 *
 * @example
 * initWorkflow('17 * * * *', ['repos']);
 */
export function initWorkflow(schedule: string, sources: readonly InitSource[]): string {
  const permissions = sources.map((s) => INIT_SOURCES[s].permission).filter((p) => p !== undefined);
  return `# Written by \`docdb init\`: refreshes every projection of .github/docdb.yml on a schedule.
# Inputs, outputs and modes: docs/action.md in the docdb package.
name: docdb

on:
  schedule:
    - cron: "${schedule}" # UTC
  workflow_dispatch: # and by hand, from the Actions tab

permissions:
  contents: write # docdb commits the documents to refs/docdb/documents
${permissions.map((p) => `  ${p}\n`).join('')}
# One run at a time: a second run would only lose the fast-forward race and retry.
concurrency:
  group: docdb-documents
  cancel-in-progress: false

jobs:
  project:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4 # the spec (and any reducer modules) live in the repository
      - id: docdb
        # Before docdb's first release, pin a commit instead: docdb/docdb@<full commit SHA>.
        uses: docdb/docdb@v0
        with:
          spec: .github/docdb.yml
      - run: echo "documents at \${{ steps.docdb.outputs.version }} (changed=\${{ steps.docdb.outputs.changed }})"
`;
}
