/**
 * Open report's "Verify against a sample file": a report written as `semece score --report` writes
 * it (with its manifest) matches its own clustered and graded files, and a clustered file with one
 * answer changed is named as differing; the panel fits 390 px with no serious axe finding.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, widthAt } from './chromium';
import { seriousViolations } from './axe-check';
import { readAuthorsRows } from '../../src/formats/authors-rows';
import { reportToJson } from '../../src/formats/report-export';
import { reportManifest } from '../../src/model/report-manifest';
import { scoreAuthorsRows } from '../../src/pipeline/score-stage';
import { buildReport, importedSettings } from '../../src/pipeline/score-documents';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const fixture = (name: string) => readFileSync(`tests/fixtures/reference-sample/${name}`, 'utf8');

test('a report verifies against its own rows and names the question whose answer was changed', async () => {
  const clustered = fixture('clustered.jsonl');
  const graded = fixture('graded.jsonl');
  const rows = readAuthorsRows({ text: clustered, file: 'clustered.jsonl' }, { text: graded, file: 'graded.jsonl' });
  if (!rows.ok) throw new Error(rows.error.message);
  const options = { B: 50, samples: 'raw' as const };
  const model = scoreAuthorsRows(rows.value, options);
  const doc = buildReport([model], { title: 'Verified report', dataset: { name: 'clustered.jsonl' }, settings: importedSettings(options, model.questions[0].n, rows.value.methods), createdAt: '2026-12-04T00:00:00.000Z' });
  doc.manifest = await reportManifest(doc);

  const { page, context, consoleErrors, offLoopback } = await openPage(browser);
  await page.goto(`${inject('appUrl')}#/open`);
  await page.locator('input[data-control="report-file"]').setInputFiles({ name: 'report.json', mimeType: 'application/json', buffer: Buffer.from(reportToJson(doc)) });
  await page.locator('[data-verify] summary').click();
  const file = (name: string, text: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await page.locator('[data-control="verify-clustered"]').setInputFiles(file('clustered.jsonl', clustered));
  await page.locator('[data-control="verify-graded"]').setInputFiles(file('graded.jsonl', graded));
  await page.locator('[data-action="verify"]').click();
  await page.locator('[data-verify-result]').waitFor({ timeout: 60_000 });
  expect(await page.locator('[data-verify]').textContent()).toContain('matches what these rows give');
  expect(await page.locator('[data-verify-result="match"]').textContent()).toContain('every manifest hash');
  expect(await widthAt(page, 390)).toBeLessThanOrEqual(390);
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  const lines = clustered.trim().split('\n').map((l) => JSON.parse(l));
  lines[0].answer_extracted[0] = `${lines[0].answer_extracted[0]} (changed)`;
  await page.locator('[data-control="verify-clustered"]').setInputFiles(file('changed.jsonl', lines.map((l) => JSON.stringify(l)).join('\n')));
  await page.locator('[data-action="verify"]').click();
  await page.locator('[data-verify-result="differ"]').waitFor({ timeout: 60_000 });
  const listed = await page.locator('[data-verify] .diffs').textContent();
  expect(listed).toContain(`questions[${lines[0].id}].samples[0].answer`);
  expect(listed).toContain(`manifest.models[0].questions[${lines[0].id}]`);
  expect(consoleErrors).toEqual([]);
  expect(offLoopback).toEqual([]);
  await context.close();
});
