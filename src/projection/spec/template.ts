/**
 * Identity id templates: `{owner}/{name}`, `{repo}#{number}`, `{repo}@{tag}`. A template is literal
 * text with `{variable}` placeholders; the variables a template may use depend on the source
 * (see {@link SOURCE_VARIABLES}). `{{` and `}}` stand for literal braces.
 */

export type TemplatePart = { literal: string } | { variable: string };

/**
 * A template that failed to parse; `offset` is the character position of the problem.
 *
 * @example
 * try { parseTemplate('{repo'); } catch (e) { if (e instanceof TemplateError) console.log(e.offset); } // 0
 */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}

const VAR_RE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_$-]+)*$/;

/**
 * `{item.<path>}`: a field of the source item, e.g. `{item.id}` or `{item.head_commit.id}`.
 *
 * @example
 * isItemVariable('item.head_commit.id'); // true
 */
export function isItemVariable(name: string): boolean {
  return name.startsWith('item.') && name.length > 5;
}

/**
 * The value at a dotted path (`a.b.0.c`) inside a JSON value, or undefined.
 *
 * @example
 * valueAt({ run: { id: 7 } }, 'run.id'); // 7
 */
export function valueAt(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * Template variables for one item: the source's own `vars` plus every `{item.<path>}` the template uses,
 * read from the item (strings, numbers and booleans only; anything else has no value).
 *
 * @example
 * itemVariables(parseTemplate('{item.run.id}'), { repo: 'o/r' }, { run: { id: 7 } }); // { repo: 'o/r', 'item.run.id': 7 }
 */
export function itemVariables(
  parts: readonly TemplatePart[],
  vars: Readonly<Record<string, string | number>>,
  item: unknown,
): Record<string, string | number | undefined> {
  const out: Record<string, string | number | undefined> = { ...vars };
  for (const p of parts) {
    if (!('variable' in p) || !isItemVariable(p.variable)) continue;
    const v = valueAt(item, p.variable.slice(5));
    out[p.variable] =
      typeof v === 'string' || typeof v === 'number' ? v : typeof v === 'boolean' ? String(v) : undefined;
  }
  return out;
}

/**
 * Split a template into literal and variable parts.
 *
 * @example
 * parseTemplate('{repo}#{number}'); // [{variable:'repo'},{literal:'#'},{variable:'number'}]
 */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === '{' && template[i + 1] === '{') {
      literal += '{';
      i += 2;
    } else if (ch === '}' && template[i + 1] === '}') {
      literal += '}';
      i += 2;
    } else if (ch === '{') {
      const end = template.indexOf('}', i + 1);
      if (end < 0) throw new TemplateError(`unclosed "{" at character ${i + 1}`, i);
      const name = template.slice(i + 1, end).trim();
      if (!VAR_RE.test(name)) {
        throw new TemplateError(
          `"{${template.slice(i + 1, end)}}" is not a variable name (letters, digits, _; or item.<field>)`,
          i,
        );
      }
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ variable: name });
      i = end + 1;
    } else if (ch === '}') {
      throw new TemplateError(`unmatched "}" at character ${i + 1} (write "}}" for a literal brace)`, i);
    } else {
      literal += ch;
      i++;
    }
  }
  if (literal) parts.push({ literal });
  return parts;
}

/**
 * Variable names a template uses, in order of first use.
 *
 * @example
 * templateVariables('{repo}#{number}'); // ['repo', 'number']
 */
export function templateVariables(template: string): string[] {
  const out: string[] = [];
  for (const p of parseTemplate(template)) if ('variable' in p && !out.includes(p.variable)) out.push(p.variable);
  return out;
}

/**
 * Fill a template. Throws when a variable has no value (the spec validator prevents this for
 * built-in sources).
 *
 * @example
 * renderTemplate('{owner}/{name}', { owner: 'octo', name: 'hello' }); // 'octo/hello'
 */
export function renderTemplate(
  template: string | TemplatePart[],
  vars: Readonly<Record<string, string | number | undefined | null>>,
): string {
  const parts = typeof template === 'string' ? parseTemplate(template) : template;
  let out = '';
  for (const p of parts) {
    if ('literal' in p) out += p.literal;
    else {
      const v = vars[p.variable];
      if (v === undefined || v === null || v === '') {
        throw new TemplateError(`template variable {${p.variable}} has no value for this item`, 0);
      }
      out += String(v);
    }
  }
  return out;
}
