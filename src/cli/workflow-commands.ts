/**
 * The Action speaks to its runner in workflow commands on stdout (`::debug::…`, `::warning title=…::…`,
 * `::group::…`, with `%`, CR, LF — and in properties `:` and `,` — percent-encoded, as @actions/core's
 * command.ts writes them). Under Actions the runner turns them into a folded, annotated log; in a
 * terminal they are noise. These helpers tell the two apart and read the commands back into plain lines.
 * See https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands
 */

/**
 * Whether this process runs as a GitHub Actions step (the runner sets `GITHUB_ACTIONS=true`): only then do
 * workflow commands and the Markdown job summary mean anything to the reader.
 *
 * @example
 * underActions(process.env); // true on a runner, false in a terminal
 */
export function underActions(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * Undo @actions/core's escaping (`%25` last, so an encoded `%3A` in the text stays `%3A`). A carriage
 * return is dropped rather than restored: in a terminal it would move the cursor back over the line.
 */
function decodeCommandText(text: string): string {
  return text
    .replace(/%0D/gi, '')
    .replace(/%0A/gi, '\n')
    .replace(/%3A/gi, ':')
    .replace(/%2C/gi, ',')
    .replace(/%25/g, '%');
}

const COMMAND = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/;

/** Properties `key=value,key=value` of a command, unescaped. */
function properties(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const i = pair.indexOf('=');
    if (i > 0) out[pair.slice(0, i).trim()] = decodeCommandText(pair.slice(i + 1));
  }
  return out;
}

/** One workflow command as a plain line, or undefined for those a reader does not see by default. */
function plainLine(name: string, props: Record<string, string>, message: string): string | undefined {
  if (name === 'group') return `▸ ${message}`;
  if (name === 'error' || name === 'warning' || name === 'notice') {
    const where = props.file ? ` (${props.file}${props.line ? `:${props.line}` : ''})` : '';
    return `${name}: ${message}${where}`;
  }
  // debug (hidden unless the run enables debug logging), add-mask, endgroup, set-output, echo, …
  return undefined;
}

/**
 * A step's log as a terminal reader should see it: workflow commands become plain lines (`warning: …
 * (docdb.yml:3)`, `▸ group`), debug lines and masks are left out, other lines are kept as they are.
 *
 * @example
 * plainStepLog('::debug::GET /x 200\n::warning title=docdb%3A X,file=a.yml,line=3::bad\ndone\n');
 * // 'warning: bad (a.yml:3)\ndone\n'
 */
export function plainStepLog(log: string): string {
  const out: string[] = [];
  for (const line of log.split('\n')) {
    const m = COMMAND.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const plain = plainLine(m[1] as string, properties(m[2]), decodeCommandText(m[3] as string));
    if (plain !== undefined) out.push(plain);
  }
  return out.join('\n');
}
