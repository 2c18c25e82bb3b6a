/**
 * Per-question estimators at the paper's scale: 40,000 questions × 50 samples (the paper has
 * 39,629), synthetic, with stated confidences of which ~10% are missing. Prints ms per
 * estimator and for `estimateQuestion` end to end (Sem1, Sem2 in reference mode, verbalized,
 * margin, entropy). Target: a few hundred ms. Also prints the raw speed of the numpy-compatible
 * generator the bootstrap relies on (B = 1000 draws of integers(0, N, N)).
 * Figures are printed, not asserted.
 */
import { pathToFileURL } from 'node:url';
import {
  classSizes, estimateQuestion, margin, sem1, sem2HeldOut, semanticEntropy, verbalizedMean,
} from '../src/core/estimators';
import { defaultRng } from '../src/core/rng';
import { simulateSet } from '../src/core/simulate-families';
import type { QuestionSamples } from '../src/core/types';

const QUESTIONS = 40_000;
const SAMPLES = 50;

function syntheticCell(): QuestionSamples[] {
  const rng = defaultRng(2024);
  return simulateSet({ count: QUESTIONS, n: SAMPLES, difficulty: 'mixed', classes: 6, seed: 1 }).map((q) => ({
    assignments: q.assignments,
    nClasses: q.pi.length,
    verbalized: Array.from({ length: SAMPLES }, () => (rng.random() < 0.1 ? null : Math.round(rng.random() * 100) / 100)),
  }));
}

function time(label: string, run: () => number): void {
  const start = performance.now();
  const checksum = run();
  const ms = performance.now() - start;
  console.log(`  ${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   (checksum ${checksum.toFixed(6)})`);
}

export default async function bench(): Promise<void> {
  const t0 = performance.now();
  const cell = syntheticCell();
  console.log(`core estimators: ${QUESTIONS} questions × ${SAMPLES} samples (synthetic cell built in ${(performance.now() - t0).toFixed(0)} ms)`);

  const sum = (f: (q: QuestionSamples) => number) => () => cell.reduce((s, q) => s + f(q), 0);
  time('Sem1 (class sizes + max)', sum((q) => sem1(classSizes(q.assignments, q.nClasses))));
  time('Sem2 reference mode (R = 10, splits cached)', sum((q) => sem2HeldOut(q.assignments, q.nClasses)));
  time('verbalized mean (pairwise)', sum((q) => verbalizedMean(q.verbalized!)));
  time('margin', sum((q) => margin(classSizes(q.assignments, q.nClasses))));
  time('semantic entropy', sum((q) => semanticEntropy(classSizes(q.assignments, q.nClasses))));
  time('estimateQuestion, all of the above', sum((q) => {
    const e = estimateQuestion(q);
    return e.sem1 + e.sem2 + e.verbalized + e.margin + e.entropy;
  }));
  time('estimateQuestion, second pass (warm JIT)', sum((q) => estimateQuestion(q).sem2));

  const N = QUESTIONS;
  const rows = new Int32Array(N);
  time(`rng: 1000 × integers(0, ${N}, ${N}) (bootstrap draws)`, () => {
    const rng = defaultRng(7);
    let s = 0;
    for (let b = 0; b < 1000; b++) {
      rng.fillIntegers(0, N, rows);
      s += rows[0];
    }
    return s;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bench();
}
