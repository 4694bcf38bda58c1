/**
 * `docdb section quarantine list | promote ID | drop ID`: the runs a section's expectations refused and
 * quarantined (docs/quarantine.md). list shows each id, its version, the tip it was computed on and its date;
 * promote moves the section onto it with a compare-and-set from that tip (refused, with the reason, when the
 * section moved since) and deletes its ref; drop deletes its ref. On GitHub's API (--refstore api).
 */
import { appendAll } from '../../core/arrays.js';
import {
  assertQuarantineId,
  dropQuarantine,
  listQuarantine,
  promoteQuarantine,
  type QuarantineHost,
} from '../../projection/run/index.js';
import { checkUsage } from '../args.js';
import type { CliCommand } from '../command.js';
import { EXIT, UsageError, withAdvice } from '../io.js';
import { checkStoreFlags, type OpenedStore, openStore, STORE_FLAGS } from '../store-factory.js';
import { short } from './doc-common.js';

const ACTIONS = ['list', 'promote', 'drop'] as const;
type Action = (typeof ACTIONS)[number];

/** The action and its id, checked: `list`, or `promote ID` / `drop ID`. */
function actionOf(positionals: readonly string[]): { action: Action; id?: string } {
  const [action, id] = positionals;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(
      `${action === undefined ? 'an action is required' : `${JSON.stringify(action)} is not an action`}: list, promote ID or drop ID`,
      'ACTION',
    );
  }
  if (action === 'list') {
    if (id !== undefined) throw new UsageError('list takes no id', 'ID');
    return { action };
  }
  if (id === undefined) throw new UsageError(`${action} needs the quarantine id (docdb section quarantine list)`, 'ID');
  try {
    assertQuarantineId(id, 'ID');
  } catch (e) {
    throw new UsageError((e as Error).message, 'ID');
  }
  return { action: action as Action, id };
}

/** The quarantine host on the opened store (GitHub's API store: refs listed, compared and deleted there). */
function hostOf(opened: OpenedStore): QuarantineHost {
  const on = opened.storeOn;
  if (!on) throw new UsageError("section quarantine works on GitHub's API: use --refstore api", '--refstore');
  const section = on(opened.store.ref);
  return {
    section,
    storeOn: on,
    listRefs: (prefix) => section.listRefs(prefix),
    deleteRefs: (refs) => section.deleteRefs(refs),
  };
}

export const quarantine: CliCommand = {
  name: 'section quarantine',
  summary: 'the runs expectations refused: list them, promote one onto the section, or drop one',
  usage: `usage: docdb section quarantine list | promote ID | drop ID [store flags] [--json]

A projection run whose expectations (expect: in the spec) refuse its commit writes nothing to the section;
with quarantine (the spec's quarantine: true, the Action input quarantine, docdb project --quarantine) it
writes that would-be commit to refs/<root>/<section>.quarantine/<ID> instead, branched from the tip it was
computed on (docs/quarantine.md). Compare it with the section in the viewer, then:

  list         every quarantined run: id, version, the section tip it was computed on (base), date
  promote ID   move the section onto it: a compare-and-set from its base, refused (nothing moved) when the
               section has moved since; its quarantine ref is then deleted
  drop ID      delete its quarantine ref

Needs --refstore api (the default) and, for promote and drop, a token that may push (GraphQL updateRefs).
With --json: list prints [{ id, ref, version, base, date, subject }], promote { from, to, ref }, drop { ref, version }.`,
  flags: { ...STORE_FLAGS },
  maxPositionals: 2,
  async run(ctx) {
    const [{ action, id }] = await checkUsage(
      () => actionOf(ctx.positionals),
      () => checkStoreFlags(ctx.values, ctx.io.env),
    );
    const opened = await openStore(ctx.values, ctx.io);
    appendAll(ctx.secrets, opened.secrets);
    try {
      const host = hostOf(opened);
      if (action === 'list') {
        const list = await listQuarantine(host);
        if (ctx.json) ctx.io.stdout(`${JSON.stringify(list)}\n`);
        else if (list.length === 0) ctx.io.stderr(`no quarantined runs for ${opened.where}\n`);
        else {
          for (const q of list) {
            ctx.io.stdout(
              `${q.id}\t${q.version}\tbase ${q.base === undefined ? '(not a quarantine commit)' : short(q.base)}\t${q.date}\n`,
            );
          }
        }
        return EXIT.ok;
      }
      if (action === 'promote') {
        const r = await promoteQuarantine(host, id as string);
        if (ctx.json) ctx.io.stdout(`${JSON.stringify(r)}\n`);
        else {
          ctx.io.stdout(`${r.to}\n`);
          ctx.io.stderr(
            `promoted quarantine ${id}: ${opened.store.ref} moved from ${short(r.from)} to ${short(r.to)}; ${r.ref} deleted\n`,
          );
        }
        return EXIT.ok;
      }
      const r = await dropQuarantine(host, id as string);
      if (ctx.json) ctx.io.stdout(`${JSON.stringify(r)}\n`);
      else ctx.io.stderr(`dropped quarantine ${id} (${r.ref} was at ${short(r.version)})\n`);
      return EXIT.ok;
    } catch (e) {
      throw withAdvice(e, opened.advise?.(e));
    } finally {
      await opened.close();
    }
  },
};
