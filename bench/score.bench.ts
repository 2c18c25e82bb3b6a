/**
 * The score stage at the paper's scale: 40,000 questions × 50 samples of synthetic authors' rows
 * (clustered + graded JSONL, 128 MB), B = 1000.
 *
 * 1. Whole process, as a user runs it: `npm run --silent semece -- score` against
 *    bench/score-numpy.py, the same work in vectorised numpy (same reading and checks, estimates,
 *    every metric of the three paper signals, paired bootstrap, JSON document out). Each runs
 *    ROUNDS times, alternating, after one warm-up; the median of each and the ratio
 *    numpy / ours are printed, with how far the two documents' numbers are apart (the same work,
 *    not a cheaper one: per-question values and metrics agree to 1e-9, smooth ECE to 1e-6).
 * 2. In-process, the stages of the CLI's path (the paired bootstrap on this thread here; the
 *    command runs it on a second thread beside the other metrics), wall and CPU time, and what the black-box signals
 *    of issue 29 add: the graph methods (EigV, Deg, Ecc) with semantic entropy and NumSets on the
 *    exact-match partition (goal: at most 1 s added at this scale; one pass over each question's
 *    class sizes, no matrix), lexical similarity (ROUGE-L over the answers), and their metrics.
 *    The whole-process comparison runs `semece score` as a user does: its default signals are the
 *    probabilities (the paper's three, which numpy scores, and entropy confidence), not these.
 * Figures are printed, not asserted (the machine is shared; the load average is printed beside them).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toJson } from '../cli/json';
import { inputText } from '../cli/input-text';
import { defaultRng } from '../src/core/rng';
import { simulateSet } from '../src/core/simulate-families';
import { readAuthorsRows } from '../src/formats/authors-rows';
import { computedSignals, estimateQuestions, modelMetrics, PAPER_SIGNALS, reportQuestions } from '../src/pipeline/score-stage';
import { blackBoxSignalValues } from '../src/pipeline/black-box-signals';
import type { SignalName } from '../src/model/signals';
import { scoreCliDocument } from '../src/pipeline/score-documents';

const QUESTIONS = 40_000;
const SAMPLES = 50;
const ROUNDS = 3;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

/** Wall time of one process, its stdout written to `out` (as a user's redirect would). */
function timeProcess(command: string, args: string[], out: string): Promise<number> {
  const fd = openSync(out, 'w');
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', fd, 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - start;
      closeSync(fd);
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The largest difference between two documents' numbers, by where it is (null and NaN agree). */
function largestDifference(a: unknown, b: unknown, where = ''): { diff: number; where: string } {
  let worst = { diff: 0, where: '' };
  const visit = (x: unknown, y: unknown, at: string) => {
    if (typeof x === 'number' && typeof y === 'number') {
      const d = Math.abs(x - y);
      if (d > worst.diff) worst = { diff: d, where: at };
    } else if (x === null || y === null) {
      if (x !== y) worst = { diff: Infinity, where: at };
    } else if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) worst = { diff: Infinity, where: `${at} (length)` };
      else x.forEach((v, i) => visit(v, y[i], `${at}[${i}]`));
    } else if (typeof x === 'object' && typeof y === 'object') {
      for (const key of Object.keys(y as object)) visit((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], `${at}.${key}`);
    } else if (x !== y) worst = { diff: Infinity, where: at };
  };
  visit(a, b, where);
  return worst;
}

function numpyAvailable(): string | null {
  const probe = spawnSync('python3', ['-c', 'import numpy; print(numpy.__version__)'], { encoding: 'utf8' });
  return probe.status === 0 ? probe.stdout.trim() : null;
}

async function wholeProcess(clustered: string, graded: string, dir: string): Promise<void> {
  const numpy = numpyAvailable();
  if (!numpy) {
    console.log('whole process: python3 with numpy is not installed here, so there is no numpy figure to compare with');
    return;
  }
  // The command as a user runs it (its default signals: the paper's three, as numpy scores them, and entropy confidence besides).
  const ours = ['run', '--silent', 'semece', '--', 'score', '--clustered', clustered, '--graded', graded];
  const theirs = [path.join(root, 'bench/score-numpy.py'), '--clustered', clustered, '--graded', graded];
  const oursOut = path.join(dir, 'ours.json');
  const theirsOut = path.join(dir, 'numpy.json');
  // Warm-up: the CLI bundle, the page cache, Python's bytecode.
  await timeProcess('npm', ours, oursOut);
  await timeProcess('python3', theirs, theirsOut);
  const direct = ['cli/launcher.mjs', ...ours.slice(ours.indexOf('--') + 1)];
  const t = { ours: [] as number[], numpy: [] as number[], direct: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    t.ours.push(await timeProcess('npm', ours, oursOut));
    t.numpy.push(await timeProcess('python3', theirs, theirsOut));
    t.direct.push(await timeProcess(process.execPath, direct, path.join(dir, 'direct.json')));
  }
  const a = JSON.parse(readFileSync(oursOut, 'utf8'));
  const b = JSON.parse(readFileSync(theirsOut, 'utf8'));
  const { smooth_ece: smoothA, ...metricsA } = a.metrics;
  const { smooth_ece: smoothB, ...metricsB } = b.metrics;
  const same = largestDifference(a.questions, b.questions, 'questions');
  const metrics = largestDifference(metricsA, metricsB, 'metrics');
  const smooth = largestDifference(smoothA, smoothB, 'metrics.smooth_ece');
  const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;
  const ratio = median(t.numpy) / median(t.ours);
  console.log(`whole process, ${QUESTIONS} questions × ${SAMPLES} samples, B = 1000 (median of ${ROUNDS}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores):`);
  console.log(`  npm run --silent semece -- score      ${ms(median(t.ours)).padStart(8)}   (runs: ${t.ours.map(ms).join(', ')})`);
  console.log(`  python3 bench/score-numpy.py          ${ms(median(t.numpy)).padStart(8)}   (runs: ${t.numpy.map(ms).join(', ')}; numpy ${numpy}, ${b.parser})`);
  console.log(`  node cli/launcher.mjs score (no npm)   ${ms(median(t.direct)).padStart(8)}   (runs: ${t.direct.map(ms).join(', ')}; npm's own start is the difference)`);
  console.log(`  RATIO numpy / ours                    ${ratio.toFixed(2)}×   (goal: at least 1.5×; without npm's start ${(median(t.numpy) / median(t.direct)).toFixed(2)}×)`);
  console.log(`  same work: questions differ by at most ${same.diff.toExponential(1)}, metrics by ${metrics.diff.toExponential(1)} (${metrics.where || '-'}), smooth ECE by ${smooth.diff.toExponential(1)}`);
}

