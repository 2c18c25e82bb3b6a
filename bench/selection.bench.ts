/**
 * How often the signal comparison names a best signal when none is better (false naming), and
 * how often it names the right one when one is (power). `npm run bench -- selection`;
 * SEMECE_SELECTION_REPS sets the data sets per cell (default 200; about 10 minutes on two cores). Seeded: the same figures every
 * run. Figures are printed, never asserted.
 *
 * Each data set: N questions, a latent probability p of a correct answer, Y ~ Bernoulli(p), and
 * two or three confidence signals built from p. Per cell it prints the share of data sets in which
 *   - "IUT": the stored rule names a best (pipeline/signal-comparison.ts: every one of the k − 1
 *     one-sided tests of core/ece-difference-test.ts rejects at 2.5%);
 *   - "old": the rule of reports before it (the runner-up's 95% paired bootstrap percentile
 *     interval above 0);
 *   - "pct" and "basic": every other signal's one-sided 2.5% paired bootstrap test of the plug-in
 *     difference (percentile: the share of replicates ≤ 0; basic: the share ≥ twice the observed),
 *     the construction the issue proposed, for comparison;
 * and, for the power cells, how often the named signal was the truly better one.
 * Nulls (every signal has the same population 10-bin ECE):
 *   - "refined": q ~ U(0.35, 0.95) and p = q ± 0.8·min(q, 1 − q): p and q are both calibrated;
 *   - "chain of 3": r → q → p refined the same way, three calibrated signals;
 *   - "binned": p and p moved to its bin's centre (both have bin accuracy = bin confidence);
 *   - "spread vs constant": p against the constant 0.65 (= mean p), both calibrated;
 *   - "both off by 0.05": p + 0.05 against the constant 0.70.
 * Power: p against min(1, p + 0.05) and min(1, p + 0.1) (overconfident by about that much).
 *
 * Second part, the abstention threshold's guarantee (core/abstention.ts): confidence p ~ U(0.35,
 * 0.95), calibrated, so the true selective error at threshold t is 1 − (t + 0.95)/2 and at most the
 * 20% target exactly when t ≥ 0.65. Per N: how often the chosen threshold's true error exceeds the
 * target (the guarantee: at most 5%), how often the held-out half's error does, the held-out error
 * over the 20 splits of one data set, and the median coverage.
 */
import { forEachReplicate, percentileInterval } from '../src/core/bootstrap';
import { equalWidthBinIndex, equalWidthEdges } from '../src/core/binning';
import { BinnedEceWorkspace, codeSignal, identityRows } from '../src/core/ece-workspace';
import { defaultRng, type Generator } from '../src/core/rng';
import { compareSignals } from '../src/pipeline/signal-comparison';
import { abstention, abstentionSpread } from '../src/core/abstention';
import type { SignalName } from '../src/model/signals';

const SIZES = [100, 300, 1000];
const B = 1000;
const NAMES: SignalName[] = ['sem1', 'sem2', 'verbalized'];

interface Scenario {
  name: string;
  /** The signal that is truly better (index), or −1 under a null. */
  better: number;
  make: (rng: Generator, N: number) => { cols: Float64Array[]; y: Float64Array };
}

const refine = (rng: Generator, q: number, w: number) => q + (rng.random() < 0.5 ? -1 : 1) * w * Math.min(q, 1 - q);
const latent = (rng: Generator) => 0.35 + 0.6 * rng.random();

/** N rows of k signals; `row` fills the signals and returns the row's outcome (0 or 1). */
function rows(N: number, k: number, row: (i: number, out: Float64Array) => number) {
  const cols = Array.from({ length: k }, () => new Float64Array(N));
  const y = new Float64Array(N);
  const out = new Float64Array(k);
  for (let i = 0; i < N; i++) {
    y[i] = row(i, out);
    for (let j = 0; j < k; j++) cols[j][i] = out[j];
  }
  return { cols, y };
}

const SCENARIOS: Scenario[] = [
  { name: 'null: refined (p vs q)', better: -1, make: (rng, N) => rows(N, 2, (_, o) => { o[1] = latent(rng); o[0] = refine(rng, o[1], 0.8); return rng.random() < o[0] ? 1 : 0; }) },
  { name: 'null: chain of 3', better: -1, make: (rng, N) => rows(N, 3, (_, o) => { o[2] = 0.4 + 0.5 * rng.random(); o[1] = refine(rng, o[2], 0.5); o[0] = refine(rng, o[1], 0.8); return rng.random() < o[0] ? 1 : 0; }) },
  { name: 'null: binned (p vs bin centre)', better: -1, make: (rng, N) => rows(N, 2, (_, o) => { o[0] = latent(rng); o[1] = Math.min(0.95, Math.floor(o[0] * 10) / 10 + 0.05); return rng.random() < o[0] ? 1 : 0; }) },
  { name: 'null: spread vs constant', better: -1, make: (rng, N) => rows(N, 2, (_, o) => { o[0] = latent(rng); o[1] = 0.65; return rng.random() < o[0] ? 1 : 0; }) },
  { name: 'null: both off by 0.05', better: -1, make: (rng, N) => rows(N, 2, (_, o) => { const p = latent(rng); o[0] = Math.min(1, p + 0.05); o[1] = 0.7; return rng.random() < p ? 1 : 0; }) },
  { name: 'power: p vs p + 0.05', better: 0, make: (rng, N) => rows(N, 2, (_, o) => { o[0] = latent(rng); o[1] = Math.min(1, o[0] + 0.05); return rng.random() < o[0] ? 1 : 0; }) },
  { name: 'power: p vs p + 0.1', better: 0, make: (rng, N) => rows(N, 2, (_, o) => { o[0] = latent(rng); o[1] = Math.min(1, o[0] + 0.1); return rng.random() < o[0] ? 1 : 0; }) },
];

