/**
 * The retention benchmark's results file (bench/results/retention.json) and its Markdown tables: the sizes
 * a year of hourly runs leaves with each policy, how each figure was obtained, and the samples behind it.
 */
import type { HistorySize } from './retention-import.js';
import { POLICIES } from './retention-model.js';

/** One measured history (a sample): its year length in hourly runs and what was measured. */
export type Sample = HistorySize & {
  commits: number;
  /** The history measured: the row's policy, or a part of it (method composed). */
  part?: string;
};

/** One (documents, churn, policy) figure. */
export interface RetentionRow {
  docs: number;
  churn: number;
  policy: string;
  label: string;
  /**
   * measured at the full year; extrapolated from two shorter years; composed of parts measured (or
   * extrapolated) on their own; too large to generate here.
   */
  method: 'measured' | 'extrapolated' | 'composed' | 'too-large';
  /** The run's --max-blobs: more expected document versions than this are not generated at full size. */
  maxBlobs: number;
  /** Packed size at the full year in bytes (null: too large, see `estimate`). */
  packBytes: number | null;
  samples: Sample[];
  /** --check: the same figure extrapolated from two shorter years, to compare with the measurement. */
  check?: { packBytes: number; samples: Sample[] };
  /** A too-large figure estimated from a smaller section (see {@link estimateTooLarge}). */
  estimate?: { packBytes: number; from: string };
}

/** bench/results/retention.json. */
export interface RetentionFile {
  date: string;
  git: string;
  node: string;
  quick: boolean;
  /** Hourly runs in the simulated year. */
  commits: number;
  perDir: number;
  seed: number;
  rows: RetentionRow[];
}

/**
 * Fill in a too-large figure (documents D, churn c, policy p) from a smaller section d generated with the
 * same policy and churn: size(d, c, p) × the growth from d to D documents of a history generated at both
 * sizes (the same policy at another churn, else no retention at c, else no retention at another churn).
 * Only generated figures are used, never another estimate; the result is labelled wherever it is shown.
 *
 * @example
 * estimateTooLarge(file.rows); // the 100,000-document, 10 % churn rows get `estimate`
 */
export function estimateTooLarge(rows: RetentionRow[]): void {
  const bytes = (docs: number, churn: number, policy: string) =>
    rows.find((r) => r.docs === docs && r.churn === churn && r.policy === policy)?.packBytes ?? undefined;
  const churns = [...new Set(rows.map((r) => r.churn))];
  const sizes = [...new Set(rows.map((r) => r.docs))].sort((x, y) => y - x);
  for (const r of rows) {
    if (r.packBytes !== null) continue;
    const others = churns.filter((c) => c !== r.churn);
    const refs = [
      ...others.map((c) => ({ c, p: r.policy })),
      { c: r.churn, p: 'none' },
      ...others.map((c) => ({ c, p: 'none' })),
    ].filter((x) => x.p !== r.policy || x.c !== r.churn);
    for (const d of sizes.filter((n) => n < r.docs)) {
      const base = bytes(d, r.churn, r.policy);
      const ref = refs.find(({ c, p }) => bytes(r.docs, c, p) && bytes(d, c, p));
      if (base === undefined || !ref) continue;
      const growth = (bytes(r.docs, ref.c, ref.p) as number) / (bytes(d, ref.c, ref.p) as number);
      const what = ref.p === r.policy ? `this policy at ${pct(ref.c)} churn` : `no retention at ${pct(ref.c)} churn`;
      r.estimate = {
        packBytes: base * growth,
        from: `${num(d)} documents (same policy and churn) × ${growth.toFixed(2)}, the growth from ${num(d)} to ${num(r.docs)} documents of ${what}`,
      };
      break;
    }
  }
}

const pct = (x: number) => `${Number((x * 100).toFixed(1))} %`;
const num = (n: number) => n.toLocaleString('en-US');

/**
 * A size as people read it (MB/GB, decimal, as GitHub's repository size guidance is written).
 *
 * @example
 * size(47_000_000); // '47 MB'
 */
