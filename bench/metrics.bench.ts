/**
 * The report's metrics stage on its own: `modelMetrics` (three signals: ECE, equal-mass ECE, MCE,
 * Brier + Murphy, AUROC, AURC, smooth ECE, bins; the paired bootstrap B = 1000 with an ECE
 * interval per signal; ECE per regime) at 1k, 10k and 40k questions, and `smoothEce` alone at
 * 60, 1k and 40k rows. Prints wall and CPU ms (the machine is shared: CPU time is the steadier
 * figure); nothing is asserted.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { estimateQuestion } from '../src/core/estimators';
import { meanClassCount, regimeOf } from '../src/core/regimes';
import { defaultRng } from '../src/core/rng';
import { simulateSet } from '../src/core/simulate-families';
import { smoothEce } from '../src/core/smooth-ece';
import type { Regime } from '../src/core/types';
import type { ReportQuestion } from '../src/model/report';
import { modelMetrics } from '../src/pipeline/score-stage';

const SAMPLES = 50;

/** Report rows of a synthetic cell (mixed difficulty, up to 6 classes, stated confidences). */
function reportRows(count: number): ReportQuestion[] {
  const rng = defaultRng(99);
  const sims = simulateSet({ count, n: SAMPLES, difficulty: 'mixed', classes: 6, seed: 5 });
  const estimates = sims.map((q) =>
    estimateQuestion(
      {
        assignments: Array.from(q.assignments),
        nClasses: q.sizes.length,
        verbalized: Array.from({ length: SAMPLES }, () => (rng.random() < 0.1 ? null : Math.round(rng.random() * 100) / 100)),
      },
      { sem2: { R: 10, seed: 0 } },
    ),
  );
  const kBar = meanClassCount(estimates);
  return sims.map((q, i) => {
    const e = estimates[i];
    return {
      id: `q${i}`, question: `Question ${i}?`, gold: 'gold', n: e.n,
      sem1: e.sem1, sem2: e.sem2, verbalized: e.verbalized, correct: q.y as 0 | 1,
      grade: q.y ? 'CORRECT' : 'INCORRECT', margin: e.margin, stdMargin: e.stdMargin,
      regime: regimeOf(e.stdMargin, e.margin, e.n, kBar) as Regime, entropy: e.entropy,
      nClasses: e.nonEmptyClasses, modalLabel: `answer ${q.modal}`,
    };
  });
}

function timed(label: string, run: () => unknown, repeats = 1): void {
  run(); // warm-up: compile before timing
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < repeats; r++) run();
  const ms = (performance.now() - start) / repeats;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / repeats;
  console.log(`  ${label.padEnd(44)} ${ms.toFixed(1).padStart(8)} ms   (cpu ${cpuMs.toFixed(1)} ms)`);
}

export default async function bench(): Promise<void> {
  console.log('modelMetrics (three signals, every companion, bootstrap B = 1000 with ECE intervals, regimes):');
  for (const count of [1_000, 10_000, 40_000]) {
    const rows = reportRows(count);
    timed(`modelMetrics, ${count.toLocaleString('en')} questions`, () => modelMetrics(rows, { excluded: 0 }), count > 10_000 ? 1 : 3);
  }
  console.log('smoothEce (self-consistent bandwidth), Sem1-like confidences:');
  const rng = defaultRng(3);
  for (const count of [60, 1_000, 40_000]) {
    const conf = Float64Array.from({ length: count }, () => Math.round(rng.random() * 50) / 50);
    const y = Float64Array.from(conf, (c) => (rng.random() < 0.85 * c + 0.1 ? 1 : 0));
    timed(`smoothEce, ${count.toLocaleString('en')} rows`, () => smoothEce(conf, y), 10);
  }
  console.log(`  (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores while this ran)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bench();
}
