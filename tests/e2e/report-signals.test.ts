/**
 * Every confidence signal of a report can be chosen in every chart and table, and the report
 * says which is best calibrated: a multiple-choice report with stated probability and logprob
 * (built by the baselines' own mcSemEceReport) opened from a file.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { elementShot, launchChromium, openPage, screenshot } from './chromium';
import { toMcQuestion } from '../../src/multiple-choice/prompt';
import { mcSemEceQuestion } from '../../src/multiple-choice/sem-ece-question';
import { mcSemEceReport } from '../../src/multiple-choice/sem-ece-report';
import { compareReportSignals } from '../../src/pipeline/signal-comparison';
import { summarizeComparison } from '../../src/pipeline/signal-comparison-summary';
import { eceIntervalOf } from '../../src/formats/headline-table';
import type { ModelReport } from '../../src/model/report';

/** The report's one ECE interval, which the comparison's words carry when it is over the report's questions. */
const oneInterval = (m: ModelReport, rows: number) => (rows === m.metrics.questions ? (s: SignalName) => eceIntervalOf(m.metrics, s) : undefined);
import { buildReport, importedSettings } from '../../src/pipeline/score-documents';
import { reportToJson } from '../../src/formats/report-export';
import type { ReportDocument, SignalName } from '../../src/model/report';
import { isProbabilitySignal, SIGNAL_LABEL } from '../../src/model/signals';
import { regimeBars } from '../../src/ui/charts/regime-data';
import { fmt } from '../../src/ui/report/format';
import type { TokenLogprob } from '../../src/model/provider';
import { demoDocument, openHome } from './report-fixture';
import { reclusteredExact } from '../unit/ui/report/agreement-fixture';
import { agreementWithFile } from '../../src/pipeline/report-agreement';
import { sortAgreement } from '../../src/ui/report/agreement-data';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

// The six of a multiple-choice run, then the black-box signals (issue 29) every scored report carries.
const ALL: SignalName[] = ['sem1', 'sem2', 'verbalized', 'stated', 'logprob', 'entropyConfidence', 'semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity', 'lexical_similarity'];

/** Question i: 10 samples, the gold option chosen (i·7 mod 10) + 1 times with a stated probability that varies by question. */
function mcRows(count: number, withLogprobs: (i: number) => boolean) {
  return Array.from({ length: count }, (_, i) => {
    const q = toMcQuestion({ id: `mc${i + 1}`, question: `Which option is right in question ${i + 1}?`, answer: 'A', options: ['a', 'b', 'c', 'd'] });
    if (!q.ok) throw new Error(q.error.message);
    const a = ((i * 7) % 10) + 1;
    const p = 40 + ((i * 13) % 60);
    const replies = Array.from({ length: 10 }, (_, j) => `{"answer": "${j < a ? 'A' : j % 2 ? 'C' : 'B'}", "probability": ${p}}`);
    const lp = -0.1 - (i % 5) * 0.3;
    const greedy: TokenLogprob[] = [
      { token: '{"answer": "', logprob: 0 },
      { token: 'A', logprob: lp, top: [{ token: 'A', logprob: lp }, { token: 'C', logprob: -1.2 }, { token: 'B', logprob: -2 }] },
    ];
    return mcSemEceQuestion({ question: q.value, replies, greedyLogprobs: withLogprobs(i) ? greedy : undefined }, 'mock');
  });
}

function signalsReport(): ReportDocument {
  const full = mcSemEceReport(mcRows(40, () => true), 'mock/all-signals', { B: 200 });
  const partial = mcSemEceReport(mcRows(30, (i) => i % 2 === 0), 'mock/some-logprobs', { B: 200 });
  return buildReport([full, partial], {
    title: 'Multiple-choice report with stated and logprob confidence',
    dataset: { name: 'mc fixture' },
    settings: importedSettings({ B: 200 }, 10),
  });
}