export function size(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(bytes >= 1e10 ? 0 : 1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  return `${Math.round(bytes / 1e3)} KB`;
}

const SAMPLES_NOTE =
  'Every history generated. "policy: part" is a part of a composed figure; a sample measured once is listed ' +
  'under each figure it serves. Import and repack are wall times on a machine shared with other work: noisy.';

const MARK = { measured: '', extrapolated: ' ᵉ', composed: ' ᶜ', 'too-large': ' ˢ' } as const;

function cell(r: RetentionRow | undefined, none: number | undefined): string {
  if (!r) return '';
  const bytes = r.packBytes ?? r.estimate?.packBytes;
  if (bytes === undefined) return 'not run';
  const share = none && r.policy !== 'none' ? ` (${pct(bytes / none)})` : '';
  return `${size(bytes)}${share}${MARK[r.method]}`;
}

/** The main table: one line per (documents, churn), one column per policy. */
export function sizesTable(f: RetentionFile): string[] {
  const policies = POLICIES.filter((p) => f.rows.some((r) => r.policy === p.name));
  const cases = [...new Map(f.rows.map((r) => [`${r.docs}/${r.churn}`, r])).values()];
  const lines = [
    `| documents | churn per run | ${policies.map((p) => p.label).join(' | ')} |`,
    `|---:|---:|${policies.map(() => '---:').join('|')}|`,
  ];
  for (const c of cases) {
    const of = (policy: string) => f.rows.find((r) => r.docs === c.docs && r.churn === c.churn && r.policy === policy);
    const none = of('none');
    const noneBytes = none?.packBytes ?? none?.estimate?.packBytes;
    lines.push(
      `| ${num(c.docs)} | ${pct(c.churn)} | ${policies.map((p) => cell(of(p.name), noneBytes)).join(' | ')} |`,
    );
  }
  return lines;
}

/** Every sample behind the figures, for anyone checking the method. */
function samplesTable(f: RetentionFile): string[] {
  const lines = [
    '| documents | churn | policy | hourly runs | commits kept | blobs | objects | packed | import | repack |',
    '|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of f.rows) {
    const tagged = [
      ...r.samples.map((s) => ({ s, tag: '' })),
      ...(r.check?.samples ?? []).map((s) => ({ s, tag: ' (check)' })),
    ];
    for (const { s, tag } of tagged) {
      const what = s.part && s.part !== r.policy ? `${r.policy}: ${s.part}` : r.policy;
      lines.push(
        `| ${num(r.docs)} | ${pct(r.churn)} | ${what}${tag} | ${num(s.commits)} | ${num(s.commitsKept)} | ${num(s.blobs)} | ${num(s.objects)} | ${size(s.packBytes)} | ${Math.round(s.importMs / 1000)} s | ${Math.round(s.repackMs / 1000)} s |`,
      );
    }
  }
  return lines;
}

function notes(f: RetentionFile): string[] {
  const out: string[] = [];
  for (const r of f.rows) {
    if (r.check && r.packBytes) {
      const err = (r.check.packBytes - r.packBytes) / r.packBytes;
      out.push(
        `- Check of the extrapolation, ${num(r.docs)} documents, ${pct(r.churn)}, ${r.policy}: from ${r.check.samples.map((s) => num(s.commits)).join(' and ')} hourly runs it predicts ${size(r.check.packBytes)}; measured ${size(r.packBytes)} (${err >= 0 ? '+' : ''}${(err * 100).toFixed(1)} %).`,
      );
    }
    if (r.estimate)
      out.push(`- ˢ ${num(r.docs)} documents, ${pct(r.churn)}, ${r.policy}: estimated from ${r.estimate.from}.`);
  }
  return out;
}

/**
 * The Markdown of bench/results/retention.md.
 *
 * @example
 * writeFileSync('bench/results/retention.md', retentionTable(file));
 */
export function retentionTable(f: RetentionFile): string {
  const head =
    `A year of hourly runs (${num(f.commits)} commits) on one section, documents of ~0.6 KB (canonical envelopes at ` +
    `\`github/repo/<owner>/<name>.json\`, ${f.perDir} per owner), generated with \`git fast-import\`, repacked with ` +
    '`git repack -adf`, size-pack of `git count-objects -v`. A retention policy keeps one root commit with the tree ' +
    `of the oldest kept state and the kept commits re-created on it. Seeded data (seed ${f.seed}); ${f.git}, ` +
    `${f.date.slice(0, 10)}${f.quick ? '; QUICK run (small section, short year)' : ''}. Method: docs/retention-sizes.md.`;
  const legend =
    `ᵉ extrapolated linearly to ${num(f.commits)} hourly runs from two shorter years (the full year has more ` +
    'document versions than the run allowed, --max-blobs: too heavy for this machine); ˢ estimated from the smaller ' +
    'section (see the notes); ᶜ composed of its parts, each measured or extrapolated on its own: the last hourly ' +
    'commits, plus the thinned commits alone, less one full state (see the samples). ' +
    'Without a mark: measured at full size. Percentages: share of no retention.';
  return [
    head,
    '',
    ...sizesTable(f),
    '',
    legend,
    '',
    ...notes(f),
    '',
    '### Samples',
    '',
    SAMPLES_NOTE,
    '',
    ...samplesTable(f),
    '',
  ].join('\n');
}
