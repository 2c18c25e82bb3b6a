/**
 * Checks shared by the share-link and offline-HTML tests: the numbers a rendered ReportView
 * shows equal the numbers of the report document it was given.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { ReportDocument } from '../../src/model/report';

const three = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

/** Headline ECEs (exact, from data-value, and as printed) of every model. */
export async function expectHeadlineNumbers(page: Page, doc: ReportDocument) {
  for (const m of doc.models) {
    const row = page.locator(`table[data-table="headline"] tr[data-model="${m.model.replace(/"/g, '\\"')}"]`);
    await expect.poll(() => row.count()).toBe(1);
    for (const s of ['sem1', 'sem2', 'verbalized'] as const) {
      const ece = m.metrics.signals[s]?.ece;
      if (ece === undefined) continue;
      const cell = row.locator(`td[data-ece="${s}"]`);
      expect(Number(await cell.getAttribute('data-value'))).toBe(ece);
      expect((await cell.textContent())!.trim().startsWith(three(ece))).toBe(true);
    }
  }
}

/** The first model's question rows on the Questions tab: Sem1, Sem2, verbalized, margin per id. */
export async function expectQuestionRows(page: Page, doc: ReportDocument) {
  await page.locator('[data-view="questions"]').click();
  const rows = page.locator('table[data-table="questions"] tbody tr');
  const model = doc.models[0];
  await expect.poll(() => rows.count()).toBe(Math.min(50, model.questions.length));
  // Find columns by their header, so the check survives reordered or added columns.
  const headers = (await page.locator('table[data-table="questions"] thead th').allTextContents()).map((t) => t.trim());
  const col = (label: string) => {
    const i = headers.findIndex((h) => h === label || h.startsWith(`${label} `));
    expect(i, `column ${label} in ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
    return i;
  };
  const at = { question: col('Question'), modal: col('Modal answer'), gold: col('Reference'), sem1: col('Sem1'), sem2: col('Sem2'), verbalized: col('Verbalized'), margin: col('Margin Δ') };
  const count = await rows.count();
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    const id = await row.getAttribute('data-id');
    const q = model.questions.find((x) => x.id === id)!;
    expect(q, `row ${id} is a question of the report`).toBeDefined();
    const cells = (await row.locator('td').allTextContents()).map((t) => t.trim());
    expect(cells[at.question]).toBe(q.question);
    // The graded answer beside its reference, so a grade is checked without opening the row.
    expect([cells[at.modal], cells[at.gold]]).toEqual([q.modalLabel, q.gold]);
    expect([cells[at.sem1], cells[at.sem2], cells[at.verbalized], cells[at.margin]]).toEqual([three(q.sem1), three(q.sem2), three(q.verbalized), three(q.margin)]);
  }
}
