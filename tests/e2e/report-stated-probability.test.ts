import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { elementShot, launchChromium, openPage } from './chromium';
import { demoDocument } from './report-fixture';
import { reportToJson } from '../../src/formats/report-export';
import type { ReportDocument } from '../../src/model/report';
import { mcReportDocument } from '../../src/multiple-choice/report-document';
import { mcBaselineSection } from '../../src/multiple-choice/report-section';
import { mcOutcome } from '../../src/multiple-choice/outcome';
import { mcRunScores } from '../../src/multiple-choice/brier-scoring';
import { summarizeMcRuns } from '../../src/multiple-choice/runs-summary';
import type { McQuestion } from '../../src/multiple-choice/prompt';

const LETTERS = ['A', 'B', 'C', 'D'];
const Q: McQuestion[] = [
  { id: 'q1', question: 'one?', options: ['a', 'b', 'c', 'd'], letters: LETTERS, gold: 0, category: 'geography <b>bold</b>' },
  { id: 'q2', question: 'two?', options: ['a', 'b', 'c', 'd'], letters: LETTERS, gold: 1, category: 'history' },
];
const j = (answer: string, p: number) => JSON.stringify({ answer, probability: p });
// Brier of runs 1 and 2: 0.2 and 0.125 (hand-computed in tests/unit/multiple-choice/report-section.test.ts); run 3 has a refusal on q1.
const REPLIES = [
  [j('A', 80), j('C', 60)],
  [j('A', 100), j('B', 50)],
  ['I cannot answer that.', j('B', 90)],
];

function baselineInput() {
  const rows = REPLIES.flatMap((perQ, run) => perQ.map((raw, i) => ({ ...mcOutcome(Q[i], raw, run), run, seed: run, raw, logprob: null })));
  const summary = summarizeMcRuns(REPLIES.map((_, r) => mcRunScores(rows.filter((row) => row.run === r))));
  return { rows, summary };
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openReport(page: Page, doc: ReportDocument) {
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('h1', { hasText: 'Open a report' }).waitFor();
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'mc-report.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[data-stated-panel] [data-chart="brier"] rect.bar').first().waitFor({ state: 'attached' });
}

async function shoot(page: Page, name: string) {
  await elementShot(page.locator('[data-stated-panel]'), name);
}

/** Checks the panel's numbers and the baseline line against the document's section. */
async function checkPanel(page: Page, doc: ReportDocument) {
  const b = doc.models[0].baseline!;
  const panel = page.locator('[data-stated-panel]');
  const bars = panel.locator('rect.bar');
  expect(await bars.count()).toBe(b.runs + 1);
  for (let i = 0; i < b.runs; i++) expect(Number(await bars.nth(i).getAttribute('data-brier'))).toBe(b.brier.perRun[i]);
  const mean = panel.locator('rect.bar[data-bar="mean"]');
  expect(Number(await mean.getAttribute('data-brier'))).toBe(b.brier.mean);
  expect(Number(await panel.locator('.whisker').getAttribute('data-sd'))).toBe(b.brier.sd);
  // The dashed line is drawn where the y scale puts the baseline: linear between y(0) and y(mean).
  const line = panel.locator('g.baseline');
  expect(Number(await line.getAttribute('data-baseline'))).toBe(b.baselineBrier);
  const lineY = Number(await line.locator('line').getAttribute('y1'));
  const top = Number(await mean.getAttribute('y'));
  const zero = top + Number(await mean.getAttribute('height'));
  expect(lineY).toBeCloseTo(zero + (top - zero) * (b.baselineBrier / b.brier.mean), 6);
  expect(await line.locator('line').evaluate((el) => getComputedStyle(el).strokeDasharray)).not.toBe('none');
  const brierText = await panel.locator('[data-stated-brier]').textContent();
  expect(brierText).toContain(`the Brier score of the stated probability is ${b.brier.mean.toFixed(3)} ± ${b.brier.sd.toFixed(3)}`);
  expect(brierText).toContain('would score 0.1875');
  expect(brierText).toContain('Over 3 runs of 2 questions (4 options)');
  expect(await panel.locator('[data-stated-accuracy]').textContent()).toContain(`${(b.accuracy.mean * 100).toFixed(1)}%`);
  expect(await panel.locator('[data-stated-failures]').textContent()).toContain('1 of 6 replies were scored as uniform guesses');
  expect(await panel.locator('[data-stated-failures]').textContent()).toContain('1 refusal');
  const rows = panel.locator('[data-stated-categories] tbody tr');
  expect(await rows.count()).toBe(2);
  // A category name is text, never markup.
  expect(await rows.nth(0).locator('th').textContent()).toBe('geography <b>bold</b>');
  expect(await panel.locator('[data-stated-categories] b').count()).toBe(0);
  expect(await rows.nth(1).locator('td').nth(1).textContent()).toBe(b.byCategory[1].brier.toFixed(3));
  // Keyboard: a bar takes focus and shows its value.
  await mean.focus();
  expect(await panel.locator('.chart-tooltip').textContent()).toContain(b.brier.mean.toFixed(3));
}

test('#/open shows the stated-probability panel of a baseline-only report, light and dark', async () => {
  const doc = mcReportDocument({ model: 'mock/mc', dataset: { name: 'mc.jsonl' }, baseline: baselineInput(), settings: { samples: 0, temperature: 1, maxTokens: 400 } });
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await openReport(page, doc);
  await checkPanel(page, doc);
  expect(await page.locator('[data-no-sem-ece]').count()).toBe(1);
  await page.locator('[data-stated-panel]').evaluate((el) => (document.activeElement as HTMLElement | null)?.blur());
  await shoot(page, 'stated-probability-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'stated-probability-dark');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});

test('#/open shows the panel beside the Sem-ECE views when a scored report also has the baseline', async () => {
  const doc = demoDocument();
  doc.demo = false;
  doc.models[0].baseline = mcBaselineSection(baselineInput());
  const { page, context, consoleErrors } = await openPage(browser);
  await openReport(page, doc);
  await checkPanel(page, doc);
  await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached' });
  expect(await page.locator('[data-no-sem-ece]').count()).toBe(0);
  expect(consoleErrors).toEqual([]);
  await context.close();
});
