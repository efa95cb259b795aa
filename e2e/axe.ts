// axe-core in a page of the walk: injected as a script once, run on each route it shows.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string | null | undefined;
  nodes: { html: string; failureSummary?: string }[];
}

/** The walk's options that put axe in its page: as a script, which the page's own Content Security Policy would refuse. */
export const withAxe = {
  context: { bypassCSP: true },
  prepare: async (page: Page) => void (await page.addScriptTag({ path: AXE })),
};

/**
 * The rules whose outcome a page's words decide: names, labels, alternative texts, titles and the
 * language attributes. What a translation can break, and quick enough to run on every route in every
 * language (colour contrast, the slow rule, is the same in all of them).
 */
export const WORDING_RULES = [
  'aria-command-name',
  'aria-dialog-name',
  'aria-input-field-name',
  'aria-meter-name',
  'aria-progressbar-name',
  'aria-toggle-field-name',
  'aria-tooltip-name',
  'button-name',
  'document-title',
  'frame-title',
  'html-has-lang',
  'html-lang-valid',
  'image-alt',
  'input-button-name',
  'input-image-alt',
  'label',
  'link-name',
  'role-img-alt',
  'select-name',
  'summary-name',
  'svg-img-alt',
  'valid-lang',
];

/** The serious and critical violations axe finds in the page (of `rules`, else all), as "where: rule: element why". */
export async function axeViolations(page: Page, where: string, rules?: readonly string[]): Promise<string[]> {
  const seen = await page.evaluate(
    async (only) =>
      (
        await (window as unknown as { axe: { run(ctx: Document, options: object): Promise<{ violations: Violation[] }> } }).axe.run(
          document,
          only ? { runOnly: { type: 'rule', values: only } } : {},
        )
      ).violations,
    rules ?? null,
  );
  return seen
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where}: ${v.id}: ${n.html.slice(0, 120)} ${n.failureSummary ?? ''}`));
}