/**
 * The paired bootstrap rules on the plug-in difference: the old one (the runner-up's 95%
 * percentile interval above 0) and the proposal, every other signal's one-sided 2.5% test
 * (percentile: share of replicates ≤ 0; basic: share ≥ twice the observed difference).
 */
function bootstrapRules(cols: Float64Array[], y: Float64Array, seed: number): { old: boolean; pct: boolean; basic: boolean } {
  const N = y.length;
  const edges = equalWidthEdges(10);
  const ws = new BinnedEceWorkspace(N, 10);
  const coded = cols.map((c) => codeSignal(c, y, equalWidthBinIndex(c, edges, N), 10, N));
  const point = coded.map((s) => ws.ece(s, identityRows(N), N));
  const reps = coded.map(() => new Float64Array(B));
  forEachReplicate(N, { B, seed }, (r, b) => coded.forEach((s, k) => (reps[k][b] = ws.ece(s, r, N))));
  const order = point.map((_, k) => k).sort((a, b) => point[a] - point[b]);
  const [best, runnerUp] = order;
  let pct = true, basic = true, old = false;
  for (let k = 0; k < cols.length; k++) {
    if (k === best) continue;
    const d = point[k] - point[best];
    const diffs = Float64Array.from(reps[k], (v, b) => v - reps[best][b]);
    let le0 = 0, ge2 = 0;
    for (const dd of diffs) {
      if (dd <= 0) le0++;
      if (dd >= 2 * d) ge2++;
    }
    if ((1 + le0) / (B + 1) >= 0.025) pct = false;
    if ((1 + ge2) / (B + 1) >= 0.025) basic = false;
    if (k === runnerUp) old = percentileInterval(d, diffs)[1] > 0;
  }
  return { old, pct, basic };
}

export default async function bench(): Promise<void> {
  const reps = Number(process.env.SEMECE_SELECTION_REPS) > 0 ? Number(process.env.SEMECE_SELECTION_REPS) : 200;
  console.log(`signal selection: ${reps} data sets per cell; B = ${B}; rule: all k − 1 one-sided tests at 2.5%`);
  console.log('  cell                              N     IUT    old    pct  basic   (power cells: IUT named the better one)');
  for (const sc of SCENARIOS) {
    for (const N of SIZES) {
      const rng = defaultRng(1000 + N + 17 * SCENARIOS.indexOf(sc));
      const tally = { iut: 0, old: 0, pct: 0, basic: 0, right: 0 };
      for (let s = 0; s < reps; s++) {
        const { cols, y } = sc.make(rng, N);
        const columns = Object.fromEntries(cols.map((c, k) => [NAMES[k], c]));
        // The selection tests do not use the bootstrap; B = 1 keeps compareSignals from a second one.
        const r = compareSignals(columns, y, { B: 1, seed: s, minFinite: 1 });
        if (r.selection?.named) {
          tally.iut++;
          if (r.best === NAMES[sc.better]) tally.right++;
        }
        const boot = bootstrapRules(cols, y, s);
        if (boot.old) tally.old++;
        if (boot.pct) tally.pct++;
        if (boot.basic) tally.basic++;
      }
      const pc = (x: number) => `${((100 * x) / reps).toFixed(1)}%`.padStart(6);
      const extra = sc.better >= 0 ? `   ${pc(tally.right)}` : '';
      console.log(`  ${sc.name.padEnd(32)} ${String(N).padStart(5)} ${pc(tally.iut)} ${pc(tally.old)} ${pc(tally.pct)} ${pc(tally.basic)}${extra}`);
    }
  }
  console.log(`  (Monte Carlo standard error of a 5% rate over ${reps} data sets: ±${(100 * Math.sqrt(0.05 * 0.95 / reps)).toFixed(1)} points)`);
  abstentionPart(reps);
}

export function abstentionPart(reps: number): void {
  const target = 0.2;
  console.log(`abstention threshold: target ${target}, δ = 0.05, ${reps} data sets per N; true error of threshold t: 1 − (t + 0.95)/2`);
  console.log('      N  true error > target  held-out > target  median coverage   one data set, 20 splits: held-out median [min, max], over target');
  for (const N of [200, 1000, 5000]) {
    const rng = defaultRng(77 + N);
    let violated = 0, heldOver = 0;
    const coverage: number[] = [];
    let example = '';
    for (let s = 0; s < reps; s++) {
      const conf = Float64Array.from({ length: N }, () => latent(rng));
      const y = Float64Array.from(conf, (p) => (rng.random() < p ? 1 : 0));
      const r = abstention(conf, y, { target, seed: s });
      const t = r.threshold;
      if (t !== null && 1 - (t + 0.95) / 2 > target + 1e-12) violated++;
      if (r.evaluation.answered > 0 && r.evaluation.errors / r.evaluation.answered > target) heldOver++;
      coverage.push(r.evaluation.coverage[0]);
      if (s === 0) {
        const sp = abstentionSpread(conf, y, { target, seed: 0 });
        const f = (x: number) => (100 * x).toFixed(1);
        example = `${f(sp.heldOutError.median)}% [${f(sp.heldOutError.min)}%, ${f(sp.heldOutError.max)}%], ${sp.exceeded} of 20`;
      }
    }
    coverage.sort((a, b) => a - b);
    const pc = (x: number) => `${((100 * x) / reps).toFixed(1)}%`;
    console.log(`  ${String(N).padStart(5)}  ${pc(violated).padStart(19)}  ${pc(heldOver).padStart(17)}  ${(100 * coverage[reps >> 1]).toFixed(1).padStart(14)}%   ${example}`);
  }
}
