/**
 * A 40,000-question report in the built app, in Chromium: how long it takes to open, and the
 * longest main-thread task while switching views and working the table (target: none over
 * 100 ms). The report is generated with the core's simulator and scored by the pipeline's own
 * score stage (B = 1000 bootstrap), then opened through #/open like a user's file.
 *
 * Per action: wall time from the click to the next frame after the DOM settled, and the longest
 * 'longtask' entry (Chromium reports tasks over 50 ms; none means every task was under 50 ms).
 * Figures are printed, not asserted. Measured on this 2-core machine, before and after the
 * changes of commit "40,000-question report: view switches and overrides under 50 ms" (profiled
 * with CDP): Questions view 156 → about 100 ms (the table's
 * query read once per filter), sort by Id 93–135 → about 50 ms (natural keys by a scan), grade
 * override 148–220 → under 50 ms (rows packed in one loop, no 40,000-entry position map);
 * opening the file still has one task of 70–85 ms (the report's first render). Scroll regions
 * measured by their ResizeObserver instead of at mount (commit "Scroll regions measured when their
 * ResizeObserver reports"): Difficulty 61 → under 50 ms, Questions 57 → under 50, first sort by Id
 * 82 → under 50 (their longest tasks); opening still 60 ms (receiving the rows from the import
 * worker and the first render).
 */
import type { Page } from 'playwright-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultRng } from '../src/core/rng';
import { simulateSet } from '../src/core/simulate-families';
import { readAuthorsRows } from '../src/formats/authors-rows';
import { reportToJson } from '../src/formats/report-export';
import { scoreAuthorsRows } from '../src/pipeline/score-stage';
import { buildReport, importedSettings } from '../src/pipeline/score-documents';
import type { ReportDocument } from '../src/model/report';
import { startApp } from './report-app-server';

const QUESTIONS = 40_000;
const SAMPLES = 50;

/** Authors' rows for a simulated model, scored into a report document with no per-sample detail. */
function report40k(): ReportDocument {
  const rng = defaultRng(40);
  const sims = simulateSet({ count: QUESTIONS, n: SAMPLES, difficulty: 'mixed', classes: 6, seed: 3 });
  const clustered: string[] = [];
  const graded: string[] = [];
  sims.forEach((q, i) => {
    const id = `q${i}`;
    const labels = q.sizes.map((_, k) => `answer ${k}`);
    const conf = Array.from({ length: SAMPLES }, () => (rng.random() < 0.05 ? null : Math.round((0.5 + 0.5 * rng.random()) * 100) / 100));
    const answers = Array.from(q.assignments, (k) => labels[k]);
    clustered.push(JSON.stringify({
      id, question: `Synthetic question ${i}?`, gold_answer: 'gold', model: 'simulated-40k', n_samples: SAMPLES,
      results: answers, answer_extracted: answers, confidence_verbalized: conf,
      n_clusters: labels.length, cluster_labels: labels, cluster_assignments: Array.from(q.assignments), cluster_sizes: q.sizes,
      modal_cluster: q.modal, modal_cluster_label: labels[q.modal],
    }));
    graded.push(JSON.stringify({ id, model: 'simulated-40k', question: '', gold_answer: 'gold', modal_cluster_label: labels[q.modal], grade: q.y ? 'CORRECT' : 'INCORRECT', Y: q.y }));
  });
  const rows = readAuthorsRows({ text: clustered.join('\n'), file: 'synthetic.clustered.jsonl' }, { text: graded.join('\n'), file: 'synthetic.graded.jsonl' });
  if (!rows.ok) throw new Error(rows.error.message);
  const model = scoreAuthorsRows(rows.value, { samples: 'none' }, 'simulated-40k');
  return buildReport([model], { title: '40,000 simulated questions', dataset: { name: 'synthetic', source: 'bench' }, settings: importedSettings({}, SAMPLES) });
}

/** Runs `act` in the page and measures until two frames after it; returns wall ms and the longest long task. */
async function measure(page: Page, act: string, arg?: string): Promise<{ ms: number; longest: number }> {
  return page.evaluate(
    async ([act, arg]) => {
      const w = window as unknown as { __longtasks: number[] };
      w.__longtasks = [];
      const t0 = performance.now();
      const el = document.querySelector(act) as HTMLElement | null;
      if (!el) throw new Error(`no element ${act}`);
      if (arg !== undefined && el instanceof HTMLSelectElement) {
        el.value = arg;
        el.dispatchEvent(new Event('change', { bubbles: true }));
      } else if (arg !== undefined && el instanceof HTMLInputElement) {
        el.value = arg;
        el.dispatchEvent(new Event('input', { bubbles: true }));
      } else el.click();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const ms = performance.now() - t0;
      // Long-task entries arrive asynchronously after the task ends.
      await new Promise((r) => setTimeout(r, 150));
      return { ms, longest: Math.max(0, ...w.__longtasks) };
    },
    [act, arg] as [string, string | undefined],
  );
}

