/**
 * Coverage of the ECE intervals against the population 10-bin ECE of the data-generating process
 * (coverage-cells.ts), and the size and power of the test of perfect calibration.
 * `npm run bench -- coverage`; SEMECE_COVERAGE_REPS sets the data sets per cell (default 1000),
 * SEMECE_COVERAGE_B the bootstrap replicates (default 1000). Seeded: the same figures every run.
 *
 * Per cell: (a) the headline interval of core/ece-inference.ts (draws 2000), (b) the percentile
 * bootstrap and (c) the basic, bias-corrected bootstrap interval of core/bootstrap.ts (today's),
 * each its coverage (± Monte Carlo standard error) and median width; the calibration test's
 * rejection rate at 5% (its size where the true ECE is 0, its power elsewhere). A cell is flagged
 * when (a) covers under 90% or is more than twice as wide as (b). Figures are printed, never asserted.
 */
import { biasCorrectedInterval, forEachReplicate, percentileInterval } from '../src/core/bootstrap';
import { equalWidthBinIndex, equalWidthEdges } from '../src/core/binning';
import { BinnedEceWorkspace, codeSignal, identityRows } from '../src/core/ece-workspace';
import { eceInference, eceInferenceBySignal } from '../src/core/ece-inference';
import { defaultRng } from '../src/core/rng';
import { simulateCell, trueEce, type Cell, type Family, type Scenario } from './coverage-cells';

const SIZES = [30, 50, 200, 1000];
const SCENARIOS: [Family, Scenario][] = [
  ['beta52', 'calibrated'], ['beta52', 'mild'], ['beta52', 'strong'],
  ['sem1', 'calibrated'], ['sem1', 'mild'], ['sem1', 'strong'], ['sem1', 'honest-p'],
];

