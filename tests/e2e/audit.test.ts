/**
 * The audit page (issue 30), keyboard only, on a real run: the wizard runs 30 demo questions
 * against the loopback mock provider, and a person audits 20 drawn questions of the report the app
 * saved, planting disagreements (classes merged and split, grades changed). The κ, ARI and ECE
 * shifts the page shows equal the hand calculation (audit-hand-calculation.ts) made from that
 * report as the app exports it; the progress survives a reload; the audit file exports and imports
 * into another browser unchanged; the report carrying the audit opens in the offline HTML file with
 * the results; axe finds nothing on the page.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPage, screenshot, widthAt } from './chromium';
import { startRunThroughWizard } from './run-helpers';
import { closeWithMock, demoMockQuestions, launchWithMock } from './wizard-helpers';
import { classesOf, flip, handAri, handKappa, handShift, plantDisagreements } from './audit-hand-calculation';
import type { MockProviderServer, MockQuestion } from '../mock/provider-server';
import { DEMO_QUESTIONS } from '../../src/demo/questions';
import { parseReport } from '../../src/formats/report-import';
import { drawAuditQuestions } from '../../src/pipeline/audit-plan';
import type { Grade } from '../../src/model/rows';
import { loadAxe, seriousViolations } from './axe-check';

const QUESTIONS = DEMO_QUESTIONS.slice(0, 30);
/** Few samples a question: a quick run, and classes small enough to see whole. */
const N = 8;
const K = 20;

/**
 * The mock's model: the demo's answer weights flattened (their square roots, so most questions
 * get a runner-up among 8 samples), its favourite wrong on every third question (the top two
 * weights swapped: the grader marks it INCORRECT), its stated confidence spread over the bins.
 */
function mockModel(): MockQuestion[] {
  return demoMockQuestions(QUESTIONS).map((q, i) => {
    const weights = Object.entries(q.answers).map(([label, w]): [string, number] => [label, Math.sqrt(w)]);
    if (i % 3 === 2) [weights[0][1], weights[1][1]] = [weights[1][1], weights[0][1]];
    return { ...q, answers: Object.fromEntries(weights), confidence: 30 + ((i * 17) % 65) };
  });
}

let browser: Browser;
let mock: MockProviderServer;
beforeAll(async () => {
  ({ browser, mock } = await launchWithMock({ apiKey: 'mock-key', latencyMs: 5, questions: mockModel() }));
});
afterAll(() => closeWithMock(browser, mock));

const KEY: Record<Grade, string> = { CORRECT: 'c', INCORRECT: 'i', NOT_ATTEMPTED: 'a' };

/** Tab from the question's heading to its first answer (the class's merge control may come first). */
async function firstAnswer(page: Page) {
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.hasAttribute('data-answer'))) return;
  }
  throw new Error('no answer reached by Tab');
}

/** Opens a report file on the Open page and saves it in this browser; its saved id. */
async function openSaved(page: Page, json: string): Promise<string> {
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'audit-me.json', mimeType: 'application/json', buffer: Buffer.from(json) });
  await page.locator('button[data-action="save-local"]').click();
  return (await page.locator('[data-saved]').getAttribute('data-saved'))!;
}

const shown = async (page: Page, selector: string, attribute: string) => Number(await page.locator(selector).first().getAttribute(attribute));

