/**
 * The text formats an export or a query result is written in: JSON Lines (one value per line), JSON (one
 * array) and CSV (RFC 4180: https://www.rfc-editor.org/rfc/rfc4180 — fields with a comma, a double quote
 * or a line break are quoted, a quote inside is doubled, records end with CRLF). Pure: the writers in
 * write-export.ts and the entry points decide where the text goes.
 */

export const TEXT_FORMATS = ['jsonl', 'json', 'csv'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];

/** The columns a CSV export has when none are picked: the envelope, with `data` as its JSON text. */
export const ENVELOPE_COLUMNS = ['namespace', 'type', 'id', 'version', 'data'] as const;

/**
 * A value as one CSV field's text: a string as it is, an absent value as the empty field, anything else
 * (a number, true/false, null, an object or array) as its JSON text; quoted per RFC 4180 when needed.
 *
 * @example
 * csvField('a,b'); // '"a,b"'
 * csvField({ x: 1 }); // '"{""x"":1}"'
 * csvField(undefined); // ''
 */
export function csvField(value: unknown): string {
  const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * One CSV record (RFC 4180: fields separated by commas, the record ended by CRLF). `eol` '\n' is for a
 * terminal's stdout, which the CLI makes inert: a `\r` there would show as `\u000D` (core/terminal-text.ts).
 *
 * @example
 * csvRecord(['id', 'data.stars']); // 'id,data.stars\r\n'
 */
export function csvRecord(values: readonly unknown[], eol: '\r\n' | '\n' = '\r\n'): string {
  return `${values.map(csvField).join(',')}${eol}`;
}

/**
 * The value at a dotted path of an object (`data.owner.login`), undefined when a step is missing.
 *
 * @example
 * valueAt({ data: { owner: { login: 'octo' } } }, 'data.owner.login'); // 'octo'
 */
export function valueAt(value: unknown, path: string): unknown {
  let here = value;
  for (const segment of path.split('.')) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, segment)) return undefined;
    here = (here as Record<string, unknown>)[segment];
  }
  return here;
}

/**
 * `items` as text in `format`, a chunk at a time (for a file stream or stdout). CSV needs `columns`: the
 * header, then per item the value at each column's path ({@link valueAt}, or `pick` when given). JSON is
 * one array, one item per line. `onItem` counts what was written.
 *
 * @example
 * for await (const chunk of formatItems(envelopes, 'csv', { columns: ['id', 'data.stars'] })) process.stdout.write(chunk);
 */
export async function* formatItems<T>(
  items: AsyncIterable<T> | Iterable<T>,
  format: TextFormat,
  options: {
    columns?: readonly string[];
    pick?: (item: T, column: string) => unknown;
    onItem?: () => void;
    /** CSV record end (default CRLF, as RFC 4180 says). */
    eol?: '\r\n' | '\n';
  } = {},
): AsyncGenerator<string> {
  const eol = options.eol ?? '\r\n';
  const columns = options.columns ?? ENVELOPE_COLUMNS;
  const pick = options.pick ?? ((item: T, column: string) => valueAt(item, column));
  if (format === 'csv') yield csvRecord(columns, eol);
  if (format === 'json') yield '[';
  let first = true;
  for await (const item of items) {
    options.onItem?.();
    if (format === 'csv')
      yield csvRecord(
        columns.map((c) => pick(item, c)),
        eol,
      );
    else if (format === 'json') yield `${first ? '\n' : ',\n'}${JSON.stringify(item)}`;
    else yield `${JSON.stringify(item)}\n`;
    first = false;
  }
  if (format === 'json') yield first ? ']\n' : '\n]\n';
}
