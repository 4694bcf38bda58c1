/**
 * The inputs of `mode: migrate` (action.yml, docs/migrations.md): `operations`, a YAML list whose items are
 * the CLI's flags as one-key maps (`- rename: data.a=data.b`, `- cast: data.n=number`, `- move-type: ns/t`)
 * or the library's objects (`- { op: set, field: data.x, value: 1 }`), applied in order; `dry-run`; `schema`
 * (a JSON file in the workspace). Read and checked with the other inputs, before any request.
 */
import { parse as parseYaml } from 'yaml';
import { InvalidConfig } from '../core/errors.js';
import type { InputNames } from '../core/input-names.js';
import {
  assertOperations,
  type MigrationOperation,
  OPERATION_NAMES,
  parseOperation,
} from '../document/migrate/index.js';

export interface MigrateInputs {
  /** Parsed from their text forms; the library checks them all (`assertOperations`) when it runs. */
  operations: MigrationOperation[];
  dryRun: boolean;
  /** Path of a JSON Schema file in the workspace, declared for the (new) type in the same commit. */
  schema?: string;
}

/** The inputs only `mode: migrate` reads. */
export const MIGRATE_INPUTS = ['operations', 'dry-run', 'schema'] as const;

/**
 * The migrate inputs: for `mode: migrate` the parsed operations and options; for any other mode, undefined —
 * and a migrate input set there is `InvalidConfig` naming it (it would be silently ignored).
 *
 * @example
 * readMigrateInputs((n) => ({ operations: '- rename: data.a=data.b' })[n] ?? '', 'migrate', ACTION_INPUT_NAMES);
 * // { operations: [{ op: 'rename', from: 'data.a', to: 'data.b' }], dryRun: false }
 */
export function readMigrateInputs(
  get: (name: string) => string,
  mode: string,
  names: InputNames,
): MigrateInputs | undefined {
  const bad = (field: string, message: string, allowed?: string): never => {
    throw new InvalidConfig(field, `${names.label(field)}: ${message}`, allowed ? { allowed } : {});
  };
  if (mode !== 'migrate') {
    const set = MIGRATE_INPUTS.find((n) => get(n) !== '' && !(n === 'dry-run' && get(n) === 'false'));
    if (set !== undefined) bad(set, `only applies to mode: migrate (mode is ${mode})`);
    return undefined;
  }
  const dryText = get('dry-run') || 'false';
  if (dryText !== 'true' && dryText !== 'false')
    bad('dry-run', `${JSON.stringify(dryText)} must be true or false`, 'true, false');
  const schema = get('schema');
  const operations = operationsInput(get('operations'), bad);
  checkOperations(operations, get('namespace'), get('type'), bad);
  return {
    operations,
    dryRun: dryText === 'true',
    ...(schema ? { schema } : {}),
  };
}

type Bad = (field: string, message: string, allowed?: string) => never;
const ITEM = `a one-key map: ${OPERATION_NAMES.map((n) => `${n}: …`).join(', ')} (or { op, … } as the library takes it)`;

/** The YAML list of operations, each item in its text form or as the library's object. */
function operationsInput(text: string, bad: Bad): MigrationOperation[] {
  if (!text.trim())
    bad('operations', 'is required with mode: migrate (a YAML list, e.g. "- rename: data.a=data.b")', ITEM);
  let list: unknown;
  try {
    list = parseYaml(text);
  } catch (e) {
    bad('operations', `is not YAML: ${(e as Error).message.split('\n')[0]}`, 'a YAML list');
  }
  if (!Array.isArray(list)) bad('operations', 'must be a YAML list ("- rename: data.a=data.b" per line)', ITEM);
  return (list as unknown[]).map((item, i) => {
    const where = `operations[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return bad('operations', `item ${i + 1} is not a map`, ITEM);
    if ('op' in item) return item as MigrationOperation;
    const entries = Object.entries(item);
    const [name, value] = entries[0] ?? [];
    if (entries.length !== 1 || !OPERATION_NAMES.includes(name as (typeof OPERATION_NAMES)[number])) {
      return bad('operations', `item ${i + 1} (${JSON.stringify(item)}) is not one operation`, ITEM);
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      return bad('operations', `item ${i + 1}: ${name} takes text, e.g. ${name}: data.a=data.b`, ITEM);
    }
    try {
      return parseOperation(name as string, String(value), where);
    } catch (e) {
      if (e instanceof InvalidConfig)
        bad(
          'operations',
          `item ${i + 1}: ${e.message.replace(/^operations\[\d+\]: /, '')}`,
          String(e.data.allowed ?? ''),
        );
      throw e;
    }
  });
}

/** The library's checks of the whole list (before any request), named as the input and the item. */
function checkOperations(operations: MigrationOperation[], namespace: string, type: string, bad: Bad): void {
  if (!namespace || !type) return; // named by the mode's required inputs
  try {
    assertOperations(operations, { namespace, type });
  } catch (e) {
    if (!(e instanceof InvalidConfig)) throw e;
    const at = /^operations\[(\d+)\]/.exec(String(e.data.field ?? ''));
    const why = e.message.replace(/^operations(\[\d+\])?(\.\w+)?: /, '');
    bad('operations', at ? `item ${Number(at[1]) + 1}: ${why}` : why, String(e.data.allowed ?? ''));
  }
}
