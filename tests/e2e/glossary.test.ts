import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot } from './chromium';
import { openHome } from './report-fixture';
import { GLOSSARY } from '../../src/model/glossary';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('the paper is cited on Home and in the report; a term in the report opens its glossary entry; every entry is listed', async () => {
  const { page, context, consoleErrors, offLoopback } = await openHome(browser, inject('appUrl'));
  const cites = page.locator('[data-citation="2605.08432"]');
  expect(await cites.count()).toBeGreaterThanOrEqual(2);
  expect(await cites.first().textContent()).toMatch(/Zhanliang Wang.*\(2026\)\. A Semantic-Sampling Framework for Evaluating Calibration in Open-Ended Question Answering\. arXiv:2605\.08432/);
  expect(await cites.first().locator('a').getAttribute('href')).toBe('https://arxiv.org/abs/2605.08432');

  // The headline's Sem2 links to the Sem2 entry, its definition in the tooltip.
  const term = page.locator('table[data-table="headline"] thead [data-term="sem2"]').first();
  expect(await term.getAttribute('title')).toMatch(/^Half the samples choose the modal answer/);
  await term.click();
  await page.waitForURL(/#\/glossary\/sem2$/);
  const entry = page.locator('#term-sem2');
  await entry.waitFor();
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('term-sem2');
  expect(await page.locator('.entry.chosen dt').textContent()).toBe('Sem2 (held-out confidence)');
  expect(await page.locator('.glossary dt').count()).toBe(GLOSSARY.length);
  expect(await page.locator('[data-citation="2607.20526"]').count()).toBe(1);
  await screenshot(page, 'glossary');

  expect(offLoopback).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
