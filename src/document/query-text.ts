/**
 * The text form of a query's clauses, shared by the CLI (`--where`, `--order-by`) and the Action (`where`,
 * `order-by`): one clause per flag or line, such as `data.stars>=10`. The clause it gives is checked by the
 * library's one validator (`validateQuery`, docs/indexes.md "Queries"); only the error's wording (which
 * flag or input) is the caller's. No `!` anywhere in the syntax: in an interactive bash, `!` inside double
 * quotes starts a history expansion (https://www.gnu.org/software/bash/manual/bash.html#History-Interaction),
 * so `--where "data.x!=1"` would fail before docdb saw it.
 */
import { InvalidConfig } from '../core/errors.js';
import { ACTION_INPUT_NAMES, type InputNames } from '../core/input-names.js';
import { type Operator, validateQuery, type WhereClause } from './indexes/query.js';

/** The forms one clause may take, for error messages and help texts. */
export const WHERE_FORMS =
  'FIELD=VALUE, FIELD<VALUE, FIELD<=VALUE, FIELD>VALUE, FIELD>=VALUE, FIELD~VALUE (an array contains VALUE; also FIELD contains VALUE), FIELD in A,B,C (or a JSON array), FIELD exists, FIELD absent, or a JSON clause {"field","op","value"}; FIELD is id or data.<path>, e.g. data.stars>=10';

/**
 * `id`, or `data.` and dot-separated segments without spaces, `!` or an operator character (`data.x!=1`
 * must not read as `=` on a field `x!`). Other field names: the JSON clause form.
 */
const FIELD = String.raw`id|data(?:\.[^.\s=<>~!]+)+`;
const SYMBOL_CLAUSE = new RegExp(String.raw`^(${FIELD})\s*(>=|<=|=|<|>|~)\s*(.*)$`, 's');
/** The symbol operators, as a message lists them. */
const SYMBOL_OPERATORS = '=, <, <=, >, >=, ~';
const WORD_CLAUSE = new RegExp(String.raw`^(${FIELD})\s+(in|contains|exists|absent)(?:\s+(.*))?$`, 's');

/**
 * A value as typed text: JSON when it parses as JSON (`10` → 10, `true`, `null`, `"10"` → the string "10"),
 * else the text itself (`TypeScript` → "TypeScript").
 */
function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** `a,b,c` (each typed as {@link typedValue}) or a JSON array, for values that hold commas. */
function listValue(text: string): unknown {
  if (text.startsWith('[')) {
    const parsed = typedValue(text);
    if (Array.isArray(parsed)) return parsed;
  }
  return text.split(',').map((v) => typedValue(v.trim()));
}

/**
 * Parse one `where` clause of the text syntax (docs/indexes.md "Querying"). `names` says how a message
 * names the setting (`--where` in the CLI, `input "where"` in the Action). A malformed clause, an
 * operator docdb does not know or a value the operator does not take is `InvalidConfig` naming the
 * setting and the allowed forms, before any I/O.
 *
 * @example
 * parseWhere('data.stars>=10'); // { field: 'data.stars', op: '>=', value: 10 }
 * parseWhere('data.language=TypeScript'); // { field: 'data.language', op: '=', value: 'TypeScript' }
 * parseWhere('data.topics~cli'); // { field: 'data.topics', op: 'contains', value: 'cli' }
 * parseWhere('data.language in Go,Rust'); // { field: 'data.language', op: 'in', value: ['Go', 'Rust'] }
 * parseWhere('data.archived absent'); // { field: 'data.archived', op: 'exists', value: false }
 */
export function parseWhere(text: string, names: InputNames = ACTION_INPUT_NAMES): WhereClause {
  const clause = clauseOf(text.trim(), names);
  const values = Array.isArray(clause.value) ? clause.value : [clause.value];
  if (values.some((v) => typeof v === 'number' && Math.abs(v) > Number.MAX_SAFE_INTEGER)) {
    // JSON.parse has already rounded it (9007199254740993 reads as …992): refuse rather than match a neighbour.
    malformed(
      text,
      names,
      'a number beyond ±(2^53 − 1) is not exact (it would be rounded and match its neighbours); write it as a JSON string if the field holds one, e.g. data.big="9007199254740993"',
    );
  }
  try {
    validateQuery({ namespace: 'n', type: 't', where: [clause] });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    // The validator names `where[0].value` of a query; here the user wrote one clause of a setting.
    const why = e.message.replace(/^query where\[0\]\.(\w+) /, 'its $1 ').replace(/; allowed: .*$/s, '');
    malformed(text, names, why, String(e.data.allowed ?? WHERE_FORMS));
  }
  return clause;
}

