/**
 * The table of bench/results/secondary-limits.json (bench/secondary-limits.ts): the markdown file next to
 * it and the docs' `<!-- bench:secondary-limits -->` figure are rendered by this one function.
 */

/** bench/results/secondary-limits.json. */
export interface SecondaryLimitsFile {
  date: string;
  quick: boolean;
  library: {
    writers: number;
    putsEach: number;
    landed: number;
    of: number;
    lost: number;
    typedFailures: Record<string, number>;
    failuresNotDefinite: number;
    failedValuesInSection: number;
    secondaryLimitAnswers: number;
    insideRetryAfter: number;
    contentCreating: number;
    virtualMinutes: number;
  };
  action: {
    runs: number;
    landed: number;
    failedTyped: number;
    failedDefinite: number;
    secondaryLimitAnswers: number;
    requestsSentBeforeTheirRetryAfter: number;
    insideRetryAfter: number;
    contentCreating: number;
    virtualMinutes: number;
  };
  firstWrite: {
    documents: number;
    landed: number;
    requests: number;
    contentCreating: number;
    secondaryLimitAnswers: number;
    virtualSeconds: number;
  };
}

/**
 * @example
 * secondaryLimitsTable(JSON.parse(readFileSync('bench/results/secondary-limits.json', 'utf8')));
 */
export function secondaryLimitsTable(r: Pick<SecondaryLimitsFile, 'library' | 'action' | 'firstWrite'>): string {
  const l = r.library;
  const a = r.action;
  const f = r.firstWrite;
  const typed = Object.entries(l.typedFailures)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  return [
    `| scenario (emulator's secondary limits on, GitHub's figures, virtual clock) | result |`,
    '|---|---|',
    `| ${l.writers} library writers × ${l.putsEach} puts, one section, one token (a failed put retried after its \`retryAt\`) | ${l.landed}/${l.of} land, ${l.lost} lost; typed failures on the way: ${typed || 'none'} (${l.failuresNotDefinite} not definite, ${l.failedValuesInSection} failed values in the section); ${l.secondaryLimitAnswers} secondary-limit answers; **${l.insideRetryAfter} requests inside a retry-after window**; ${l.contentCreating} content-creating requests in ${l.virtualMinutes} virtual minutes |`,
    `| ${a.runs} concurrent Action runs, direct mode, one section | ${a.landed}/${a.runs} land, ${a.runs - a.landed} fail (${a.failedTyped} typed, ${a.failedDefinite} with nothing written); ${a.secondaryLimitAnswers} secondary-limit answers; **${a.requestsSentBeforeTheirRetryAfter} requests sent before their run's retry-after** (${a.insideRetryAfter} inside another run's); ${a.contentCreating} content-creating requests in ${a.virtualMinutes} virtual minutes |`,
    `| a single ${f.documents.toLocaleString('en-US')}-document first write (one mutating request a second) | ${f.landed.toLocaleString('en-US')} documents in **${f.requests} requests** (${f.contentCreating} content-creating), **${f.secondaryLimitAnswers} secondary-limit answers**, ${f.virtualSeconds} virtual seconds |`,
  ].join('\n');
}
