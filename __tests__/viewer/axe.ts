/**
 * axe-core inside a viewer page (issue 40): the serious and critical violations it finds, each as one line.
 * Shared by the accessibility walk (a11y.test.ts) and the views tested on their own (search.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

let axeSource: Promise<string> | undefined;

interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Run axe-core in the page. Evaluated over the DevTools protocol rather than added as a `<script>`: the
 * viewer's Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
 */
export async function axeFindings(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(await axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeFinding[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
