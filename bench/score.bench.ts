/**
 * The score stage at the paper's scale, end to end: 40,000 questions × 50 samples of synthetic
 * authors' rows (JSONL text, clustered + graded) → parse and validate → per-question estimators
 * → the three paper ECEs → the paired bootstrap (B = 1000). Prints ms per stage and the total;
 * target under 1.5 s on the 2-core machine (the authors' Python needs ~14 s). Then the full
 * stage as the app runs it (every companion metric, ECE intervals, regimes) for reference.
 * Figures are printed, not asserted.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { pairedBootstrap } from '../src/core/bootstrap';
import { eceEqualWidth } from '../src/core/calibration';
import { defaultRng } from '../src/core/rng';
import { simulateSet } from '../src/core/simulate-families';
import { readAuthorsRows } from '../src/formats/authors-rows';
import { estimateQuestions, modelMetrics, reportQuestions, scoreAuthorsRows } from '../src/pipeline/score';

const QUESTIONS = 40_000;
const SAMPLES = 50;

/** Authors' clustered and graded JSONL for a synthetic cell (mixed difficulty, up to 6 classes). */
function syntheticFiles(): { clustered: string; graded: string } {
  const rng = defaultRng(2024);
  const sims = simulateSet({ count: QUESTIONS, n: SAMPLES, difficulty: 'mixed', classes: 6, seed: 1 });
  const clustered: string[] = [];
  const graded: string[] = [];
  sims.forEach((q, i) => {
    const id = `q${i}`;
    const K = q.sizes.length;
    const labels = Array.from({ length: K }, (_, k) => `answer ${k}`);
    const conf = Array.from({ length: SAMPLES }, () => (rng.random() < 0.1 ? null : Math.round(rng.random() * 100) / 100));
    const answers = Array.from(q.assignments, (k) => labels[k]);
    clustered.push(JSON.stringify({
      id, question: `Question ${i}?`, gold_answer: 'gold', model: 'synthetic', n_samples: SAMPLES,
      results: answers.map((a, j) => `Answer: ${a}\nConfidence: ${conf[j] === null ? '' : Math.round(conf[j]! * 100)}%`),
      answer_extracted: answers, confidence_verbalized: conf,
      n_clusters: K, cluster_labels: labels, cluster_assignments: Array.from(q.assignments), cluster_sizes: q.sizes,
      modal_cluster: q.modal, modal_cluster_label: labels[q.modal],
    }));
    graded.push(JSON.stringify({
      id, model: 'synthetic', question: `Question ${i}?`, gold_answer: 'gold', modal_cluster_label: labels[q.modal],
      grade: q.y ? 'CORRECT' : 'INCORRECT', Y: q.y,
    }));
  });
  return { clustered: clustered.join('\n') + '\n', graded: graded.join('\n') + '\n' };
}

/** Wall time, and CPU time of the process beside it: on a shared machine the two differ. */
function timed<T>(label: string, totals: number[], run: () => T, cpuTotals: number[] = []): T {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const value = run();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  totals.push(ms);
  cpuTotals.push((cpu.user + cpu.system) / 1000);
  console.log(`  ${label.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms   (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`);
  return value;
}

export default async function bench(): Promise<void> {
  const t0 = performance.now();
  const files = syntheticFiles();
  const mb = (files.clustered.length + files.graded.length) / 1e6;
  console.log(`score stage: ${QUESTIONS} questions × ${SAMPLES} samples, ${mb.toFixed(1)} MB of JSONL (built in ${(performance.now() - t0).toFixed(0)} ms)`);

  const stages: number[] = [];
  const cpuStages: number[] = [];
  // As `semece score` reads them: replies checked but not kept (they are only shown in reports).
  const read = timed('parse + validate + join (JSONL text)', stages, () =>
    readAuthorsRows({ text: files.clustered, file: 'clustered.jsonl' }, { text: files.graded, file: 'graded.jsonl' }, { dropReplies: true }),
  cpuStages);
  if (!read.ok) throw new Error(read.error.message);
  const rows = read.value;
  const estimates = timed('estimators (Sem1, Sem2 R=10, verbalized, Δ…)', stages, () => estimateQuestions(rows.questions), cpuStages);
  const y = Float64Array.from(rows.questions, (q) => q.graded.Y);
  const sem1 = Float64Array.from(estimates, (e) => e.sem1);
  const sem2 = Float64Array.from(estimates, (e) => e.sem2);
  const verbalized = Float64Array.from(estimates, (e) => e.verbalized);
  const margin = Float64Array.from(estimates, (e) => e.margin);
  const eces = timed('three paper ECEs (Sem1, Sem2, verbalized)', stages, () =>
    [sem1, sem2, verbalized].map((c) => eceEqualWidth(c, y)),
  cpuStages);
  const boot = timed('paired bootstrap, B = 1000', stages, () => pairedBootstrap({ sem1, sem2, y, margin }), cpuStages);
  const total = stages.reduce((a, b) => a + b, 0);
  console.log(`  (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores while this ran)`);
  const cpuTotal = cpuStages.reduce((a, b) => a + b, 0);
  console.log(`  ${'TOTAL (target < 1500 ms)'.padEnd(46)} ${total.toFixed(0).padStart(7)} ms   (cpu ${cpuTotal.toFixed(0)} ms)`);
  console.log(`  ECE sem1 ${eces[0].toFixed(4)}  sem2 ${eces[1].toFixed(4)}  verbalized ${eces[2].toFixed(4)};` +
    `  d_ece ${boot.bootstrap.d_ece.map((v) => v.toFixed(4)).join(' ')}`);

  console.log('the full stage as the app runs it (for reference, not part of the target):');
  const more: number[] = [];
  const questions = timed('report rows (regimes, classes, sample answers)', more, () => reportQuestions(rows.questions, estimates));
  timed('all metrics: companions, ECE intervals, regimes', more, () => modelMetrics(questions, { excluded: 0 }));
  timed('scoreAuthorsRows end to end (after parsing)', more, () => scoreAuthorsRows(rows));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bench();
}
