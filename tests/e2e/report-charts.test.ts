import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { launchChromium, screenshot } from './chromium';
import { dataCounts, demoDocument, openHome } from './report-fixture';
import { regimeBars } from '../../src/ui/charts/regime-data';
import { fmtInterval } from '../../src/ui/report/format';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const nonEmpty = (bins: { count: number }[]) => bins.filter((b) => b.count > 0).length;

test('reliability diagrams match the document: bars, histogram counts, axis ticks, overlay and equal-mass', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  const charts = page.locator('[data-chart="reliability"]');
  expect(await charts.count()).toBe(doc.models.length);

  for (let i = 0; i < doc.models.length; i++) {
    const sem1 = doc.models[i].metrics.signals.sem1!;
    const chart = charts.nth(i);
    expect(await chart.locator('rect.bar').count()).toBe(nonEmpty(sem1.bins));
    expect(await dataCounts(page, `[data-chart="reliability"] >> nth=${i} >> rect.hist-bar`)).toEqual(sem1.bins.map((b) => b.count));
    expect(await chart.locator('[data-axis="x"] .tick').count()).toBeGreaterThan(2);
    expect(await chart.locator('[data-axis="y"] .tick').count()).toBeGreaterThan(2);
    // Each bar's height encodes the bin's accuracy from the document.
    const acc = await chart.locator('rect.bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-accuracy'))));
    expect(acc).toEqual(sem1.bins.filter((b) => b.count > 0).map((b) => b.accuracy));
  }

  // Sem2 as well: small multiples, one diagram per model and signal, each with its own signal's bars.
  await page.locator('input[data-signal="sem2"]').check();
  await expect.poll(() => charts.count()).toBe(2 * doc.models.length);
  for (let i = 0; i < doc.models.length; i++) {
    const s = doc.models[i].metrics.signals;
    expect(await charts.nth(2 * i).locator('.chart-title').textContent()).toContain(`${doc.models[i].model}: Sem1`);
    expect(await charts.nth(2 * i).locator('rect.bar').count()).toBe(nonEmpty(s.sem1!.bins));
    expect(await charts.nth(2 * i + 1).locator('.chart-title').textContent()).toContain(`${doc.models[i].model}: Sem2`);
    expect(await charts.nth(2 * i + 1).locator('rect.bar').count()).toBe(nonEmpty(s.sem2!.bins));
  }
  await screenshot(page, 'report-overlay');

  // Equal-mass bins.
  await page.locator('input[data-signal="sem2"]').uncheck();
  await page.locator('select[data-control="binning"]').selectOption('mass');
  for (let i = 0; i < doc.models.length; i++) {
    const bins = doc.models[i].metrics.signals.sem1!.binsEqualMass;
    expect(await charts.nth(i).locator('rect.bar').count()).toBe(nonEmpty(bins));
    expect(await dataCounts(page, `[data-chart="reliability"] >> nth=${i} >> rect.hist-bar`)).toEqual(bins.map((b) => b.count));
  }
  await screenshot(page, 'report-equal-mass');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('difficulty view: one dot per question and one regime bar per non-empty regime and signal', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  await page.locator('button[data-view="difficulty"]').click();
  await page.locator('[data-chart="gap"]').first().waitFor();
  for (let i = 0; i < doc.models.length; i++) {
    const m = doc.models[i];
    expect(await page.locator('[data-chart="gap"]').nth(i).locator('circle.dot').count()).toBe(m.questions.length);
    // Incorrect answers are rings, correct ones filled dots.
    expect(await page.locator('[data-chart="gap"]').nth(i).locator('circle.dot.wrong').count()).toBe(m.questions.filter((q) => !q.correct).length);
    const want = regimeBars(m.metrics.byRegime, ['sem1', 'sem2', 'verbalized'].filter((s) => m.metrics.signals[s as 'sem1']) as ['sem1']);
    const got = await page.locator('[data-chart="regime"]').nth(i).locator('rect.bar')
      .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-regime')}:${e.getAttribute('data-signal')}:${e.getAttribute('data-ece')}`));
    expect(got).toEqual(want.map((b) => `${b.regime}:${b.signal}:${b.ece}`));
    expect(await page.locator('[data-chart="gap"]').nth(i).locator('[data-axis="x"] .tick').count()).toBeGreaterThan(2);
  }
  // The paired bootstrap of Sem1 against Sem2, as the document holds it.
  const paired = page.locator('[data-table="paired-bootstrap"] tbody tr');
  expect(await paired.count()).toBe(doc.models.length);
  for (let i = 0; i < doc.models.length; i++) {
    const b = doc.models[i].metrics.bootstrap;
    const cells = await paired.nth(i).locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual([fmtInterval(b.d_conf[0], b.d_conf), fmtInterval(b.d_ece[0], b.d_ece), fmtInterval(b.d_ece_lo[0], b.d_ece_lo), String(b.n_lo)]);
  }
  await screenshot(page, 'report-difficulty');
  expect(consoleErrors).toEqual([]);
  await context.close();
});

