// axe-core over every Studio page (issue 33): no serious or critical violation of WCAG 2 A/AA
// rules, in the light scheme and the dark one (colour contrast differs). axe's script is evaluated
// through the DevTools protocol, so the page's strict CSP stays as it is served.
import axe from 'axe-core';
import type { Page } from 'playwright-core';

export interface PageVisit {
  /** A name for the report. */
  name: string;
  /** Goes to the page and resolves once it shows its content (not its loading state). */
  open: (page: Page) => Promise<void>;
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The serious and critical violations axe finds on the page as it is now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Violation[] }> } }).axe.run;
    const result = await run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${v.id} (${v.impact}): ${v.help} at ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
        ),
    );
}

/** Visits each page in both colour schemes; returns every serious violation, prefixed by page and scheme. */
export async function checkAccessibility(page: Page, visits: PageVisit[]): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const visit of visits) {
      await visit.open(page);
      for (const v of await seriousViolations(page)) found.push(`${visit.name} [${scheme}]: ${v}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
