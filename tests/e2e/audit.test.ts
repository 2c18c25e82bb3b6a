/**
 * The audit page (issue 30), keyboard only: a person audits 20 drawn questions of a report with
 * planted disagreements (classes merged and split, grades changed), and the κ, ARI and ECE shifts
 * the page shows equal the hand calculation below; the progress survives a reload; the audit file
 * exports and imports into another browser unchanged; the report carrying the audit opens in the
 * offline HTML file with the results; axe finds nothing on the page.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium, openPage, screenshot, widthAt } from './chromium';
import { reportToJson } from '../../src/formats/report-export';
import { drawAuditQuestions } from '../../src/pipeline/audit-plan';
import type { ReportDocument, ReportQuestion } from '../../src/model/report';
import type { Grade } from '../../src/model/rows';
import { demoDocument } from './report-fixture';
import { seriousViolations } from './axe-check';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const demo = demoDocument();
const doc: ReportDocument = { ...demo, models: [demo.models[0]] };
const model = doc.models[0];
const K = 20;
const ids = drawAuditQuestions(model.questions, K, 1).ids;
const questions = ids.map((id) => model.questions.find((q) => q.id === id)!);

/** The automatic classes by hand: answers by class, largest first, ties by first answer. */
function classesOf(q: ReportQuestion): number[][] {
  const by = new Map<number, number[]>();
  q.samples!.forEach((s, i) => by.set(s.cls, [...(by.get(s.cls) ?? []), i]));
  return [...by.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
}
// What the person does on question j: merge the two largest classes, split the first answer off, or grade otherwise.
const MERGE = new Set([2, 5, 11]);
const SPLIT = new Set([3, 8]);
const flip: Record<Grade, Grade> = { CORRECT: 'INCORRECT', INCORRECT: 'CORRECT', NOT_ATTEMPTED: 'CORRECT' };
const GRADE_FOR = new Map<number, (g: Grade) => Grade>([[1, (g) => flip[g]], [4, (g) => flip[g]], [7, (g) => flip[g]], [10, () => 'NOT_ATTEMPTED']]);
const KEY: Record<Grade, string> = { CORRECT: 'c', INCORRECT: 'i', NOT_ATTEMPTED: 'a' };

const planned = questions.map((q, j) => {
  let classes = classesOf(q);
  if (MERGE.has(j) && classes.length > 1) classes = [[...classes[0], ...classes[1]].sort((a, b) => a - b), ...classes.slice(2)];
  if (SPLIT.has(j) && classes[0].length > 1) classes = [classes[0].slice(1), ...classes.slice(1), [classes[0][0]]].sort((a, b) => b.length - a.length || a[0] - b[0]);
  return { q, classes, grade: (GRADE_FOR.get(j) ?? ((g: Grade) => g))(q.grade) };
});

// The hand calculation. κ over three categories from the confusion table.
const CATS: Grade[] = ['CORRECT', 'INCORRECT', 'NOT_ATTEMPTED'];
function handKappa(): number {
  const n = planned.length;
  const po = planned.filter((p) => p.grade === p.q.grade).length / n;
  const pe = CATS.reduce((s, c) => s + (planned.filter((p) => p.q.grade === c).length / n) * (planned.filter((p) => p.grade === c).length / n), 0);
  return (po - pe) / (1 - pe);
}
// ARI per question from the contingency table (Hubert & Arabie), 1 for identical partitions; the mean over questions.
const choose2 = (m: number) => (m * (m - 1)) / 2;
function handAri(): number {
  const ari = planned.map(({ q, classes }) => {
    const person = new Array<number>(q.n);
    classes.forEach((c, k) => c.forEach((i) => (person[i] = k)));
    const cells = new Map<string, number>(), a = new Map<number, number>(), b = new Map<number, number>();
    q.samples!.forEach((s, i) => {
      cells.set(`${s.cls}/${person[i]}`, (cells.get(`${s.cls}/${person[i]}`) ?? 0) + 1);
      a.set(s.cls, (a.get(s.cls) ?? 0) + 1);
      b.set(person[i], (b.get(person[i]) ?? 0) + 1);
    });
    const sum = (m: Map<unknown, number>) => [...m.values()].reduce((s, x) => s + choose2(x), 0);
    const index = sum(cells), sa = sum(a), sb = sum(b), expected = (sa * sb) / choose2(q.n), max = (sa + sb) / 2;
    return sa === index && sb === index ? 1 : (index - expected) / (max - expected);
  });
  return ari.reduce((s, x) => s + x, 0) / ari.length;
}
/** The ECE shift by hand: every question's (conf, y) binned; the audited ones' changes weighted N/k (a plain draw). */
function handShift(signal: 'sem1' | 'verbalized'): number {
  const bins = doc.settings.bins;
  const bin = (c: number) => {
    let k = 0;
    while (k < bins - 1 && (k + 1) * (1 / bins) <= c) k++;
    return k;
  };
  const D = new Array<number>(bins).fill(0);
  for (const q of model.questions) D[bin(q[signal])] += q.correct - q[signal];
  const after = [...D];
  const w = model.questions.length / K;
  for (const { q, classes, grade } of planned) {
    const conf = signal === 'sem1' ? classes[0].length / q.n : q.verbalized;
    after[bin(q[signal])] -= w * (q.correct - q[signal]);
    after[bin(conf)] += w * ((grade === 'CORRECT' ? 1 : 0) - conf);
  }
  const ece = (d: number[]) => d.reduce((s, x) => s + Math.abs(x), 0) / model.questions.length;
  return ece(after) - ece(D);
}

/** Tab from the question's heading to its first answer (the class's merge control may come first). */
async function firstAnswer(page: Page) {
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.hasAttribute('data-answer'))) return;
  }
  throw new Error('no answer reached by Tab');
}