test('keyboard focus reaches chart marks and shows their tooltip', async () => {
  const { page, context } = await openHome(browser, inject('appUrl'));
  await page.locator('select[data-control="binning"]').focus();
  let reached = false;
  for (let i = 0; i < 12 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.matches('rect.bar') ?? false);
  }
  expect(reached).toBe(true);
  const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  expect(label).toMatch(/accuracy .* mean confidence/);
  expect(await page.locator('.chart-tooltip').first().textContent()).toBe(label);
  await screenshot(page, 'report-focus');
  await context.close();
});

test('SVG and PNG export give a valid SVG of the chart and a PNG image', async () => {
  const doc = demoDocument();
  const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'));
  const chart = page.locator('[data-chart="reliability"]').first();
  const [svgDownload] = await Promise.all([page.waitForEvent('download'), chart.locator('button[data-export="svg"]').click()]);
  expect(svgDownload.suggestedFilename()).toMatch(/\.svg$/);
  const svgText = readFileSync((await svgDownload.path())!, 'utf8');
  const parsed = await page.evaluate((text) => {
    const d = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      error: d.getElementsByTagName('parsererror').length,
      root: d.documentElement.nodeName,
      ns: d.documentElement.namespaceURI,
      bars: d.querySelectorAll('rect[data-count]').length,
      bands: [...d.querySelectorAll('rect[data-band-bin]')].map((r) => Number(r.getAttribute('data-band-bin'))),
      rings: [...d.querySelectorAll('circle[data-count]')].map((r) => Number(r.getAttribute('data-bin'))),
      texts: [...d.documentElement.children].filter((e) => e.nodeName === 'text').map((e) => e.textContent),
    };
  }, svgText);
  // The file stands alone: the chart's title (naming the model), its legend keys and its ECE caption around the drawing.
  const title = (await chart.locator('.chart-title').textContent())!.trim();
  const caption = (await chart.locator('.caption').textContent())!.trim();
  expect(title).toContain(doc.models[0].model);
  expect(caption).toMatch(/ECE \d\.\d{3}/);
  expect(parsed.texts[0]).toBe(title);
  expect(parsed.texts).toContain(caption);
  for (const key of await chart.locator('.legend .key').allTextContents()) expect(parsed.texts).toContain(key.trim());
  expect(parsed.error).toBe(0);
  expect(parsed.root).toBe('svg');
  expect(parsed.ns).toBe('http://www.w3.org/2000/svg');
  const bins = doc.models[0].metrics.signals.sem1!.bins;
  // Bars and histogram bars both carry data-count.
  expect(parsed.bars).toBe(nonEmpty(bins) + bins.length);
  // The consistency band (keyed in the legend, checked above) and the rings over bins under 10 questions travel with it.
  expect(parsed.bands).toEqual(bins.flatMap((b, i) => (b.count > 0 ? [i] : [])));
  expect(parsed.rings).toEqual(bins.flatMap((b, i) => (b.count > 0 && b.count < 10 ? [i] : [])));
  expect(await chart.locator('.legend').innerText()).toContain('consistency band');
  expect(svgText).not.toContain('var(--');

  const [pngDownload] = await Promise.all([page.waitForEvent('download'), chart.locator('button[data-export="png"]').click()]);
  const png = readFileSync((await pngDownload.path())!);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.length).toBeGreaterThan(2000);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
