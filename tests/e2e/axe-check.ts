/** axe-core's check of a page as it is now, for the page tour (page-checks.test.ts). */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, injected into each page (it is a devDependency, never shipped). */
const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * The axe rules whose result depends on the page's colours: all that can change when only the
 * colour scheme does (the theme is CSS custom properties; the markup, names, roles and sizes stay).
 * A page audited in full in one scheme and then switched to the other where it stands needs only
 * these: every other rule would see the markup it was checked on.
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe-core loaded into the page as it is now, unless it is there already. */
export async function loadAxe(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_PATH });
}

/**
 * axe's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules, and
 * best practices), or only those of `rules`.
 */
export async function seriousViolations(page: Page, rules?: readonly string[]): Promise<Finding[]> {
  await loadAxe(page);
  return page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'], ...(only ? { runOnly: { type: 'rule', values: only } } : {}) });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  }, rules ? [...rules] : null);
}
