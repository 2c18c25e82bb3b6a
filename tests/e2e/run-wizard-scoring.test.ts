/**
 * The wizard's "Advanced: scoring" fold-out: a value outside model/scoring-limits.ts is named and
 * stops the step; the settings are kept across a reload (in the draft's RunSpec); a run started
 * with 5 bins and B = 200 against the loopback mock ends with a report scored with them (its
 * reliability histograms have 5 bins, its header says so). Looked at in both widths and themes,
 * and checked by axe with the fold-out open.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { elementShot, openPage, screenshot, widthAt } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { COLOUR_RULES, seriousViolations } from './axe-check';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';

const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 1 }],
  ['Spain', 'Madrid', { Madrid: 0.8, Barcelona: 0.2 }],
  ['Italy', 'Rome', { Milan: 0.6, Rome: 0.4 }],
  ['Japan', 'Tokyo', { Tokyo: 0.9, Kyoto: 0.1 }],
  ['Canada', 'Ottawa', { Toronto: 0.5, Ottawa: 0.3, Montreal: 0.2 }],
  ['Australia', 'Canberra', { Sydney: 0.55, Canberra: 0.45 }],
];

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: 'mock-key', latencyMs: 5, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

/** Opens the fold-out, tries a value out of range, then sets 5 bins and B = 200; looks at it in both widths and themes. */
async function setScoring(page: Page): Promise<void> {
  const fold = page.getByTestId('scoring-advanced');
  expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  await fold.getByText('Advanced: scoring').click();
  expect(await page.getByLabel('Bins of the ECE').inputValue()).toBe('10');
  expect(await page.getByLabel('Bootstrap replicates (B)').inputValue()).toBe('1000');

  await page.getByLabel('Bins of the ECE').fill('5000');
  await page.getByLabel('Bootstrap replicates (B)').fill('0');
  await page.getByRole('listitem').filter({ hasText: 'Bins of the ECE: expected a whole number from 1 to 1,000, got 5000.' }).waitFor();
  await page.getByRole('listitem').filter({ hasText: 'Bootstrap replicates (B): expected a whole number from 1 to 100,000, got 0.' }).waitFor();
  expect(await page.getByLabel('Bins of the ECE').getAttribute('aria-invalid')).toBe('true');
  expect(await page.getByRole('button', { name: /^Next:/ }).isDisabled()).toBe(true);
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      if (width === 390) expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
      await elementShot(fold, `wizard-scoring-invalid-${width}-${scheme}`);
      // Dark follows light at each width: its pass runs the colour rules (COLOUR_RULES).
      expect(await seriousViolations(page, scheme === 'dark' ? COLOUR_RULES : undefined), `${width} px ${scheme}`).toEqual([]);
    }
  }

  await page.getByLabel('Bins of the ECE').fill('5');
  await page.getByLabel('Bootstrap replicates (B)').fill('200');
  expect(await page.getByLabel('Bins of the ECE').getAttribute('aria-invalid')).toBe('false');
  expect(await page.getByRole('button', { name: /^Next:/ }).isEnabled()).toBe(true);
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await elementShot(fold, `wizard-scoring-${width}-${scheme}`);
      // Dark follows light at each width: its pass runs the colour rules (COLOUR_RULES).
      expect(await seriousViolations(page, scheme === 'dark' ? COLOUR_RULES : undefined), `${width} px ${scheme}`).toEqual([]);
    }
  }
  await screenshot(page, 'wizard-scoring-step-390-dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });

  // A reload keeps them (the remembered key too): the fold-out opens by itself, since they are not the paper's.
  await page.reload();
  await page.getByRole('heading', { name: /^Step 3 of 4/ }).waitFor();
  expect(await fold.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
  expect(await page.getByLabel('Bins of the ECE').inputValue()).toBe('5');
  expect(await page.getByLabel('Bootstrap replicates (B)').inputValue()).toBe('200');
  expect(await page.getByLabel('Sem2 splits (R)').inputValue()).toBe('10');
  // The Review says what the report will be scored with.
  await page.getByRole('button', { name: /^Next:/ }).click();
  await page.getByRole('heading', { name: /^Step 4 of 4/ }).waitFor();
  expect(await page.getByTestId('scoring-review').textContent()).toBe('Scoring: Sem2 R = 10 (seed 0), 5 bins, bootstrap B = 200 (seed 7).');
  await page.getByRole('button', { name: /^Back/ }).click();
  await page.getByRole('heading', { name: /^Step 3 of 4/ }).waitFor();
}

test('scoring set in the wizard\'s fold-out is checked, kept across a reload, and the run\'s report is scored with it', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const runId = await startRunThroughWizard(page, inject('appUrl'), {
    file: { name: 'capitals.csv', text: capitalsCsv(CAPITALS) },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    remember: true,
    n: 8,
    concurrency: 4,
    atSettings: setScoring,
  });
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.waitForURL(new RegExp(`#/report/${runId}`));
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  // The document records the settings the scorer used: the run's, not the paper's.
  expect(await page.locator('p.meta').textContent()).toMatch(/Sem2: R = 10, seed 0 · 5 bins · bootstrap B = 200\s*$/);
  // Each reliability diagram's histogram has one bar per bin the report was scored with.
  const chart = page.locator('[data-chart="reliability"]').first();
  await chart.locator('rect.hist-bar').first().waitFor({ state: 'attached' });
  expect(await chart.locator('rect.hist-bar').count()).toBe(5);
  expect(await page.locator('[data-control="binning"] option[value="width"]').textContent()).toBe('5 equal-width');
  expect(await page.getByText(/^Sem1 ECE .* \(5 equal-width bins, 6 questions\)$/).count()).toBe(1);
  expect(await page.getByText(/over 5 equal-width confidence bins/).count()).toBeGreaterThan(0);
  expect(await page.getByText(/the paper's 10 confidence bins/).count()).toBe(0);
  await screenshot(page, 'wizard-scoring-report');
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