test('an audit of 20 questions of a mock run made with the keyboard gives the hand-calculated κ, ARI and ECE shifts, resumes after a reload, travels as a file and in the offline HTML', async () => {
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await startRunThroughWizard(page, inject('appUrl'), { demoCount: QUESTIONS.length, baseUrl: `${mock.url}/v1`, model: 'gpt-4o-mini', key: 'mock-key', n: N, concurrency: 8 });
  const open = page.getByRole('link', { name: 'Open the report' });
  await open.waitFor({ timeout: 120_000 });
  await open.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/report\//);
  const id = decodeURIComponent(page.url().split('#/report/')[1]);

  // The report as the app saved it, through its own JSON export: what the hand calculation reads.
  const [saved] = await Promise.all([page.waitForEvent('download'), page.locator('[data-report-actions] [data-action="json"]').click()]);
  const reportJson = readFileSync((await saved.path())!, 'utf8');
  const parsed = parseReport(reportJson);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const doc = parsed.value;
  expect(doc.models).toHaveLength(1);
  const model = doc.models[0];
  expect(model.questions).toHaveLength(QUESTIONS.length);
  // The audit reads the answers: a run this small keeps every question's samples in its report.
  for (const q of model.questions) expect(q.samples?.length, q.id).toBe(N);
  const ids = drawAuditQuestions(model.questions, K, 1).ids;
  const { planted, undoAt } = plantDisagreements(ids.map((qid) => model.questions.find((q) => q.id === qid)!));
  const bins = doc.settings.bins;

  // The planted disagreements are there: grades differ on 4 questions, classes on 3 merged and 2 split ones, one more split undone.
  expect(planted.filter((p) => p.grade !== p.q.grade)).toHaveLength(4);
  expect(planted.map((p) => p.edit).filter((e) => e === 'merge')).toHaveLength(3);
  expect(planted.map((p) => p.edit).filter((e) => e === 'split')).toHaveLength(2);
  expect(planted.filter((p) => JSON.stringify(p.classes) !== JSON.stringify(classesOf(p.q)))).toHaveLength(5);
  expect(undoAt).toBeGreaterThanOrEqual(0);
  // The grader's side has both grades among the drawn questions, so κ has something to agree on.
  expect(new Set(planted.map((p) => p.q.grade)).size).toBeGreaterThan(1);

  await page.locator('[data-audit-link]').focus();
  await page.keyboard.press('Enter');
  await page.locator('[data-person]').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('ana');
  await page.keyboard.press('Tab');
  await page.locator('[data-plan-k]').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(String(K));
  await page.keyboard.press('Tab');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  const heading = page.locator('#audit-question-title');

  for (let j = 0; j < K; j++) {
    if (j === 10) {
      // Halfway, the page is reloaded: it resumes at the first question not yet graded, the edits kept.
      await page.reload();
      await expect.poll(() => heading.textContent()).toBe(`Question 11 of ${K}`);
      expect(await page.locator('[data-audited]').textContent()).toBe(`10 of ${K} audited`);
      await heading.focus();
    }
    const { q, grade, edit, classes } = planted[j];
    await expect.poll(() => heading.textContent()).toBe(`Question ${j + 1} of ${K}`);
    expect(await page.locator('[data-audit-question] .q-text').textContent()).toBe(q.question);
    if (edit) {
      await firstAnswer(page);
      if (edit === 'merge') {
        await page.keyboard.press('m');
        await page.keyboard.press('2');
      } else await page.keyboard.press('n');
    }
    if (j === undoAt) {
      // Undo and redo: a split taken back, redone, taken back again.
      await firstAnswer(page);
      await page.keyboard.press('n');
      await page.keyboard.press('u');
      await page.keyboard.press('Shift+U');
      await page.keyboard.press('ControlOrMeta+z');
    }
    const sizes = await page.locator('[data-classes] > li').evaluateAll((els) => els.map((e) => e.querySelectorAll('[data-answer]').length));
    expect(sizes).toEqual(classes.map((c) => c.length));
    await page.keyboard.press(KEY[grade]);
    if (j < K - 1) await page.keyboard.press(']');
  }
  expect(await page.locator('[data-audited]').textContent()).toBe(`${K} of ${K} audited`);

  const results = page.locator('[data-audit-results]');
  await expect.poll(() => results.locator('[data-audit-count]').textContent()).toMatch(/^20 questions audited by ana/);
  await expect.poll(() => results.getAttribute('aria-busy')).toBe('false');
  expect(await shown(page, '[data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(planted), 12);
  expect(await shown(page, '[data-stat="ari"]', 'data-value')).toBeCloseTo(handAri(planted), 12);
  expect(await shown(page, '[data-table="audit-ece-shift"] tr[data-signal="sem1"]', 'data-shift')).toBeCloseTo(handShift(model, planted, bins, 'sem1'), 12);
  expect(await shown(page, '[data-table="audit-ece-shift"] tr[data-signal="verbalized"]', 'data-shift')).toBeCloseTo(handShift(model, planted, bins, 'verbalized'), 12);
  expect(handShift(model, planted, bins, 'sem1')).not.toBe(0);

  // Zero axe violations, of any impact; and no sideways scroll at 390 px.
  await loadAxe(page);
  const all = await page.evaluate(async () => (await (window as unknown as { axe: { run: (d: Document) => Promise<{ violations: { id: string }[] }> } }).axe.run(document)).violations.map((v) => v.id));
  expect(all).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
    await screenshot(page, `audit-390-${scheme}`);
    await widthAt(page, 1280);
    await screenshot(page, `audit-1280-${scheme}`);
  }

  // The audit file: the plan first (the seeded draw, the half-width the form stated), then one line per question, the person's partitions and grades.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-audit-export]').click()]);
  const file = readFileSync((await download.path())!, 'utf8');
  const [planLine, ...lines] = file.trim().split('\n').map((l) => JSON.parse(l));
  expect(planLine).toEqual({ plan: { by: 'ana', draw: 'plain', seed: 1, half_width: 0.1, ids } });
  expect(lines.map((l) => [l.id, l.classes, l.grade, l.by])).toEqual(planted.map((p) => [p.q.id, p.classes, p.grade, 'ana']));

  // Attached to the report: its offline HTML file shows the same results.
  await page.locator('[data-audit-attach]').click();
  await expect.poll(() => page.locator('[data-audit-message]').textContent()).toContain('now carries');
  await page.goto(`${inject('appUrl')}#/report/${id}`);
  await expect.poll(() => page.locator('[data-report] [data-audit-results] [data-stat="kappa"]').getAttribute('data-value')).not.toBeNull();
  const [html] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-action="html"]').click()]);
  const htmlFile = path.join(mkdtempSync(path.join(tmpdir(), 'semece-audit-')), 'audited.html');
  writeFileSync(htmlFile, readFileSync((await html.path())!));
  await page.goto(pathToFileURL(htmlFile).href);
  await expect.poll(() => page.locator('[data-audit-results] [data-stat="kappa"]').getAttribute('data-value'), { timeout: 30_000 }).not.toBeNull();
  expect(await shown(page, '[data-audit-results] [data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(planted), 12);
  await expect.poll(() => page.locator('[data-audit-plans]').textContent()).toContain(`ana: ${K} questions drawn with seed 1, sized for ±0.1`);
  await screenshot(page, 'audit-offline-html');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();

  // Another browser: the file imported into a fresh audit of the same report gives the same numbers and the same file back.
  const other = await openPage(browser);
  const otherId = await openSaved(other.page, reportJson);
  await other.page.goto(`${inject('appUrl')}#/audit/${otherId}`);
  await other.page.locator('[data-audit-import]').setInputFiles({ name: 'ana.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  await expect.poll(() => other.page.locator('[data-audit-message]').textContent()).toContain(`Imported ${K} of your lines (as ana)`);
  // The plan came with the file: the same questions, in the same order, to go on with here.
  await expect.poll(() => other.page.locator('[data-plan-summary]').textContent()).toContain('drawn with seed 1');
  await expect.poll(() => other.page.locator('[data-stat="kappa"]').getAttribute('data-value')).not.toBeNull();
  expect(await shown(other.page, '[data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(planted), 12);
  const [again] = await Promise.all([other.page.waitForEvent('download'), other.page.locator('[data-audit-export]').click()]);
  expect(readFileSync((await again.path())!, 'utf8')).toBe(file);
  // A second person's lines (one grade differs) merge in: the agreement between people appears.
  // Bo's file says it was drawn by another seed: both people's lines are kept, and the page says the draws differ.
  const boPlan = JSON.stringify({ plan: { by: 'bo', draw: 'plain', seed: 9, ids } });
  const bo = [boPlan, ...lines.map((l, i) => JSON.stringify({ ...l, by: 'bo', grade: i === 0 ? flip[l.grade as Grade] : l.grade }))].join('\n');
  await other.page.locator('[data-audit-import]').setInputFiles({ name: 'bo.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(bo) });
  await expect.poll(() => other.page.locator('[data-audit-alpha]').textContent()).toContain(`ana, bo, ${K} questions`);
  await expect.poll(() => other.page.locator('[data-audit-plan-mismatch]').textContent()).toContain('different plans (ana: 20 questions drawn with seed 1, sized for ±0.1; bo: 20 questions drawn with seed 9)');
  expect(other.consoleErrors).toEqual([]);
  await other.context.close();
});

test('the classroom exercise: repairing a wrong merge by keyboard brings Sem1 and Sem2 down to the true classes', async () => {
  const { page, context, consoleErrors } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/classroom`);
  const lesson = page.locator('[data-lesson="audit"]');
  await lesson.waitFor({ timeout: 60_000 });
  const { auditLessonQuestions } = await import('../../src/ui/classroom/audit-lesson');
  const seed = Number(await page.locator('[data-control="seed"]').inputValue().catch(() => '1')) || 1;
  const q = auditLessonQuestions(seed)[0];
  expect(q.wrongMerge).toBe(true);
  // The merged class is the first; the answers of the second meaning (the truth's other classes) go to a new class, then each to it.
  const strays = q.truth.filter((c) => !c.includes(q.truth[0][0])).find((c) => q.automatic[0].includes(c[0]))!;
  for (const [k, a] of strays.entries()) {
    await lesson.locator(`[data-answer="${a}"]`).focus();
    // The new class's number is where it stands now (classes are ordered by size).
    const target = k === 0 ? 'n' : String(Number(await lesson.locator(`[data-class]:has([data-answer="${strays[0]}"])`).getAttribute('data-class')) + 1);
    await page.keyboard.press(target);
  }
  const row = lesson.locator('tr[data-question="0"]');
  await expect.poll(() => row.getAttribute('data-fixed')).toBe('true');
  const cells = (await row.locator('td').allTextContents()).map(Number);
  expect(cells[1]).toBe(cells[2]);
  expect(cells[0]).toBeGreaterThan(cells[1]);
  expect(cells[4]).toBe(cells[5]);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'classroom-audit-lesson');
  expect(consoleErrors).toEqual([]);
  await context.close();
});
