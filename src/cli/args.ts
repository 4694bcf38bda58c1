/**
 * Command-line parsing for every command (node:util parseArgs, strict): unknown flags, repeated
 * flags, missing or empty values and extra positionals are usage errors that name the flag and say
 * what is allowed.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './io.js';
import { didYouMean } from './suggest.js';

export type FlagSpec = {
  type: 'string' | 'boolean';
  short?: string;
  /** Shown in help. */
  description?: string;
  /** A string flag that may be given more than once (`--where a --where b`): its value is a string array. */
  multiple?: boolean;
};
export type FlagSpecs = Record<string, FlagSpec>;
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** Flags every command takes. */
export const COMMON_FLAGS: FlagSpecs = {
  json: { type: 'boolean', description: 'machine output: one JSON value on stdout' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

export interface Parsed {
  values: FlagValues;
  positionals: string[];
  /** Every string flag in the order given, across flags (`--rename a --drop b --rename c`: three entries). */
  ordered: { name: string; value: string }[];
}

function flagList(specs: FlagSpecs): string {
  return Object.keys(specs)
    .map((k) => `--${k}`)
    .join(', ');
}

/**
 * `--flag -value` → `--flag=-value` for a string flag whose value starts with one dash (`--order-by
 * -data.stars`, `--limit -1`): parseArgs would read the value as a flag and refuse it as ambiguous. A `-x`
 * that is one of the command's short flags, and anything starting with `--`, stays a flag (so a missing
 * value is still named as such); nothing after `--` is touched.
 */
function joinDashValues(args: readonly string[], specs: FlagSpecs): string[] {
  const shorts = new Set(Object.values(specs).flatMap((s) => (s.short ? [`-${s.short}`] : [])));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') return [...out, ...args.slice(i)];
    const next = args[i + 1];
    const isStringFlag = arg.startsWith('--') && !arg.includes('=') && specs[arg.slice(2)]?.type === 'string';
    if (isStringFlag && next !== undefined && /^-[^-]/.test(next) && !shorts.has(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/**
 * Parse `args` against `specs` (plus --json/--help) and at most `maxPositionals` positionals.
 *
 * @example
 * const { values } = parseCommandArgs(['--id', 'x'], { id: { type: 'string' } }, 0);
 */
export function parseCommandArgs(args: string[], specs: FlagSpecs, maxPositionals = 0): Parsed {
  const all: FlagSpecs = { ...specs, ...COMMON_FLAGS };
  const options = Object.fromEntries(
    Object.entries(all).map(([k, v]) => [
      k,
      { type: v.type, ...(v.short ? { short: v.short } : {}), ...(v.multiple ? { multiple: true } : {}) },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; tokens: true; allowPositionals: true }>>;
  try {
    parsed = parseArgs({
      args: joinDashValues(args, all),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (e) {
    const message = (e as Error).message;
    const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
    if (unknown) {
      const known = Object.keys(all).map((k) => `--${k}`);
      const hint = didYouMean(unknown.replace(/^-+/, '--'), known, (n) => n);
      throw new UsageError(`unknown flag ${unknown}${hint} (allowed: ${flagList(all)})`, unknown);
    }
    const flag = /Option '(?:-\w, )?(--[\w-]+)/.exec(message)?.[1];
    if (flag && /argument missing|ambiguous/.test(message)) {
      throw new UsageError(`${flag} needs a value (${flag} VALUE or ${flag}=VALUE)`, flag);
    }
    if (flag && /does not take an argument/.test(message)) {
      throw new UsageError(`${flag} is a switch and takes no value`, flag);
    }
    throw new UsageError(message);
  }
  const seen = new Set<string>();
  const ordered: Parsed['ordered'] = [];
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option') continue;
    if (typeof t.value === 'string') ordered.push({ name: t.name, value: t.value });
    if (seen.has(t.name) && all[t.name]?.multiple !== true) {
      throw new UsageError(`--${t.name} is given more than once`, `--${t.name}`);
    }
    seen.add(t.name);
    if (all[t.name]?.type === 'string' && t.value === '') {
      throw new UsageError(`--${t.name} must not be empty`, `--${t.name}`);
    }
  }
  if (parsed.positionals.length > maxPositionals) {
    const extra = parsed.positionals[maxPositionals];
    throw new UsageError(
      maxPositionals === 0
        ? `unexpected argument ${JSON.stringify(extra)}: this command takes flags only`
        : `unexpected argument ${JSON.stringify(extra)}`,
    );
  }
  return { values: parsed.values as FlagValues, positionals: parsed.positionals, ordered };
}

/** A string flag's value, or undefined. */
export function str(values: FlagValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Every value of a repeatable flag (`multiple: true`), in the order given; [] when absent.
 *
 * @example
 * strs({ where: ['data.a=1', 'data.b>2'] }, 'where'); // ['data.a=1', 'data.b>2']
 */
export function strs(values: FlagValues, name: string): string[] {
  const v = values[name];
  return Array.isArray(v) ? v : typeof v === 'string' ? [v] : [];
}

/** A required string flag. */
export function required(values: FlagValues, name: string, what: string): string {
  const v = str(values, name);
  if (v === undefined) throw new UsageError(`--${name} is required (${what})`, `--${name}`);
  return v;
}

/** "--a", "--a and --b", "--a, --b and --c". */
export function flagNames(names: readonly string[]): string {
  const shown = names.map((n) => `--${n}`);
  return shown.length < 2 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * Several required string flags, checked together: one usage error naming EVERY missing flag (a user
 * fixes the command line once, not once per flag). `what` ends the message.
 *
 * @example
 * const [ns, type] = requiredFlags(values, ['namespace', 'type'], 'the document');
 */
export function requiredFlags(values: FlagValues, names: readonly string[], what: string): string[] {
  const missing = names.filter((n) => str(values, n) === undefined);
  if (missing.length > 0) {
    throw new UsageError(
      `${flagNames(missing)} ${missing.length === 1 ? 'is' : 'are'} required (${what})`,
      `--${missing[0]}`,
    );
  }
  return names.map((n) => str(values, n) as string);
}

type Checked<T extends readonly (() => unknown)[]> = { -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> };

/**
 * Run every check of a command line that needs no network (flags, the document's name, the data source,
 * the store's flags) and throw ONE UsageError naming every problem found, so a user fixes the command
 * line once rather than once per problem (issue 32 item 5). One problem is thrown as it is; any other
 * error stops at once. Returns each check's value, in order.
 *
 * @example
 * const [identity, data] = await checkUsage(() => identityFrom(values), () => readData(values, ctx));
 */
export async function checkUsage<T extends readonly (() => unknown)[]>(...checks: T): Promise<Checked<T>> {
  const results: unknown[] = [];
  const problems: UsageError[] = [];
  for (const check of checks) {
    try {
      results.push(await check());
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      problems.push(e);
      results.push(undefined);
    }
  }
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    throw new UsageError(
      `${problems.length} problems with the command line:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
      problems[0]?.flag,
    );
  }
  return results as Checked<T>;
}

/** A positive integer flag, or undefined. */
export function positiveInt(values: FlagValues, name: string): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(v)) {
    throw new UsageError(`--${name} must be a positive whole number, got ${JSON.stringify(v)}`, `--${name}`);
  }
  return Number(v);
}

/**
 * A version flag (`--version`, `--since`, `--to`): a commit SHA of the section, 40 hex characters or an
 * abbreviation of at least 4 (as docdb prints them), checked for shape before any I/O. Abbreviations are
 * resolved against the section by `docs.resolveVersion` (doc-common.ts).
 *
 * @example
 * versionFlag({ version: '2ce87ab' }); // '2ce87ab'
 */
export function versionFlag(values: FlagValues, name = 'version'): string | undefined {
  const v = str(values, name);
  if (v !== undefined && !/^[0-9a-fA-F]{4,40}$/.test(v)) {
    throw new UsageError(
      `--${name} must be a commit SHA of the section: 40 hex characters, or at least the first 4 (as docdb doc put, list and history print them), got ${JSON.stringify(v)}`,
      `--${name}`,
    );
  }
  return v;
}

/** Help text for a list of flags. */
export function describeFlags(specs: FlagSpecs): string {
  const rows = Object.entries({ ...specs, ...COMMON_FLAGS }).map(([k, v]) => {
    const value = v.type === 'string' ? (v.multiple ? ' VALUE (repeatable)' : ' VALUE') : '';
    const name = `${v.short ? `-${v.short}, ` : ''}--${k}${value}`;
    return `  ${name.padEnd(28)} ${v.description ?? ''}`;
  });
  return rows.join('\n');
}