function envInt(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** Percentile and basic (bias-corrected) bootstrap intervals of the ECE, B resamples of the rows. */
function bootstrapIntervals(conf: Float64Array, y: Float64Array, B: number): { percentile: [number, number]; basic: [number, number] } {
  const n = conf.length;
  const coded = codeSignal(conf, y, equalWidthBinIndex(conf, equalWidthEdges(10), n), 10, n);
  const ws = new BinnedEceWorkspace(n, 10);
  const reps = new Float64Array(B);
  forEachReplicate(n, { B, seed: 7 }, (rows, b) => (reps[b] = ws.ece(coded, rows, n)));
  const point = ws.ece(coded, identityRows(n), n);
  const [, pLo, pHi] = percentileInterval(point, reps);
  const [, bLo, bHi] = biasCorrectedInterval(point, reps);
  return { percentile: [pLo, pHi], basic: [bLo, bHi] };
}

class Tally {
  covered = 0;
  widths: number[] = [];
  add([lo, hi]: [number, number], truth: number): void {
    // A hair of tolerance: a true ECE of exactly 0 against a bound computed as 0 + rounding.
    if (lo <= truth + 1e-12 && truth <= hi + 1e-12) this.covered++;
    this.widths.push(hi - lo);
  }
  coverage(): number {
    return this.covered / this.widths.length;
  }
  medianWidth(): number {
    const w = this.widths.slice().sort((a, b) => a - b);
    const m = w.length >> 1;
    return w.length % 2 ? w[m] : (w[m - 1] + w[m]) / 2;
  }
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const se = (x: number, n: number) => Math.sqrt(x * (1 - x) / n);

export interface CellResult {
  cell: Cell;
  truth: number;
  headline: Tally;
  percentile: Tally;
  basic: Tally;
  rejections: number;
  reps: number;
}

export function runCell(cell: Cell, truth: number, reps: number, B: number, seed: number): CellResult {
  const rng = defaultRng(seed);
  const r: CellResult = { cell, truth, headline: new Tally(), percentile: new Tally(), basic: new Tally(), rejections: 0, reps };
  for (let i = 0; i < reps; i++) {
    const { conf, y } = simulateCell(cell, rng);
    const inf = eceInference(conf, y);
    r.headline.add(inf.interval, truth);
    if (inf.p <= 0.05) r.rejections++;
    const boot = bootstrapIntervals(conf, y, B);
    r.percentile.add(boot.percentile, truth);
    r.basic.add(boot.basic, truth);
  }
  return r;
}

function row(r: CellResult): string {
  const { headline: h, percentile: p, basic: b, reps } = r;
  const ratio = h.medianWidth() / p.medianWidth();
  const flags = [h.coverage() < 0.9 ? 'COVERAGE<90%' : '', ratio > 2 ? 'WIDTH>2x' : ''].filter(Boolean).join(' ');
  const rej = r.rejections / reps;
  return [
    `${r.cell.family}/${r.cell.scenario}`.padEnd(16),
    r.truth.toFixed(3).padStart(6),
    String(r.cell.n).padStart(5),
    `${pct(h.coverage())} ${h.medianWidth().toFixed(3)}`.padStart(13),
    `${pct(p.coverage())} ${p.medianWidth().toFixed(3)}`.padStart(13),
    `${pct(b.coverage())} ${b.medianWidth().toFixed(3)}`.padStart(13),
    ratio.toFixed(2).padStart(6),
    `${pct(rej)} ±${(100 * se(rej, reps)).toFixed(1)}`.padStart(13),
    flags,
  ].join(' | ');
}

/** eceInferenceBySignal on 40,000 rows × 5 signals, the scale of `semece score` on the paper's data. */
function timeLargeCall(): void {
  const rng = defaultRng(11);
  const n = 40_000;
  const y = new Float64Array(n);
  const signals: Record<string, Float64Array> = {};
  for (let s = 0; s < 5; s++) signals[`s${s}`] = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = rng.random();
    y[i] = rng.random() < c * c ? 1 : 0;
    for (let s = 0; s < 5; s++) signals[`s${s}`][i] = Math.min(1, Math.max(0, c + 0.1 * (rng.random() - 0.5) * s));
  }
  eceInferenceBySignal(signals, y);
  const start = performance.now();
  eceInferenceBySignal(signals, y);
  console.log(`eceInferenceBySignal, 40,000 rows × 5 signals (second call): ${(performance.now() - start).toFixed(0)} ms`);
}

export default async function bench(): Promise<void> {
  const cpu0 = process.cpuUsage();
  const reps = envInt('SEMECE_COVERAGE_REPS', 1000);
  const B = envInt('SEMECE_COVERAGE_B', 1000);
  timeLargeCall();
  console.log(`coverage of 95% intervals for the population 10-bin ECE: ${reps} data sets a cell, bootstrap B = ${B}, eceInference draws 2000`);
  console.log(`coverage ± MC s.e. about ±${(100 * se(0.95, reps)).toFixed(1)} points at 95%; "test" = rejections of perfect calibration at 5% (size where true ECE = 0, power elsewhere)`);
  console.log(['cell'.padEnd(16), 'trueECE', '    n', '  headline cov width', '  percentile', '  basic', 'ratio', '  test rej ± se'].join(' | '));
  let seed = 1000;
  const flagged: string[] = [];
  for (const [family, scenario] of SCENARIOS) {
    const truth = trueEce(family, scenario);
    for (const n of SIZES) {
      const r = runCell({ family, scenario, n }, truth, reps, B, seed++);
      const line = row(r);
      console.log(line);
      if (/COVERAGE|WIDTH/.test(line)) flagged.push(line);
    }
  }
  console.log(flagged.length ? `${flagged.length} cell(s) flagged` : 'every cell: headline coverage ≥ 90% and median width ≤ 2× the percentile bootstrap');
  const cpu = process.cpuUsage(cpu0);
  // CPU time, not wall time: on a shared machine the wall time says more about the neighbours.
  console.log(`CPU time of the coverage bench: ${((cpu.user + cpu.system) / 1e6).toFixed(0)} s`);
}
