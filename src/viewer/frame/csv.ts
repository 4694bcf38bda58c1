/**
 * A hand-written CSV reader (RFC 4180, https://www.rfc-editor.org/rfc/rfc4180): fields separated by
 * commas, records by CRLF (LF alone accepted too); a field in double quotes may hold commas, line breaks
 * and `""` for one quote. A quote inside an unquoted field, or an unterminated quoted field, is not CSV:
 * the reader says where.
 */

export interface CsvResult {
  /** Records read (at most `maxRows`), each a list of fields. */
  rows: string[][];
  /** True when the text holds more records than `maxRows`. */
  truncated: boolean;
}

/** Text that is not CSV, with the 1-based line where reading stopped. */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Read CSV text into records (a trailing line break does not add an empty record).
 *
 * @example
 * parseCsv('name,note\r\nada,"a, b"\r\n').rows // [['name', 'note'], ['ada', 'a, b']]
 */
export function parseCsv(text: string, maxRows = Number.POSITIVE_INFINITY): CsvResult {
  const rows: string[][] = [];
  let record: string[] = [];
  let field = '';
  let line = 1;
  let i = 0;
  const endRecord = () => {
    record.push(field);
    rows.push(record);
    record = [];
    field = '';
  };
  while (i < text.length) {
    if (rows.length > maxRows) break;
    const c = text[i] as string;
    if (c === '"') {
      if (field !== '') throw new CsvSyntaxError(line, 'a quote inside an unquoted field (quote the whole field)');
      i = readQuoted(text, i + 1, (value, lines) => {
        field = value;
        line += lines;
      });
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvSyntaxError(line, 'text after a closing quote (a field is quoted whole, or not at all)');
      }
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
    } else field += c;
    i++;
  }
  if (field !== '' || record.length > 0) endRecord();
  const truncated = rows.length > maxRows;
  return { rows: truncated ? rows.slice(0, maxRows) : rows, truncated };
}

/** A quoted field from just after its opening quote; returns the index after its closing quote. */
function readQuoted(text: string, start: number, done: (value: string, lines: number) => void): number {
  let value = '';
  let lines = 0;
  let i = start;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) throw new CsvSyntaxError(lineAt(text, start), 'a quoted field is never closed');
    value += text.slice(i, q);
    if (text[q + 1] === '"') {
      value += '"';
      i = q + 2;
      continue;
    }
    for (const ch of value) if (ch === '\n') lines++;
    done(value, lines);
    return q + 1;
  }
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text[i] === '\n') n++;
  return n;
}
