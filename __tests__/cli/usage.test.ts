/**
 * The CLI's command line: --version, --help on every command, --json everywhere, and usage errors
 * (exit code 2) that name the flag and what is allowed — before any I/O.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version as string;
const COMMANDS = [
  ['doc', 'get'],
  ['doc', 'put'],
  ['doc', 'list'],
  ['doc', 'delete'],
  ['doc', 'history'],
  ['doc', 'changes'],
  ['project'],
  ['emulator'],
  ['demo'],
];
const ID = ['--namespace', 'notes', '--type', 'note', '--id', 'a'];
// A repository and API URL that would fail if anything were sent: usage errors must come first.
const NOWHERE = { GITHUB_REPOSITORY: 'o/r', GITHUB_API_URL: 'http://127.0.0.1:9' };

describe('docdb --version and --help', () => {
  it('--version prints the package version (and { version } with --json)', async () => {
    expect(await runCli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect((await runCli(['--version', '--json'])).json()).toEqual({ version });
  });

  it('--help lists every command; no command at all is a usage error', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toContain(`  ${c.join(' ')}`);
    expect(help.stdout).toMatch(/0 ok, 1 error, 2 usage, 3 not found/);
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: docdb <command>');
    expect((await runCli(['--help', '--json'])).json()).toMatchObject({ usage: expect.stringContaining('doc get') });
  });

  it.each(COMMANDS)('docdb %s %s --help shows its usage and flags', async (...cmd) => {
    const r = await runCli([...cmd.filter(Boolean), '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`usage: docdb ${cmd.filter(Boolean).join(' ')}`);
    expect(r.stdout).toContain('--json');
    const j = await runCli([...cmd.filter(Boolean), '--help', '--json']);
    expect(j.json()).toMatchObject({ command: cmd.filter(Boolean).join(' ') });
  });
});

describe('usage errors (exit code 2) name the flag and what is allowed', () => {
  const cases: [string, string[], RegExp, NodeJS.ProcessEnv?, string?][] = [
    ['unknown command', ['frobnicate'], /unknown command "frobnicate" \(commands: doc, project, emulator, demo/],
    [
      'missing subcommand',
      ['doc'],
      /docdb doc needs a subcommand: get, list, history, changes, export, query, index, search, search-index, schema, test, put, delete/,
    ],
    ['unknown subcommand', ['doc', 'remove'], /unknown subcommand "remove" of docdb doc \(allowed: get, list/],
    [
      'unknown flag',
      ['doc', 'get', ...ID, '--bogus'],
      /unknown flag --bogus \(allowed: --namespace, --type, --id, --version/,
    ],
    ['a token as a flag value', ['doc', 'get', ...ID, '--token', 'x'], /unknown flag --token/],
    ['a typo of a command', ['projcet'], /unknown command "projcet"; did you mean "project"\? \(commands: /],
    ['a subcommand without its group', ['get', 'n/t/i'], /unknown command "get"; did you mean "docdb doc get"\?/],
    [
      'a typo of a subcommand',
      ['doc', 'hsitory'],
      /unknown subcommand "hsitory" of docdb doc; did you mean "docdb doc history"\?/,
    ],
    [
      'a typo of a flag',
      ['doc', 'get', '--namspace', 'n'],
      /unknown flag --namspace; did you mean --namespace\? \(allowed/,
    ],
    ['a flag cut short', ['doc', 'list', '--name', 'n'], /unknown flag --name; did you mean --namespace\?/],
    [
      '--data-only and --field',
      ['doc', 'get', 'n/t/i', '--data-only', '--field', 'data'],
      /give --data-only or --field, not both/,
    ],
    ['a bad --field', ['doc', 'get', 'n/t/i', '--field', 'data..x'], /--field "data..x" must be dot-separated names/],
    ['a version too short to resolve', ['doc', 'get', ...ID, '--version', 'abc'], /--version must be a commit SHA/],
    ['a malformed --since', ['doc', 'changes', '--since', 'v1.0'], /--since must be a commit SHA of the section/],
    ['extra positional', ['doc', 'list', 'extra'], /unexpected argument "extra": this command takes flags only/],
    ['a second document name', ['doc', 'get', 'n/t/i', 'extra'], /unexpected argument "extra"/],
    [
      'a name and the flags',
      ['doc', 'get', 'n/t/i', '--id', 'i'],
      /name the document once: "n\/t\/i" or --id, not both/,
    ],
    [
      'a name that is not NS/TYPE/ID',
      ['doc', 'get', 'notes/hello'],
      /"notes\/hello" does not name a document: give NAMESPACE\/TYPE\/ID/,
    ],
    ['missing value', ['doc', 'get', '--namespace'], /--namespace needs a value/],
    ['flag as a value', ['doc', 'get', '--namespace', '--type', 'x'], /--namespace needs a value/],
    ['empty value', ['doc', 'get', '--namespace', '', '--type', 't', '--id', 'i'], /--namespace must not be empty/],
    ['repeated flag', ['doc', 'get', ...ID, '--id', 'b'], /--id is given more than once/],
    ['switch with a value', ['doc', 'list', '--json=yes'], /--json is a switch and takes no value/],
    ['missing required flag', ['doc', 'get', '--namespace', 'n', '--type', 't'], /--id is required/],
    [
      'every missing flag at once',
      ['doc', 'get', '--type', 't'],
      /--namespace and --id are required \(the document; or name it in one word: NAMESPACE\/TYPE\/ID/,
    ],
    ['empty --version', ['doc', 'get', ...ID, '--version', ''], /--version must not be empty/],
    [
      'malformed --version',
      ['doc', 'get', ...ID, '--version', 'HEAD'],
      /--version must be a commit SHA of the section: 40 hex characters, or at least the first 4/,
    ],
    [
      'unset --token-env',
      ['doc', 'get', ...ID, '--token-env', 'DOCDB_UNSET_VAR'],
      /--token-env DOCDB_UNSET_VAR: the environment variable DOCDB_UNSET_VAR is not set/,
      NOWHERE,
    ],
    [
      '--token-env given a token',
      ['doc', 'get', ...ID, '--token-env', 'ghp_abc-def'],
      /--token-env takes the NAME of an environment variable/,
      NOWHERE,
    ],
    [
      'bad --refstore',
      ['doc', 'get', ...ID, '--refstore', 'svn'],
      /--refstore "svn" is not a store \(allowed: api, git, subprocess, git-http\)/,
    ],
    [
      'flag for another store',
      ['doc', 'get', ...ID, '--remote', 'file:///x'],
      /--remote applies to --refstore subprocess or git-http, not api/,
    ],
    [
      'git store without --git-dir',
      ['doc', 'get', ...ID, '--refstore', 'git'],
      /--git-dir is required with --refstore git/,
    ],
    [
      'subprocess without --remote',
      ['doc', 'get', ...ID, '--refstore', 'subprocess'],
      /--remote is required with --refstore subprocess/,
    ],
    [
      'token for an ssh remote',
      ['doc', 'get', ...ID, '--refstore', 'subprocess', '--remote', 'git@h:o/r.git', '--token-env', 'T'],
      /--token-env applies to http\(s\) remotes only/,
    ],
    [
      'remote with a password',
      ['doc', 'get', ...ID, '--refstore', 'subprocess', '--remote', 'https://u:pw@h/r.git'],
      /--remote: remote must not contain a password/,
    ],
    [
      '--ref and --section',
      ['doc', 'get', ...ID, '--ref', 'refs/a/b', '--section', 'c'],
      /give either --ref or --root\/--section/,
    ],
    [
      'invalid --ref',
      ['doc', 'get', ...ID, '--ref', 'refs/a..b/c'],
      /--ref: ref "refs\/a..b\/c" is not a valid ref name/,
    ],
    ['no repository', ['doc', 'get', ...ID], /--repo owner\/name is required \(GITHUB_REPOSITORY is not set\)/],
    ['bad --repo', ['doc', 'get', ...ID, '--repo', 'nope'], /--repo "nope" must be "owner\/name"/],
    [
      'bad --api-url',
      ['doc', 'get', ...ID, '--repo', 'o/r', '--api-url', 'ftp://x'],
      /--api-url "ftp:\/\/x" is not an http\(s\) URL/,
    ],
    ['bad --limit', ['doc', 'list', '--limit', '0'], /--limit must be a positive whole number, got "0"/],
    ['bad identity', ['doc', 'get', '--namespace', 'a/b', '--type', 't', '--id', 'i'], /--namespace: /, NOWHERE],
    [
      'put without data',
      ['doc', 'put', ...ID],
      /no document data: give --data JSON, --file FILE, or pipe the JSON to stdin/,
    ],
    [
      'put with empty stdin',
      ['doc', 'put', ...ID, '--file', '-'],
      /no document data: .*\(stdin was empty\)/,
      undefined,
      '',
    ],
    [
      'put with --data and --file',
      ['doc', 'put', ...ID, '--data', '1', '--file', 'x'],
      /give either --data or --file, not both/,
    ],
    ['put with invalid JSON', ['doc', 'put', ...ID, '--data', '{nope'], /--data is not valid JSON/],
    [
      'put with a missing file',
      ['doc', 'put', ...ID, '--file', 'no-such-file.json'],
      /--file no-such-file.json: cannot read it \(ENOENT\)/,
    ],
    [
      'project --mode read',
      ['project', '--mode', 'read'],
      /--mode "read" is not a mode \(allowed: project, backfill, dry-run, merge, review\)/,
    ],
    // Several problems: ONE usage error lists them all (issue 32 item 5), before any I/O.
    [
      'put without identity, data or repository',
      ['doc', 'put'],
      /3 problems with the command line:\n {2}- --namespace, --type and --id are required .*\n {2}- no document data: .*\n {2}- --repo owner\/name is required/m,
    ],
    [
      'put NAME without data or repository',
      ['doc', 'put', 'a/b/c'],
      /2 problems with the command line:\n {2}- no document data: .*\n {2}- --repo owner\/name is required/,
    ],
    [
      'changes without --since or repository',
      ['doc', 'changes'],
      /2 problems with the command line:\n {2}- --since is required.*\n {2}- --repo owner\/name is required/,
    ],
    [
      'delete with a bad --if-match and no repository',
      ['doc', 'delete', 'a/b/c', '--if-match', 'x'],
      /2 problems with the command line:\n {2}- --if-match must be .*\n {2}- --repo owner\/name is required/,
    ],
    [
      'project without repository and with a missing spec',
      ['project', '--spec', 'no-such-spec.yml', '--mode', 'read'],
      /3 problems with the command line:\n {2}- --mode "read" is not a mode.*\n {2}- --repo owner\/name is required.*\n {2}- projection spec no-such-spec.yml not found: .* or set --spec to its path/,
    ],
    ['emulator --port', ['emulator', '--port', 'abc'], /--port must be a non-negative whole number, got "abc"/],
    ['emulator --latency', ['emulator', '--latency', '9-1'], /--latency must be "MS" or "MIN-MAX"/],
    [
      'emulator --secondary-limits',
      ['emulator', '--secondary-limits', 'offf'],
      /--secondary-limits must be on or off, got "offf"; did you mean "off"\?/,
    ],
    [
      'emulator --data-dir-repair without --data-dir',
      ['emulator', '--data-dir-repair'],
      /--data-dir-repair repairs the journal of a --data-dir: give --data-dir DIR too/,
    ],
    [
      'emulator: every bad flag at once',
      ['emulator', '--port', 'x', '--secondary-limits', 'yes'],
      /2 problems with the command line:\n {2}- --port must be .*\n {2}- --secondary-limits must be on or off, got "yes"/,
    ],
  ];

  it.each(cases)('%s', async (_name, argv, message, env, stdin) => {
    const io = { ...(env ? { env } : {}), ...(stdin !== undefined ? { stdin } : {}) };
    const r = await runCli(argv, io);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
    const j = await runCli([...argv, '--json'], io);
    expect(j.code).toBe(2);
    const { error } = j.json() as { error: { code: string; message: string; exitCode: number } };
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(message);
  });
});
