/**
 * Adaptive sampling through the app (issue 27): the wizard's Adaptive choice and its budget
 * planner on the Settings step, a run against the loopback mock with questions whose answers all
 * agree and questions split between answers, and its report: the Samples spent tab's histogram
 * (the agreeing questions stop at the rule's settled size, the split ones go on to the maximum),
 * the next run planned from its first rounds, and a question's rounds in the drill-down. Looked at in both widths and themes, checked by axe.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { elementShot, openPage, screenshot, widthAt } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { COLOUR_RULES, seriousViolations } from './axe-check';
import { capitalsCsv, capitalsMockQuestions, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import type { MockProviderServer } from '../mock/provider-server';
import { DEFAULT_ADAPTIVE_RULE } from '../../src/core/adaptive-rule';

// Three questions every sample agrees on, three split evenly enough that five samples disagree.
const CAPITALS: Capital[] = [
  ['France', 'Paris', { Paris: 1 }],
  ['Japan', 'Tokyo', { Tokyo: 1 }],
  ['Spain', 'Madrid', { Madrid: 1 }],
  ['Italy', 'Rome', { Milan: 0.34, Rome: 0.33, Turin: 0.33 }],
  ['Canada', 'Ottawa', { Toronto: 0.34, Ottawa: 0.33, Montreal: 0.33 }],
  ['Australia', 'Canberra', { Sydney: 0.34, Canberra: 0.33, Melbourne: 0.33 }],
];
const MAX = 30;
const SETTLED = DEFAULT_ADAPTIVE_RULE.firstRound + DEFAULT_ADAPTIVE_RULE.settledHeldOut;

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: 'mock-key', latencyMs: 5, questions: capitalsMockQuestions(CAPITALS) }));
});
afterAll(() => closeWithMock(browser, mock));

async function looks(page: Page, locator: ReturnType<Page['locator']>, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      if (width === 390) expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
      await elementShot(locator, `${name}-${width}-${scheme}`);
      // Dark follows light at each width: its pass runs the colour rules (COLOUR_RULES).
      expect(await seriousViolations(page, scheme === 'dark' ? COLOUR_RULES : undefined), `${name} ${width} px ${scheme}`).toEqual([]);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Chooses Adaptive, sees the rule's fields and the planner's options. */
async function chooseAdaptive(page: Page): Promise<void> {
  await page.locator('[data-control="adaptive"]').check();
  await page.getByTestId('adaptive-settings').waitFor();
  await page.getByLabel('Most samples per question (n)').fill(String(MAX));
  expect(await page.getByLabel('First round (samples)').inputValue()).toBe(String(DEFAULT_ADAPTIVE_RULE.firstRound));
  // The planner, opened: a budget of samples, and one row per option with its interval.
  await page.getByTestId('budget-planner').getByText('Plan for a budget').click();
  await page.getByLabel('Budget in', { exact: true }).selectOption('samples');
  await page.getByLabel('Budget in samples').fill('20000');
  const rows = page.getByTestId('budget-planner').locator('tbody tr');
  await page.getByTestId('budget-planner').locator('table[aria-busy="false"]').waitFor({ timeout: 60_000 });
  expect(await page.getByTestId('budget-sentence').textContent()).toMatch(/^With 20,000 samples: [\d,]+ questions × 30, or [\d,]+ questions adaptive; Sem2-ECE interval ±0\.\d{3} vs ±0\.\d{3}\.$/);
  // Fixed 10, 20 and 30, and adaptive.
  expect(await rows.count()).toBe(4);
  expect(await page.getByTestId('budget-planner').locator('tr[data-option="adaptive"]').count()).toBe(1);
  await looks(page, page.locator('fieldset').first(), 'wizard-adaptive');
}

test('an adaptive run chosen in the wizard: agreeing questions stop early, split ones reach the maximum; the report shows what was spent and each question\'s rounds', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const runId = await startRunThroughWizard(page, inject('appUrl'), {
    file: { name: 'capitals.csv', text: capitalsCsv(CAPITALS) },
    baseUrl: `${mock.url}/v1`,
    model: 'gpt-4o-mini',
    key: 'mock-key',
    n: MAX,
    concurrency: 4,
    atSettings: chooseAdaptive,
  });
  await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 60_000 });
  expect(await page.locator('main').innerText()).not.toMatch(/The run stopped/);
  await page.getByRole('link', { name: 'Open the report' }).click();
  await page.waitForURL(new RegExp(`#/report/${runId}`));
  await page.locator('[data-report]').waitFor({ timeout: 60_000 });
  expect(await page.locator('p.meta').first().textContent()).toContain(`adaptive sampling, at most ${MAX} samples per question`);
  expect(await page.locator('[data-adaptive-note]').textContent()).toContain('Sem1 is computed on that variable n');

  await page.getByRole('tab', { name: 'Samples spent' }).click();
  const chart = page.locator('[data-chart="samples-histogram"]');
  await chart.locator('rect.spend-bar').first().waitFor({ state: 'attached' });
  const bars = await chart.locator('rect.spend-bar').evaluateAll((els) => els.map((e) => ({ lo: Number(e.getAttribute('data-lo')), count: Number(e.getAttribute('data-count')) })));
  // The three agreeing questions drew the settled size; the split ones the maximum.
  expect(bars.filter((b) => b.count > 0)).toEqual([
    { lo: SETTLED, count: 3 },
    { lo: MAX, count: 3 },
  ]);
  const saved = 3 * (MAX - SETTLED);
  expect(await page.locator('[data-saved]').getAttribute('data-saved')).toBe(String(saved));
  expect(await page.locator('[data-adaptive-rule]').textContent()).toContain(`at most ${MAX} samples per question`);
  // The next run planned from this one's first rounds: one row per option.
  await page.getByText("Plan the next run from these questions' first rounds").click();
  const rerun = page.getByTestId('rerun-planner');
  await rerun.locator('table[aria-busy="false"]').waitFor({ timeout: 60_000 });
  expect(await rerun.locator('tbody tr').count()).toBe(4);
  await looks(page, page.locator('[data-panel="adaptive-spend"]'), 'report-adaptive-spend');

  // France's drill-down: its selection round and its held-out block, replayed from its answers.
  await page.getByRole('tab', { name: 'Questions' }).click();
  await page.getByRole('button', { name: 'Open question c1' }).click();
  const rounds = page.locator('[data-rounds]');
  await rounds.waitFor();
  expect(await rounds.getAttribute('data-rounds')).toBe('replayed');
  expect(await rounds.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-round-phase')))).toEqual(['selection', 'held-out']);
  expect(await rounds.locator('li').last().textContent()).toContain(`samples ${DEFAULT_ADAPTIVE_RULE.firstRound + 1}–${SETTLED}`);
  await screenshot(page, 'report-adaptive-rounds');
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
