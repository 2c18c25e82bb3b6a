import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { runClassroom } from '../../src/ui/classroom/classroom-model';
import { PRESETS } from '../../src/ui/classroom/claim-presets';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const number = async (page: import('playwright-core').Page, key: string) =>
  (await page.locator(`[data-number="${key}"] dd`).first().textContent())!.trim();

test('the classroom shows the simulator’s numbers, all views, presets and large text, offline', async () => {
  const { context, page, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/classroom`);
  await page.locator('[data-page="classroom"] [data-number="ece-sem1"]').waitFor({ timeout: 60_000 });

  // The first preset (hard questions) is shown; its numbers equal the model's, computed here in Node.
  const hard = runClassroom(PRESETS[0].settings);
  expect(await number(page, 'ece-sem1')).toBe(hard.eceSem1.toFixed(3));
  expect(await number(page, 'ece-sem2')).toBe(hard.eceSem2.toFixed(3));
  expect(await number(page, 'ece-star')).toBe(hard.eceStar.toFixed(3));
  expect(await number(page, 'bias-sem1')).toMatch(/^\+/);
  expect(await number(page, 'bias-sem2')).toMatch(/^−/);
  expect(await page.locator('[data-number="bias-sem1"] p').textContent()).toContain('above c*');
  expect(await page.locator('[data-number="bias-sem2"] p').textContent()).toContain('below c*');
  expect(await page.locator('[data-number="gap"]').getAttribute('data-band')).toBe('hard');

  // Convergence arrives one n at a time: all seven sample sizes end up drawn for each series.
  await expect.poll(() => page.locator('[data-chart="convergence-ece"] circle[data-series="sem1"]').count(), { timeout: 60_000 }).toBe(7);
  const biasAt = async (n: number, s: string) => page.locator(`[data-chart="convergence-bias"] circle[data-n="${n}"][data-series="${s}"]`).count();
  expect(await biasAt(256, 'sem2')).toBe(1);

  // The winner's curse stepper moves through the splits.
  const curse = page.locator('[data-winners-curse]');
  expect(await curse.locator('[data-step]').getAttribute('data-step')).toBe('1');
  const runningTerm = () => curse.locator('dt:has(+ [data-running-sem2])').textContent();
  expect(await runningTerm()).toBe('Sem2 so far (split 1 alone)');
  await curse.getByRole('button', { name: /Next split/ }).click();
  expect(await curse.locator('[data-step]').getAttribute('data-step')).toBe('2');
  expect(await runningTerm()).toBe('Sem2 so far (mean of splits 1–2)');
  await screenshot(page, 'classroom-hard');

  // Easy preset: the meter drops to "easy" and both biases are indistinguishable or tiny.
  await page.locator('[data-preset="easy"]').click();
  await expect.poll(() => page.locator('[data-number="gap"]').getAttribute('data-band'), { timeout: 60_000 }).toBe('easy');
  const easy = runClassroom(PRESETS.find((p) => p.id === 'easy')!.settings);
  await expect.poll(() => number(page, 'ece-sem2')).toBe(easy.eceSem2.toFixed(3));

  // A larger preset (3000 × 50 samples) is computed in slices and gives the same numbers.
  await page.locator('[data-preset="sem2-better"]').click();
  const better = runClassroom(PRESETS.find((p) => p.id === 'sem2-better')!.settings);
  await expect.poll(() => number(page, 'ece-sem2'), { timeout: 60_000 }).toBe(better.eceSem2.toFixed(3));
  expect(await number(page, 'ece-sem1')).toBe(better.eceSem1.toFixed(3));
  await page.locator('[data-preset="easy"]').click();
  await expect.poll(() => number(page, 'ece-sem2'), { timeout: 60_000 }).toBe(easy.eceSem2.toFixed(3));

  // A control changes the simulation: another seed.
  await page.locator('[data-control="seed"]').fill('7');
  const seven = runClassroom({ ...PRESETS.find((p) => p.id === 'easy')!.settings, seed: 7 });
  await expect.poll(() => number(page, 'ece-sem1'), { timeout: 60_000 }).toBe(seven.eceSem1.toFixed(3));

  // Large text for projectors.
  const before = await page.locator('[data-page="classroom"]').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  await page.locator('[data-control="large-text"]').check();
  const after = await page.locator('[data-page="classroom"]').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(after).toBeGreaterThan(before * 1.2);
  await screenshot(page, 'classroom-large-text');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
