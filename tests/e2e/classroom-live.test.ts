/**
 * The classroom's live mode on the models the app ships: the tiny causal model answers four
 * built-in questions in the page (the generation worker), tiny-nli groups the answers (the NLI
 * worker), alias grading checks the modal answer, and the live view shows Sem1 and Sem2 per
 * question with the held-out splits walked through on those answers. Nothing leaves loopback.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from './chromium';
import { readAppDatabase } from './run-helpers';
import { LIVE_QUESTION_IDS } from '../../src/ui/classroom/live-classroom';
import { TINY_TOPICS } from '../../scripts/tiny-causal-lm-table';
import { DEMO_QUESTIONS } from '../../src/demo/questions';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The answers the tiny model can give to each question it knows (the first four live questions). */
const ANSWERS: Record<string, string[]> = Object.fromEntries(TINY_TOPICS.map((t) => [t.questionId, t.answers.map((a) => a.token.trim())]));

test('live mode: a real model in the page, answers grouped by entailment, Sem1 and Sem2 per question, splits walked through', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/classroom`);
  await page.locator('[data-mode="live"]').click();
  const live = page.locator('[data-live-classroom]');
  await live.waitFor();
  await page.locator('[data-control="live-model"]').selectOption('tiny-causal-lm');
  await page.locator('[data-control="live-nli-model"]').selectOption('tiny-nli');
  await page.locator('[data-control="live-questions"]').fill('4');
  await page.locator('[data-control="live-n"]').fill('12');
  // Both models are shipped: nothing to download, so the button names no download.
  await expect.poll(() => page.locator('[data-action="live-start"]').textContent()).toBe('Sample live');
  await page.locator('[data-action="live-start"]').click();

  await page.locator('[data-live-caption], [data-live-error]').first().waitFor({ timeout: 180_000 }).catch(async (e) => {
    await screenshot(page, 'classroom-live-stuck');
    // What the stored runs say, so a run that never started or failed names why.
    const stored = (await readAppDatabase(page, { all: ['runs'] })).all.runs as { status: string; error?: unknown; progress?: { stage: string; errors: unknown[] } }[];
    const runs = JSON.stringify(stored.map((r) => ({ status: r.status, error: r.error, stage: r.progress?.stage, errors: r.progress?.errors })));
    throw new Error(`${(e as Error).message}\n${await live.innerText()}\nconsole: ${consoleErrors.join("\n")}\nruns: ${runs}`);
  });
  expect(await page.locator('[data-live-error]').count(), await live.innerText()).toBe(0);
  const rows = page.locator('[data-live-questions] tbody tr');
  expect(await rows.count()).toBe(4);
  for (let i = 0; i < 4; i++) {
    const row = rows.nth(i);
    const id = (await row.getAttribute('data-question'))!;
    expect(id).toBe(LIVE_QUESTION_IDS[i]);
    const modal = (await row.locator('td').nth(4).textContent())!;
    expect(ANSWERS[id].some((a) => modal.startsWith(a)), modal).toBe(true);
    const sem1 = Number(await row.getAttribute('data-sem1'));
    const sem2 = Number(await row.getAttribute('data-sem2'));
    // Sem1 is a class's share of 12 samples; Sem2 a mean of held-out shares.
    expect(Number.isInteger(Math.round(sem1 * 12 * 1e9) / 1e9)).toBe(true);
    expect(sem1).toBeGreaterThan(0);
    expect(sem2).toBeGreaterThanOrEqual(0);
    expect(await row.locator('.sq').count()).toBe(12);
  }
  // "6" has probability 0.95 for the hexagon (demo-04): its modal answer is right (a miss would need 6+ of 12 draws of "8").
  expect(await rows.nth(1).locator('td').nth(4).textContent()).toContain('✓ right');

  // The walk-through of the chosen question ends on its Sem2.
  await rows.nth(3).locator('button').click();
  const curse = page.locator('[data-live-curse]');
  expect(await curse.locator('h3').textContent()).toBe(DEMO_QUESTIONS.find((q) => q.id === LIVE_QUESTION_IDS[3])!.question);
  for (let s = 0; s < 9; s++) await curse.getByRole('button', { name: 'Next split ▶' }).click();
  expect(await curse.locator('[data-step]').getAttribute('data-step')).toBe('10');
  const running = (await curse.locator('[data-running-sem2]').textContent())!;
  const sem2 = Number(await rows.nth(3).getAttribute('data-sem2'));
  expect(running).toBe(`${(sem2 * 100).toFixed(1)}%`);

  await screenshot(page, 'classroom-live');
  // At a phone's width in dark mode the live view scrolls no sideways (its table scrolls in its own box).
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screenshot(page, 'classroom-live-390-dark');
  await page.setViewportSize({ width: 1280, height: 900 });
  // The full report of the run opens like any other.
  await page.locator('[data-live-report]').click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  expect(page.url()).toMatch(/#\/report\//);
  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
