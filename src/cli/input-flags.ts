/**
 * The one place that says which CLI flag sets which Action input (action.yml), so messages built below
 * the entry points (spec loading, sources, the run) name `--spec` in a terminal where the Action names
 * the "spec" input. `docdb project` and `docdb demo` hand CLI_INPUT_NAMES down; io.ts reads INPUT_FLAGS
 * to prefix a usage error with the flag its field came from.
 */
import type { InputNames } from '../core/input-names.js';

/** Action input → the flag that sets it. */
export const INPUT_FLAGS: Readonly<Record<string, string>> = {
  spec: '--spec',
  mode: '--mode',
  repository: '--repo',
  'api-url': '--api-url',
  root: '--root',
  section: '--section',
  projections: '--projections',
  'commit-message': '--commit-message',
  shard: '--shard',
  'shard-commit': '--shard-commit',
  shards: '--shards',
  notify: '--notify',
  'notify-repository': '--notify-repository',
  'min-rate-limit': '--min-rate-limit',
  quarantine: '--quarantine',
  namespace: '--namespace',
  type: '--type',
  id: '--id',
  version: '--version',
  since: '--since',
  'pull-request': '--pull-request',
  'viewer-url': '--viewer-url',
  'review-file': '--review-file',
};

/**
 * The CLI has no token flag: it finds the token itself, and every AuthMissing it prints ends with where
 * it looked (io.ts AUTH_HINT, docs/cli.md "The token"), so a message only says that one is needed.
 */
const TOKEN_PHRASE = 'a token';

const flagOf = (input: string) => INPUT_FLAGS[input] ?? `--${input}`;

/**
 * The CLI's vocabulary for messages about inputs.
 *
 * @example
 * CLI_INPUT_NAMES.phrase('spec'); // '--spec'
 * CLI_INPUT_NAMES.phrase('repository'); // '--repo'
 * CLI_INPUT_NAMES.example('shard'); // 'e.g. --shard 2/4 (the second of four runs)'
 */
export const CLI_INPUT_NAMES: InputNames = {
  phrase: (input) => (input === 'token' ? TOKEN_PHRASE : flagOf(input)),
  label: (input) => (input === 'token' ? 'the token' : flagOf(input)),
  // A terminal has no matrix and no secrets context: a command line and a shell export.
  example: (kind, name = 'NAME') =>
    kind === 'shard' ? 'e.g. --shard 2/4 (the second of four runs)' : `export it first, e.g. export ${name}=…`,
};