/** Wall time, and CPU time of the process beside it: on a shared machine the two differ. */
function timed<T>(label: string, run: () => T): T {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const value = run();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  console.log(`  ${label.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms   (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`);
  return value;
}

/** `timed` for a step that reads files (the CLI's line reader is opened asynchronously). */
async function timedAsync<T>(label: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const value = await run();
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  console.log(`  ${label.padEnd(46)} ${ms.toFixed(0).padStart(7)} ms   (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms)`);
  return value;
}

async function inProcess(clustered: string, graded: string): Promise<void> {
  console.log("in-process, the stages of semece score's path:");
  // As the CLI reads them (cli/input-text.ts): a line at a time, each decoded on its own.
  const read = await timedAsync('read + parse + validate + join', async () =>
    readAuthorsRows({ text: await inputText(clustered), file: 'clustered.jsonl' }, { text: await inputText(graded), file: 'graded.jsonl' }, { dropReplies: true, dropAnswers: true }),
  );
  if (!read.ok) throw new Error(read.error.message);
  const rows = read.value;
  const estimates = timed('estimators (Sem1, Sem2 R=10, verbalized, Δ…)', () => estimateQuestions(rows.questions));
  const questions = timed('report rows (regimes, classes)', () => reportQuestions(rows.questions, estimates, { samples: 'none' }));
  const metrics = timed('metrics: companions, bootstrap B=1000, regimes', () => modelMetrics(questions, { excluded: 0, signals: PAPER_SIGNALS }));
  timed('the JSON document', () => toJson(scoreCliDocument({ model: 'synthetic', metrics, questions, excludedQuestions: [] }, rows)));
  await blackBox(clustered, graded, estimates);
}

/** What the black-box signals add (issue 29): their per-question values, then their metrics. */
async function blackBox(clustered: string, graded: string, estimates: ReturnType<typeof estimateQuestions>): Promise<void> {
  console.log('in-process, the black-box signals (issue 29):');
  const graph: SignalName[] = ['semantic_entropy', 'num_sets', 'eigv', 'degree', 'eccentricity'];
  const sum = (values: Partial<Record<SignalName, number>>[]) => values.reduce((a, v) => a + Object.values(v).reduce((x, y) => x + y!, 0), 0);
  // Twice: the first pass warms the code up; the second is the figure.
  timed('warm-up', () => sum(estimates.map((e) => blackBoxSignalValues({ estimates: e }, graph))));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const check = sum(estimates.map((e) => blackBoxSignalValues({ estimates: e }, graph)));
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  console.log(`  ADDED graph methods + SE + NumSets, exact partition ${ms.toFixed(0).padStart(7)} ms   (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms; goal: at most 1000 ms; checksum ${check.toFixed(3)})`);
  const read = readAuthorsRows({ text: await inputText(clustered), file: clustered }, { text: await inputText(graded), file: graded }, { dropReplies: true });
  if (!read.ok) throw new Error(read.error.message);
  const withAnswers = read.value.questions;
  timed('lexical similarity (ROUGE-L, answers read)', () =>
    sum(withAnswers.map((q, i) => blackBoxSignalValues({ estimates: estimates[i], answers: q.clustered.answer_extracted }, ['lexical_similarity']))),
  );
  const questions = timed('report rows with every computed signal', () => reportQuestions(withAnswers, estimates, { samples: 'none', computed: computedSignals() }));
  const every = Object.keys(questions[0].signals ?? {}) as SignalName[];
  timed(`metrics of ${PAPER_SIGNALS.length + every.length} signals (PRR, AUARC, recalibrated)`, () => modelMetrics(questions, { excluded: 0, signals: [...PAPER_SIGNALS, ...every] }, { viewExtras: false, regimeIntervals: false }));
}

export default async function bench(): Promise<void> {
  const t0 = performance.now();
  const files = syntheticFiles();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'semece-score-bench-'));
  try {
    const clustered = path.join(dir, 'clustered.jsonl');
    const graded = path.join(dir, 'graded.jsonl');
    writeFileSync(clustered, files.clustered);
    writeFileSync(graded, files.graded);
    const mb = (files.clustered.length + files.graded.length) / 1e6;
    console.log(`score stage: ${QUESTIONS} questions × ${SAMPLES} samples, ${mb.toFixed(1)} MB of JSONL (built in ${(performance.now() - t0).toFixed(0)} ms)`);
    await wholeProcess(clustered, graded, dir);
    await inProcess(clustered, graded);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bench();
}