export default async function report40kBench(): Promise<void> {
  const t0 = performance.now();
  const doc = report40k();
  const json = reportToJson(doc);
  console.log(`report: ${QUESTIONS} questions scored in ${((performance.now() - t0) / 1000).toFixed(1)} s (Node), ${(json.length / 1e6).toFixed(1)} MB of JSON`);
  const dir = mkdtempSync(path.join(tmpdir(), 'semece-bench-'));
  const file = path.join(dir, 'report-40k.json');
  writeFileSync(file, json);
  const app = await startApp();
  try {
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(() => {
      const w = window as unknown as { __longtasks: number[] };
      w.__longtasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longtasks.push(e.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${app.url}#/open`);
    await page.locator('input[data-control="report-file"]').waitFor({ state: 'attached' });
    await page.evaluate(() => ((window as unknown as { __longtasks: number[] }).__longtasks = []));
    const openStart = Date.now();
    // A file on disk: Playwright hands a path to Chromium directly, where a buffer would be
    // decoded by script in the page and show up as the page's own long task.
    await page.locator('input[data-control="report-file"]').setInputFiles(file);
    await page.locator('[data-chart="reliability"] rect.bar').first().waitFor({ state: 'attached', timeout: 120_000 });
    const openMs = Date.now() - openStart;
    const openLongest = await page.evaluate(() => Math.max(0, ...(window as unknown as { __longtasks: number[] }).__longtasks));
    console.log(`open (read, validate, render): ${openMs} ms; longest task ${openLongest.toFixed(0)} ms (loading, not a view switch)`);

    const steps: [string, string, string?][] = [
      ['view: Difficulty', 'button[data-view="difficulty"]'],
      ['view: Questions', 'button[data-view="questions"]'],
      ['table: sort by Sem1', 'th:nth-child(5) button.sort'],
      ['table: sort by Id', 'th:nth-child(2) button.sort'],
      ['table: next page', 'nav.pager button:last-child'],
      ['table: filter incorrect', 'select[data-control="outcome"]', 'incorrect'],
      ['table: search "q1234"', 'input[data-control="search"]', 'q1234'],
      ['table: open drill-down', '[data-table="questions"] tbody tr:first-child button.open'],
      ['view: Calibration', 'button[data-view="calibration"]'],
      ['calibration: overlay Sem2', 'input[data-signal="sem2"]'],
      ['calibration: equal-mass bins', 'select[data-control="binning"]', 'mass'],
      ['view: Difficulty again', 'button[data-view="difficulty"]'],
      ['view: Questions again', 'button[data-view="questions"]'],
    ];
    // Three passes over the same actions: the first includes first-use costs (code compiled on
    // first run); the median damps other processes on this shared 2-core machine.
    const PASSES = 3;
    const results = steps.map(() => [] as { ms: number; longest: number }[]);
    for (let pass = 0; pass < PASSES; pass++) {
      for (let i = 0; i < steps.length; i++) {
        const [, selector, arg] = steps[i];
        // Reset the table state the actions depend on, so each pass starts the same way.
        if (i === 0 && pass > 0) {
          await measure(page, 'button[data-view="questions"]');
          await measure(page, 'input[data-control="search"]', '');
          await measure(page, 'select[data-control="outcome"]', 'all');
          await measure(page, 'button[data-view="calibration"]');
          await measure(page, 'input[data-signal="sem2"]');
          await measure(page, 'select[data-control="binning"]', 'width');
        }
        results[i].push(await measure(page, selector, arg));
      }
    }
    const fmtTask = (v: number) => (v > 0 ? `${v.toFixed(0)} ms` : '< 50');
    const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`  ${'action'.padEnd(32)} ${'to next frame (first / median)'.padEnd(32)} longest task (first / median / max)`);
    let worstMedian = 0;
    let worst = 0;
    steps.forEach(([label], i) => {
      const r = results[i];
      const tasks = r.map((x) => x.longest);
      worstMedian = Math.max(worstMedian, mid(tasks));
      worst = Math.max(worst, ...tasks);
      console.log(
        `  ${label.padEnd(32)} ${`${r[0].ms.toFixed(0)} / ${mid(r.map((x) => x.ms)).toFixed(0)} ms`.padEnd(32)} ${fmtTask(tasks[0])} / ${fmtTask(mid(tasks))} / ${fmtTask(Math.max(...tasks))}`,
      );
    });
    console.log(
      `longest main-thread task when switching views and working the table: median over passes ${fmtTask(worstMedian)}, worst single ${fmtTask(worst)} (target < 100 ms; '< 50' means no long task was reported)`,
    );

    // Not a view switch: a grade override recomputes every metric (bootstrap B = 1000 over 40,000 rows).
    await page.locator('button[data-view="questions"]').waitFor();
    const r = await page.evaluate(async () => {
      const w = window as unknown as { __longtasks: number[] };
      w.__longtasks = [];
      const open = document.querySelector('[data-table="questions"] tbody tr button.open') as HTMLElement;
      open.click();
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const sel = document.querySelector('select[data-control="grade"]') as HTMLSelectElement;
      const t0 = performance.now();
      sel.value = sel.value === 'CORRECT' ? 'INCORRECT' : 'CORRECT';
      sel.dispatchEvent(new Event('change', { bubbles: true }));
      await new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res)));
      const ms = performance.now() - t0;
      await new Promise((res) => setTimeout(res, 150));
      return { ms, longest: Math.max(0, ...w.__longtasks) };
    });
    const done = Date.now();
    await page.waitForFunction(() => document.querySelector('[data-recomputing="false"]') !== null, undefined, { timeout: 120_000 });
    console.log(
      `grade override on 40,000 questions: ${r.ms.toFixed(0)} ms to next frame, longest main-thread task ${r.longest > 0 ? `${r.longest.toFixed(0)} ms` : '< 50 ms'}; ` +
        `metrics recomputed in the worker (bootstrap B = 1000) ${((Date.now() - done) / 1000 + r.ms / 1000).toFixed(1)} s after the click`,
    );
    if (errors.length) console.log(`page errors: ${errors.join('; ')}`);
    await context.close();
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report40kBench().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