function clauseOf(text: string, names: InputNames): WhereClause {
  if (text.startsWith('{')) return jsonClause(text, names);
  const word = WORD_CLAUSE.exec(text);
  if (word) {
    const [, field, op, rest = ''] = word as unknown as [string, string, string, string?];
    if (op === 'exists' || op === 'absent') {
      if (rest !== '') malformed(text, names, `"${op}" takes no value`);
      return { field, op: 'exists', value: op === 'exists' };
    }
    if (rest === '') malformed(text, names, `"${op}" needs a value`);
    return { field, op: op as Operator, value: op === 'in' ? listValue(rest) : typedValue(rest) };
  }
  const symbol = SYMBOL_CLAUSE.exec(text);
  if (!symbol) {
    const negation = text.includes('!') ? ' (there is no "!" or "!=": "absent" matches a missing field)' : '';
    malformed(text, names, `it is not FIELD OPERATOR VALUE${negation}`);
  }
  const [, field, sign, rest] = symbol as unknown as [string, string, string, string];
  if (rest === '') malformed(text, names, `no value after "${sign}" (write "" for the empty string)`);
  // `data.state==open` read as `=` and the value "=open" answered 0 rows without a word: an operator followed
  // by operator characters is a typo far more often than a value, and a value that truly starts with one is
  // written as JSON.
  if (/^[=<>~]/.test(rest)) {
    const op = `${sign}${/^[=<>~]+/.exec(rest)![0]}`;
    malformed(
      text,
      names,
      `"${op}" is not an operator (the operators are ${SYMBOL_OPERATORS}; e.g. ${field}>=10); a value that starts with "${rest[0]}" is written as JSON: ${field}${sign}${JSON.stringify(rest)}`,
    );
  }
  return { field, op: sign === '~' ? 'contains' : (sign as Operator), value: typedValue(rest) };
}

function jsonClause(text: string, names: InputNames): WhereClause {
  const parsed = typedValue(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    malformed(text, names, 'it starts with "{" but is not a JSON object');
  }
  const { field, op, value, ...rest } = parsed as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) malformed(text, names, `a JSON clause has only field, op and value, not ${extra.join(', ')}`);
  return { field, op, value } as WhereClause;
}

/** A clause that is not what `allowed` says: the message names the setting, the clause and why. */
function malformed(text: string, names: InputNames, why: string, allowed = WHERE_FORMS): never {
  throw new InvalidConfig('where', `${names.label('where')}: ${JSON.stringify(text)}: ${why}; allowed: ${allowed}`, {
    allowed,
  });
}

/**
 * The text that {@link parseWhere} reads back as `clause` (for summaries and help): a string that would
 * read as another type (`10`, `true`), or has spaces at its ends, or is empty, is written as JSON.
 *
 * @example
 * formatWhere({ field: 'data.stars', op: '>=', value: 10 }); // 'data.stars>=10'
 * formatWhere({ field: 'data.id', op: '=', value: '10' }); // 'data.id="10"'
 */
export function formatWhere(clause: WhereClause): string {
  const { field, op, value } = clause;
  if (op === 'exists') return `${field} ${value === false ? 'absent' : 'exists'}`;
  if (op === 'in') {
    const list = value as unknown[];
    const plain = list.every((v) => typeof v !== 'string' || (!v.includes(',') && valueText(v) === v));
    return `${field} in ${plain ? list.map(valueText).join(',') : JSON.stringify(list)}`;
  }
  return `${field}${op === 'contains' ? '~' : op}${valueText(value)}`;
}

/** A value as text that {@link typedValue} types back the same. */
function valueText(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  const reads = typedValue(value);
  // A leading operator character would join the operator (`>` then `=5` reads as `>=` 5), or be refused.
  const plain = reads === value && value.trim() === value && value !== '' && !/^[=<>~]/.test(value);
  return plain ? value : JSON.stringify(value);
}

/**
 * `--order-by` / `order-by`: a field, `-` in front for descending (`+` or nothing: ascending).
 *
 * @example
 * parseOrderBy('-data.stars'); // { field: 'data.stars', direction: 'desc' }
 * parseOrderBy('id'); // { field: 'id', direction: 'asc' }
 */
export function parseOrderBy(
  text: string,
  names: InputNames = ACTION_INPUT_NAMES,
): { field: string; direction: 'asc' | 'desc' } {
  const t = text.trim();
  const direction = t.startsWith('-') ? 'desc' : 'asc';
  const field = /^[-+]/.test(t) ? t.slice(1) : t;
  try {
    validateQuery({ namespace: 'n', type: 't', orderBy: { field, direction } });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const allowed = 'a field, id or data.<path>, with "-" in front for descending, e.g. -data.stars';
    throw new InvalidConfig('order-by', `${names.label('order-by')}: ${JSON.stringify(text)} is not ${allowed}`, {
      allowed,
    });
  }
  return { field, direction };
}
