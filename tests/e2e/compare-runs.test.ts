/**
 * Compare from the Runs list on two real app runs: the wizard runs twice against the loopback
 * mock, once with a calibrated model (gold with p = 0.9, stated confidence 90) and once with an
 * overconfident one (gold with p = 0.55, stated 95), on the same questions; the Runs list's
 * "Compare selected" opens the Compare page on both. Known from the mock's distributions: with
 * n = 5 the calibrated run's accuracy is P(Bin(5, 0.9) ≥ 3) ≈ 0.99 and the overconfident run's
 * P(Bin(5, 0.55) ≥ 3) ≈ 0.59, so the accuracy difference (overconfident − calibrated) is negative
 * and its verbalized ECE difference (≈ 0.36 − 0.09) positive; the page shows B − A in its own
 * order of the two, read from the pair's heading. The mock's answers are a pure
 * function of (seed, question, sample), so the runs are deterministic.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, screenshot } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { capitalsCsv, closeWithMock, launchWithMock, type Capital } from './wizard-helpers';
import { chartColours, missingFromLegend } from './chart-colours';

const KEY = 'sk-compare-runs-key-1234567890';
const N_QUESTIONS = 30;
const capitals = (p: number): Capital[] =>
  Array.from({ length: N_QUESTIONS }, (_, i) => [`Land${i}`, `City${i}`, { [`City${i}`]: p, [`Wrong${i}`]: 1 - p }]);
const MODELS = { calibrated: { p: 0.9, confidence: 90 }, overconfident: { p: 0.55, confidence: 95 } };

let browser: Browser;
let mock: Awaited<ReturnType<typeof launchWithMock>>['mock'];
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: KEY, seed: 3 }));
});
afterAll(() => closeWithMock(browser, mock));

test('two app runs, ticked on the Runs list, compare with the known signs, intervals and overlaid charts', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const ids: string[] = [];
  for (const [model, m] of Object.entries(MODELS)) {
    // The mock answers each model with its own distribution over the same questions.
    mock.configure({ questions: capitals(m.p).map(([country, , answers], i) => ({ match: `What is the capital of ${country}?`, id: `c${i + 1}`, answers, confidence: m.confidence })) });
    const id = await startRunThroughWizard(page, inject('appUrl'), { file: { name: 'capitals.csv', text: capitalsCsv(capitals(m.p)) }, baseUrl: `${mock.url}/v1`, model, key: KEY, n: 5, concurrency: 4 });
    await page.locator('[data-status="done"], [data-status="failed"]').waitFor({ timeout: 120_000 });
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('done');
    ids.push(id);
  }

  await page.goto(`${inject('appUrl')}#/runs`);
  const compare = page.locator('[data-action="compare-selected"]');
  await compare.waitFor();
  expect(await compare.getAttribute('aria-disabled')).toBe('true');
  for (const id of ids) await page.locator(`input[data-compare-pick="${id}"]`).check();
  expect(await compare.textContent()).toMatch(/Compare selected \(2\)/);
  expect(await compare.getAttribute('aria-disabled')).toBeNull();
  await compare.click();
  await page.waitForURL(/#\/compare\?ids=/);
  // The Compare page opens with both runs' reports ticked (a run's report has the run's id).
  for (const id of ids) await expect.poll(() => page.locator(`input[id="choose-${id}"]`).isChecked()).toBe(true);
  await page.locator('[data-action="compare-go"]', { hasText: 'Compare' }).click();

  const table = page.locator('[data-table="differences"][data-pair="0"]');
  await table.waitFor({ timeout: 60_000 });
  // The pair is A and B in the order the page lists the reports; a difference is B − A.
  const head = await page.locator('[data-pair-head="0"] h3').textContent();
  expect(['openai/calibrated and openai/overconfident', 'openai/overconfident and openai/calibrated']).toContain(head);
  const sign = head!.startsWith('openai/calibrated') ? 1 : -1;
  expect(await page.locator('[data-shared]').getAttribute('data-shared')).toBe(String(N_QUESTIONS));
  const row = async (sel: string) => {
    const r = table.locator(sel);
    return Promise.all(['data-difference', 'data-low', 'data-high'].map(async (a) => Number(await r.getAttribute(a))));
  };
  const [acc, accLo, accHi] = await row('tr[data-metric="accuracy"]');
  // The overconfident run answers right less often, and the interval excludes 0.
  expect(sign * acc).toBeLessThan(0);
  expect(accLo).toBeLessThanOrEqual(acc);
  expect(accHi).toBeGreaterThanOrEqual(acc);
  expect(sign * (sign > 0 ? accHi : accLo)).toBeLessThan(0);
  const [verb, verbLo, verbHi] = await row('tr[data-metric="ece"][data-signal="verbalized"]');
  expect(sign * verb).toBeGreaterThan(0);
  expect(verbLo).toBeLessThanOrEqual(verb);
  expect(verbHi).toBeGreaterThanOrEqual(verb);
  // The interval is shown in the row's text, not only carried in attributes.
  const text = (await table.locator('tr[data-metric="accuracy"]').innerText()).replace(/\s+/g, ' ');
  expect(text).toMatch(/[-−]?\d+\.\d+.*[-−]?\d+\.\d+/);

  // Overlaid charts: a layer per run, every colour keyed.
  const reliability = page.locator('[data-compare-charts] [data-chart="reliability"]');
  expect(await reliability.locator('g.series').count()).toBe(2);
  for (const chart of ['reliability', 'risk-coverage']) {
    const c = await chartColours(page.locator(`[data-compare-charts] [data-chart="${chart}"]`).first());
    expect(missingFromLegend(c), `${chart}: legend ${c.legend.join(' ')}; drawn ${JSON.stringify(c.drawn)}`).toEqual([]);
  }
  await screenshot(page, 'compare-runs-1280');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
}, 300_000);
