/**
 * Reading the report (issue 25): every colour a chart draws has its legend key, in both themes;
 * the drill-down lists classes largest first with the modal one marked; the questions table is
 * a card per question on a phone; a dot of the gap scatter opens its question.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { afterLayout, launchChromium, screenshot } from './chromium';
import { demoDocument, openHome } from './report-fixture';
import { chartColours, missingFromLegend } from './chart-colours';
import { gradeWords } from '../../src/model/grade-words';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

test('every colour the reliability and risk–coverage charts draw is in their legends, in light and dark', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'), 'light');
  const problems: Record<string, string[]> = {};
  let scheme: 'light' | 'dark' = 'light';
  const check = async (selector: string, name: string) => {
    const charts = page.locator(selector);
    const n = await charts.count();
    expect(n, name).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const c = await chartColours(charts.nth(i));
      const found = [...missingFromLegend(c).map((m) => `not in the legend: ${m}`), ...c.blended.map((b) => `blends: ${b}`)];
      if (found.length) problems[`${name} ${i} (${scheme})`] = found;
    }
  };
  const panel = page.locator('#view-selective');
  // Sem2 too, so a diagram of two series side by side is checked.
  await check('[data-chart="reliability"]', 'reliability');
  await page.locator('input[data-signal="sem2"]').check();
  await check('[data-chart="reliability"]', 'reliability with Sem2');
  await screenshot(page, 'reading-reliability-light');

  await page.locator('[role="tab"][data-view="selective"]').click();
  await panel.locator('[data-chart="risk-coverage"]').first().waitFor({ timeout: 30_000 });
  // The first target the demo's 60 questions certify a threshold for, so the ring is drawn.
  for (const target of ['20', '30', '40', '50', '60']) {
    await panel.locator('[data-control="abstain-target"]').fill(target);
    if (await panel.locator('[data-threshold-mark]').first().waitFor({ timeout: 3_000 }).then(() => true, () => false)) break;
  }
  await panel.locator('[data-threshold-mark]').first().waitFor();
  await check('[data-chart="risk-coverage"]', 'risk–coverage');
  await screenshot(page, 'reading-risk-coverage-light');

  // The same page in dark, where it stands: the theme is CSS alone (theme.css), so the colours
  // drawn are those a fresh load in dark draws. The same charts, in the other order.
  scheme = 'dark';
  await page.emulateMedia({ colorScheme: 'dark' });
  await afterLayout(page);
  await check('[data-chart="risk-coverage"]', 'risk–coverage');
  await screenshot(page, 'reading-risk-coverage-dark');
  await page.locator('[role="tab"][data-view="calibration"]').click();
  // Ticked still, or again if the view was drawn afresh.
  await page.locator('input[data-signal="sem2"]').check();
  await check('[data-chart="reliability"]', 'reliability with Sem2');
  await page.locator('input[data-signal="sem2"]').uncheck();
  await check('[data-chart="reliability"]', 'reliability');
  await screenshot(page, 'reading-reliability-dark');
  expect(problems).toEqual({});
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('the drill-down lists classes by size, largest first, the modal class marked', async () => {
  const doc = demoDocument();
  // A question whose largest class is not the first to appear (class 0).
  const model = doc.models[0];
  const q = model.questions.find((x) => {
    const sizes = (x.classes ?? []).map((c) => c.size);
    return sizes.length > 2 && sizes.indexOf(Math.max(...sizes)) > 0;
  })!;
  expect(q, 'the demo has a question whose modal class appears second').toBeDefined();
  const sizes = q.classes!.map((c) => c.size);
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => b.size - a.size || a.index - b.index).map((c) => c.index);

  const { page, context } = await openHome(browser, inject('appUrl'));
  await page.locator('[role="tab"][data-view="questions"]').click();
  await page.locator('[data-control="search"]').fill(q.id);
  await page.locator(`[data-table="questions"] tr[data-id="${q.id}"] button.open`).click();
  const items = page.locator(`[data-drill="${q.id}"] ol.classes > li`);
  expect(await items.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-class'))))).toEqual(order);
  expect(await items.evaluateAll((els) => els.map((e) => e.hasAttribute('data-modal')))).toEqual(order.map((_, i) => i === 0));
  // The grade in words, as the drill-down shows it since the grade-words change (e03ec70).
  expect(await items.first().textContent()).toContain(`modal · ${gradeWords(q.grade)}`);
  await context.close();
});

test('at 390 px the questions table is a card per question, every column read beside its name; at 1280 px a table', async () => {
  for (const [width, scheme] of [[390, 'light'], [390, 'dark'], [1280, 'light']] as const) {
    const { page, context } = await openHome(browser, inject('appUrl'), scheme);
    await page.setViewportSize({ width, height: 900 });
    await page.locator('[role="tab"][data-view="questions"]').click();
    const row = page.locator('[data-table="questions"] tbody tr').first();
    await row.waitFor();
    await afterLayout(page);
    const seen = await row.evaluate((tr) => ({
      display: getComputedStyle(tr).display,
      // Every cell lies inside the screen, none cut off at its right.
      cut: [...tr.children].filter((td) => td.getBoundingClientRect().right > innerWidth + 0.5).map((td) => td.getAttribute('data-label')),
      labels: [...tr.children].map((td) => getComputedStyle(td, '::before').content),
      scrolls: document.querySelector('[data-table="questions"]')!.parentElement!.scrollWidth > document.querySelector('[data-table="questions"]')!.parentElement!.clientWidth + 1,
    }));
    if (width === 390) {
      expect(seen.display).not.toBe('table-row');
      expect(seen.cut).toEqual([]);
      expect(seen.scrolls).toBe(false);
      expect(seen.labels.slice(0, 4)).toEqual(['"#"', '"Id"', '"Question"', '"Modal answer"']);
      // The sort buttons stay, above the cards.
      await page.locator('[data-table="questions"] thead button.sort', { hasText: 'Margin' }).click();
      expect(await page.locator('[data-table="questions"] th[aria-sort="ascending"]').textContent()).toContain('Margin');
    } else {
      expect(seen.display).toBe('table-row');
    }
    await screenshot(page, `reading-questions-${width}-${scheme}`);
    await context.close();
  }
});

test('a dot of the gap scatter opens its question, by click and by Enter', async () => {
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.locator('[role="tab"][data-view="difficulty"]').click();
  const dots = page.locator('[data-chart="gap"]').nth(1).locator('circle[data-id]');
  await dots.first().waitFor();
  const id = (await dots.nth(3).getAttribute('data-id'))!;
  await dots.nth(3).click({ force: true });
  await page.locator(`[data-drill="${id}"]`).waitFor();
  expect(await page.locator('[role="tab"][data-view="questions"]').getAttribute('aria-selected')).toBe('true');
  // The second model's chart opens the second model's question.
  const doc = demoDocument();
  expect(await page.locator(`[data-drill="${id}"] .q`).textContent()).toBe(doc.models[1].questions.find((q) => q.id === id)!.question);
  expect(await page.locator('#drill-heading').evaluate((h) => h === document.activeElement)).toBe(true);

  await page.locator('[role="tab"][data-view="difficulty"]').click();
  const other = page.locator('[data-chart="gap"]').first().locator('circle[data-id]').nth(5);
  const otherId = (await other.getAttribute('data-id'))!;
  await other.focus();
  await page.keyboard.press('Enter');
  await page.locator(`[data-drill="${otherId}"]`).waitFor();
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('each per-model table and its scroll box has an accessible name of its own, naming its model', async () => {
  const doc = demoDocument();
  const { page, context } = await openHome(browser, inject('appUrl'));
  await page.locator('[data-panel="signal-comparison"] [data-table="signal-comparison"]').first().waitFor({ timeout: 30_000 });
  await page.locator('[data-other-metrics] summary').click();
  const names = () =>
    page.evaluate(() => {
      const nameOf = (e: Element) => (e.getAttribute('aria-label') ?? e.querySelector(':scope > caption')?.textContent ?? '').trim();
      return {
        tables: [...document.querySelectorAll('main table[data-model], main [data-comparison] table')].map((t) => ({ model: t.getAttribute('data-model') ?? t.closest('[data-comparison]')!.getAttribute('data-comparison'), name: nameOf(t), region: t.closest('[role="region"]')?.getAttribute('aria-label') ?? '' })),
        regions: [...document.querySelectorAll('main [role="region"]')].map((r) => r.getAttribute('aria-label')),
      };
    });
  const check = async (where: string) => {
    const { tables, regions } = await names();
    expect(tables.length, where).toBeGreaterThanOrEqual(doc.models.length);
    for (const t of tables) {
      expect(t.name, `${where}: a table of ${t.model}`).toContain(t.model);
      expect(t.region, `${where}: the scroll box of ${t.model}'s table`).toContain(t.model);
    }
    expect(regions.length, `${where}: regions named alike`).toBe(new Set(regions).size);
  };
  await check('calibration');
  await page.locator('[role="tab"][data-view="selective"]').click();
  await page.locator('#view-selective table[data-table="aurc"]').first().waitFor({ timeout: 30_000 });
  await check('selective');
  await context.close();
});