test('stated and logprob are columns of the headline, picker, question table, drill-down and regime bars; the comparison matches the document', async () => {
  const doc = signalsReport();
  expect(Object.keys(doc.models[0].metrics.signals)).toEqual(ALL);
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'mc.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 60_000 });

  // Headline: one ECE column per scored signal that is a probability, the values of the document; a model
  // without a signal shows a dash; a score that is not a probability has no raw-ECE column (its raw ECE
  // claims nothing) and is named under the table.
  for (const m of doc.models) {
    const row = page.locator(`table[data-table="headline"] tr[data-model="${m.model}"]`);
    for (const s of ALL) {
      const cell = row.locator(`td[data-ece="${s}"]`);
      const ece = m.metrics.signals[s]?.ece;
      if (!isProbabilitySignal(s)) expect(await cell.count()).toBe(0);
      else if (ece === undefined) expect((await cell.textContent())!.trim()).toBe('—');
      else {
        expect(Number(await cell.getAttribute('data-value'))).toBe(ece);
        expect((await cell.textContent())!.trim().startsWith(fmt(ece))).toBe(true);
      }
    }
  }

  // Reliability picker: every signal offered; choosing logprob draws its bins from the document.
  const offered = await page.locator('input[data-signal]').evaluateAll((els) => els.map((e) => e.getAttribute('data-signal')));
  expect(offered).toEqual(ALL);
  await page.locator('input[data-signal="sem1"]').uncheck();
  await page.locator('input[data-signal="logprob"]').check();
  const first = page.locator('[data-chart="reliability"]').first();
  const lpBins = doc.models[0].metrics.signals.logprob!.bins.filter((b) => b.count > 0);
  await expect.poll(() => first.locator('rect.bar').count()).toBe(lpBins.length);
  expect(await first.locator('rect.bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-accuracy'))))).toEqual(lpBins.map((b) => b.accuracy));
  // The second model scored no logprob (only some of its questions had one): it says so instead of an empty chart.
  expect(await page.locator('[data-chart="reliability"]').count()).toBe(1);
  expect(await page.locator(`[data-no-series="${doc.models[1].model}"]`).textContent()).toMatch(/Token log-prob is not scored/);

  // Which signal is best calibrated, per model, as the baselines compute it with the document's bootstrap settings.
  for (const m of doc.models) {
    const box = page.locator(`[data-comparison="${m.model}"]`);
    await box.locator('[data-comparison-headline]').waitFor({ timeout: 60_000 });
    const cmp = compareReportSignals(m, { B: doc.settings.bootstrap.B, seed: doc.settings.bootstrap.seed, bins: doc.settings.bins });
    const summary = summarizeComparison(cmp, SIGNAL_LABEL, oneInterval(m, cmp.rows));
    expect(await box.locator('[data-comparison-headline]').textContent()).toBe(summary.headline);
    const rows = await box.locator('tbody tr').evaluateAll((els) => els.map((e) => [e.getAttribute('data-signal'), Number(e.querySelector('td[data-ece]')!.getAttribute('data-ece'))]));
    expect(rows).toEqual(summary.rows.map((r) => [r.signal, r.ece[0]]));
    expect(await box.locator('[data-comparison-note]').allTextContents()).toEqual(summary.notes);
  }
  await screenshot(page, 'report-signals-calibration');

  // Question table: a column per signal, sortable, with the rows' values; the partial logprob shows where present.
  await page.locator('[data-view="questions"]').click();
  const headers = (await page.locator('table[data-table="questions"] thead th').allTextContents()).map((t) => t.trim());
  for (const label of ['Sem1', 'Sem2', 'Verbalized', 'Stated', 'Log-prob', 'Entropy']) expect(headers).toContain(label);
  const firstRow = page.locator('table[data-table="questions"] tbody tr').first();
  const q0 = doc.models[0].questions[0];
  expect(await firstRow.getAttribute('data-id')).toBe(q0.id);
  expect((await firstRow.locator('td[data-signal="stated"]').textContent())!.trim()).toBe(fmt(q0.signals!.stated));
  expect((await firstRow.locator('td[data-signal="logprob"]').textContent())!.trim()).toBe(fmt(q0.signals!.logprob));
  await page.locator('table[data-table="questions"] thead th', { hasText: 'Stated' }).locator('button').click();
  const sorted = await page.locator('table[data-table="questions"] tbody td[data-signal="stated"]').allTextContents();
  const want = doc.models[0].questions.map((q) => q.signals!.stated!).sort((a, b) => a - b).slice(0, 50).map((x) => fmt(x));
  expect(sorted.map((t) => t.trim())).toEqual(want);

  // Drill-down lists every signal of the question.
  await firstRow.locator('button.open').click();
  const open = page.locator('[data-drill]');
  await open.waitFor();
  const openId = await open.getAttribute('data-drill');
  const q = doc.models[0].questions.find((x) => x.id === openId)!;
  for (const s of ['stated', 'logprob', 'entropyConfidence'] as const) {
    expect((await open.locator(`[data-signal="${s}"] dd`).textContent())!.trim()).toBe(fmt(q.signals![s]));
  }
  await screenshot(page, 'report-signals-questions');

  // The second model: logprob only where its question had one.
  await page.locator('section[aria-labelledby="questions-heading"] select').first().selectOption({ label: 'mock/some-logprobs' });
  const second = doc.models[1];
  const cells = await page.locator('table[data-table="questions"] tbody tr').evaluateAll((els) =>
    els.map((e) => [e.getAttribute('data-id'), e.querySelector('td[data-signal="logprob"]')!.textContent!.trim()]),
  );
  expect(cells).toHaveLength(second.questions.length);
  for (const [id, text] of cells) expect(text).toBe(fmt(second.questions.find((x) => x.id === id)!.signals?.logprob));
  expect(cells.filter(([, t]) => t === '—').length).toBe(second.questions.filter((x) => x.signals?.logprob === undefined).length);

  // Difficulty view: the regime bars can show the extra signals too.
  await page.locator('[data-view="difficulty"]').click();
  await page.locator('input[data-regime-signal="stated"]').check();
  const m0 = doc.models[0];
  const chosen: SignalName[] = ['sem1', 'sem2', 'verbalized', 'stated'];
  const got = await page.locator('[data-chart="regime"]').first().locator('rect.bar')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-regime')}:${e.getAttribute('data-signal')}:${e.getAttribute('data-ece')}`));
  expect(got).toEqual(regimeBars(m0.metrics.byRegime, chosen).map((b) => `${b.regime}:${b.signal}:${b.ece}`));
  await screenshot(page, 'report-signals-difficulty');

  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('the comparison is read from the document; a report saved before it was stored gets it computed, the same', async () => {
  const doc = signalsReport();
  for (const m of doc.models) {
    const cmp = compareReportSignals(m, { B: doc.settings.bootstrap.B, seed: doc.settings.bootstrap.seed, bins: doc.settings.bins });
    expect(m.metrics.comparison).toEqual(cmp);
  }
  const old = JSON.parse(reportToJson(doc)) as ReportDocument;
  for (const m of old.models) delete m.metrics.comparison;
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'old.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(old)) });
  for (const m of doc.models) {
    const box = page.locator(`[data-comparison="${m.model}"]`);
    await box.locator('[data-comparison-headline]').waitFor({ timeout: 60_000 });
    expect(await box.locator('[data-comparison-headline]').textContent()).toBe(summarizeComparison(m.metrics.comparison!, SIGNAL_LABEL, oneInterval(m, m.metrics.comparison!.rows)).headline);
  }
  // The stored value is what the view shows (not recomputed): a stored comparison over 7 rows says so.
  const stored = JSON.parse(reportToJson(doc)) as ReportDocument;
  stored.models[0].metrics.comparison!.rows = 7;
  const second = await openPage(browser);
  await second.page.goto(`${inject('appUrl')}#/open`);
  await second.page.locator('input[data-control="report-file"]').setInputFiles({ name: 'stored.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(stored)) });
  const first = second.page.locator(`[data-comparison="${doc.models[0].model}"] [data-comparison-headline]`);
  await expect.poll(() => first.textContent()).toContain('on these 7 questions');
  expect([...consoleErrors, ...second.consoleErrors]).toEqual([]);
  await second.context.close();
  await context.close();
});

test('the comparison states its naming rule and number of comparisons, with a p per signal; 1280 px light, 390 px dark', async () => {
  const doc = signalsReport();
  for (const [width, scheme] of [[1280, 'light'], [390, 'dark']] as const) {
    const { page, context, consoleErrors } = await openPage(browser);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${inject('appUrl')}#/open`);
    await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'r.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
    for (const m of doc.models) {
      const sel = m.metrics.comparison!.selection!;
      const box = page.locator(`[data-comparison="${m.model}"]`);
      await box.locator('[data-comparison-rule]').waitFor({ timeout: 60_000 });
      const rule = (await box.locator('[data-comparison-rule]').textContent())!;
      expect(rule).toContain(`${sel.comparisons} one-sided tests`);
      expect(rule).toContain('intersection–union');
      // Every other signal's p, as stored.
      for (const [s, t] of Object.entries(sel.tests)) expect(Number(await box.locator(`tr[data-signal="${s}"] td[data-p]`).getAttribute('data-p'))).toBe(t!.p);
      expect(await box.locator('tr[data-verdict="best"], tr[data-verdict="lowest"]').count()).toBe(1);
    }
    const panel = page.locator('[data-panel="signal-comparison"]');
    await panel.evaluate((e) => e.scrollIntoView({ block: 'start' }));
    await elementShot(panel, `report-signal-comparison-${width}-${scheme}`);
    if (width === 390) {
      // The panel fits the phone: its tables scroll in their own boxes.
      const box = await panel.evaluate((e) => ({ right: e.getBoundingClientRect().right, scroll: e.scrollWidth, client: e.clientWidth }));
      expect(box.right).toBeLessThanOrEqual(390);
      expect(box.scroll).toBeLessThanOrEqual(box.client);
    }
    expect(consoleErrors).toEqual([]);
    await context.close();
  }
});

test('Questions tab: "Compare with another clustering…" shows Rand, adjusted Rand and same modal class per question and summarized, as computed from the files', async () => {
  const doc = demoDocument();
  const text = reclusteredExact();
  const want = agreementWithFile(doc.models[0], text, 'exact.clustered.jsonl');
  if (!want.ok) throw new Error(want.error.message);

  for (const scheme of ['light', 'dark'] as const) {
    const { page, context, consoleErrors } = await openHome(browser, inject('appUrl'), scheme);
    await page.locator('[data-view="questions"]').click();
    await page.locator('input[data-control="agreement-file"]').setInputFiles({ name: 'exact.clustered.jsonl', mimeType: 'application/json', buffer: Buffer.from(text) });
    const summary = page.locator('[data-agreement-summary]');
    await summary.waitFor({ timeout: 60_000 });
    // Parsed and compared in the import worker, not on the page's thread.
    expect(page.workers().some((w) => w.url().includes('import.worker'))).toBe(true);
    const values = await summary.locator('dd').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    const s = want.value.summary;
    expect(values).toEqual([s.questions, s.meanRandIndex, s.meanAdjustedRandIndex, s.sameModalShare, s.modalIdenticalShare]);
    // Rows sorted by adjusted Rand index, lowest first, with each question's numbers.
    const rows = page.locator('table[data-table="agreement"] tbody tr');
    const got = await rows.evaluateAll((els) => els.map((e) => [e.getAttribute('data-id'), Number(e.querySelector('[data-ri]')!.getAttribute('data-ri')), Number(e.querySelector('[data-ari]')!.getAttribute('data-ari')), e.querySelector('[data-same]')!.getAttribute('data-same')]));
    const sorted = sortAgreement(want.value.questions, { key: 'adjustedRandIndex' }).slice(0, 50);
    expect(got).toEqual(sorted.map((q) => [q.id, q.randIndex, q.adjustedRandIndex, String(q.sameModalClass)]));
    // Sort by "Same modal class": the questions whose modal class differs come first.
    await page.locator('table[data-table="agreement"] thead button', { hasText: 'Same modal class' }).click();
    const same = await page.locator('table[data-table="agreement"] tbody td[data-same]').allTextContents();
    const differ = want.value.questions.filter((q) => !q.sameModalClass).length;
    expect(same.slice(0, differ).every((t) => t === 'no')).toBe(true);
    await page.locator('[data-panel="agreement"]').scrollIntoViewIfNeeded();
    await screenshot(page, `report-agreement-${scheme}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }
});
