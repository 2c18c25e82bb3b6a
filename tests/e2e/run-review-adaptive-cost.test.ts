/**
 * The review step of an adaptive run (issue 27): beside the estimate table, which counts every
 * question at the maximum, the expected cost from the run's rule ("Expected ≈ $X ($Y at the maximum, typical replies)")
 * and what it assumes; the question family it assumes is the one chosen in the Settings step's
 * budget planner, so choosing another family there moves the expectation.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { seriousViolations } from './axe-check';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const next = (page: Page) => page.locator('button.primary:has-text("Next")').click();

/** The review's expected-cost paragraph, once worked out. */
async function expectedText(page: Page): Promise<string> {
  await page.getByRole('heading', { name: /Review and start/ }).waitFor({ timeout: 60_000 });
  const p = page.getByTestId('adaptive-expected-cost');
  await expect.poll(() => p.textContent(), { timeout: 30_000 }).toMatch(/Expected ≈/);
  return (await p.textContent())!.replace(/\s+/g, ' ').trim();
}

const samplesOf = (text: string) => Number(/about (\d+\.\d) samples per question/.exec(text)![1]);

test('an adaptive run’s review shows the expected cost with the maximum as its cap, assuming the planner’s family', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${inject('appUrl')}#/new`);
  // The default draft (the built-in questions, one priced model) to the Settings step.
  for (let step = 0; step < 2; step++) await next(page);
  await page.locator('[data-control="adaptive"]').check();
  await page.getByLabel('Most samples per question (n)').fill('50');
  await next(page);
  const first = await expectedText(page);
  expect(first).toMatch(/^Expected ≈ \$[\d.]+ \(\$[\d.]+ at the maximum, typical replies\): about \d+\.\d samples per question of at most 50, if the questions are like “half easy \(top 0\.85–0\.99\), half split among 4”/);
  expect(first).toContain('The table counts every question at the maximum: the most this run can spend.');
  // The table still counts the maximum: "at most 50 samples".
  expect(await page.locator('main').innerText()).toMatch(/questions × at most 50 samples/);
  expect(samplesOf(first)).toBeLessThan(50);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'run-review-adaptive-cost');

  // Another family chosen in the planner: the review assumes it.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('budget-planner').getByText('Plan for a budget').click();
  await page.getByLabel('Questions like').selectOption('near-certain-mix');
  await next(page);
  const second = await expectedText(page);
  expect(second).toContain('if the questions are like “80% near-certain (top 0.97–1), 20% split among 4”');
  expect(samplesOf(second)).toBeLessThan(samplesOf(first));
  await context.close();
});