async function openSaved(page: Page): Promise<string> {
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'audit-me.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('button[data-action="save-local"]').click();
  return (await page.locator('[data-saved]').getAttribute('data-saved'))!;
}

const shown = async (page: Page, selector: string, attribute: string) => Number(await page.locator(selector).first().getAttribute(attribute));

test('an audit of 20 questions made with the keyboard gives the hand-calculated κ, ARI and ECE shifts, resumes after a reload, travels as a file and in the offline HTML', async () => {
  // The planted disagreements are there: grades differ on 4 questions, classes on the merged and split ones.
  expect(planned.filter((p) => p.grade !== p.q.grade).length).toBe(4);
  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  const id = await openSaved(page);
  await page.goto(`${inject('appUrl')}#/report/${id}`);
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
    const { q, grade } = planned[j];
    await expect.poll(() => heading.textContent()).toBe(`Question ${j + 1} of ${K}`);
    expect(await page.locator('[data-audit-question] .q-text').textContent()).toBe(q.question);
    if (MERGE.has(j) || SPLIT.has(j)) {
      await firstAnswer(page);
      if (MERGE.has(j)) {
        await page.keyboard.press('m');
        await page.keyboard.press('2');
      } else await page.keyboard.press('n');
    }
    if (j === 6) {
      // Undo and redo: a split taken back, redone, taken back again.
      await firstAnswer(page);
      await page.keyboard.press('n');
      await page.keyboard.press('u');
      await page.keyboard.press('Shift+U');
      await page.keyboard.press('ControlOrMeta+z');
    }
    const sizes = await page.locator('[data-classes] > li').evaluateAll((els) => els.map((e) => e.querySelectorAll('[data-answer]').length));
    expect(sizes).toEqual(planned[j].classes.map((c) => c.length));
    await page.keyboard.press(KEY[grade]);
    if (j < K - 1) await page.keyboard.press(']');
  }
  expect(await page.locator('[data-audited]').textContent()).toBe(`${K} of ${K} audited`);

  const results = page.locator('[data-audit-results]');
  await expect.poll(() => results.locator('[data-audit-count]').textContent()).toMatch(/^20 questions audited by ana/);
  await expect.poll(() => results.getAttribute('aria-busy')).toBe('false');
  expect(await shown(page, '[data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(), 12);
  expect(await shown(page, '[data-stat="ari"]', 'data-value')).toBeCloseTo(handAri(), 12);
  expect(await shown(page, '[data-table="audit-ece-shift"] tr[data-signal="sem1"]', 'data-shift')).toBeCloseTo(handShift('sem1'), 12);
  expect(await shown(page, '[data-table="audit-ece-shift"] tr[data-signal="verbalized"]', 'data-shift')).toBeCloseTo(handShift('verbalized'), 12);
  expect(handShift('sem1')).not.toBe(0);

  // Zero axe violations, of any impact; and no sideways scroll at 390 px.
  expect(await seriousViolations(page)).toEqual([]);
  const all = await page.evaluate(async () => (await (window as unknown as { axe: { run: (d: Document) => Promise<{ violations: { id: string }[] }> } }).axe.run(document)).violations.map((v) => v.id));
  expect(all).toEqual([]);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
    await screenshot(page, `audit-390-${scheme}`);
    await widthAt(page, 1280);
    await screenshot(page, `audit-1280-${scheme}`);
  }

  // The audit file: one line per question, the person's partitions and grades.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-audit-export]').click()]);
  const file = readFileSync((await download.path())!, 'utf8');
  const lines = file.trim().split('\n').map((l) => JSON.parse(l));
  expect(lines.map((l) => [l.id, l.classes, l.grade, l.by])).toEqual(planned.map((p) => [p.q.id, p.classes, p.grade, 'ana']));

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
  expect(await shown(page, '[data-audit-results] [data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(), 12);
  await screenshot(page, 'audit-offline-html');
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();

  // Another browser: the file imported into a fresh audit of the same report gives the same numbers and the same file back.
  const other = await openPage(browser);
  const otherId = await openSaved(other.page);
  await other.page.goto(`${inject('appUrl')}#/audit/${otherId}`);
  await other.page.locator('[data-audit-import]').setInputFiles({ name: 'ana.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(file) });
  await expect.poll(() => other.page.locator('[data-audit-message]').textContent()).toContain(`Imported ${K} of your lines (as ana)`);
  await expect.poll(() => other.page.locator('[data-stat="kappa"]').getAttribute('data-value')).not.toBeNull();
  expect(await shown(other.page, '[data-stat="kappa"]', 'data-value')).toBeCloseTo(handKappa(), 12);
  const [again] = await Promise.all([other.page.waitForEvent('download'), other.page.locator('[data-audit-export]').click()]);
  expect(readFileSync((await again.path())!, 'utf8')).toBe(file);
  // A second person's lines (one grade differs) merge in: the agreement between people appears.
  const bo = lines.map((l, i) => JSON.stringify({ ...l, by: 'bo', grade: i === 0 ? flip[l.grade as Grade] : l.grade })).join('\n');
  await other.page.locator('[data-audit-import]').setInputFiles({ name: 'bo.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(bo) });
  await expect.poll(() => other.page.locator('[data-audit-alpha]').textContent()).toContain(`ana, bo, ${K} questions`);
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
