/**
 * The data-generating processes of the coverage bench (coverage.bench.ts) and the true
 * population 10-bin equal-width ECE of each, computed numerically.
 *
 * Two kinds of confidences:
 * - continuous: c ~ Beta(5, 2) (like stated confidence); the question's own probability p = c.
 * - Sem1-like, two-stage: each question has a top-answer probability p ~ Beta(4, 1.5); its n = 50
 *   samples give k ~ Binomial(50, p) votes for that answer and the confidence c = k/50. So the
 *   confidences themselves are sampled, and P(Y=1 | c) = E[g(p, c) | k].
 * Scenarios, Y ~ Bernoulli(g(p, c)):
 * - calibrated: g = c (true ECE 0 by construction, also in the two-stage design);
 * - mild: g = max(0, c − 0.05) (overconfident by 0.05);
 * - strong: continuous g = c² (true ECE 0.179); Sem1-like g = p^1.55 (true ECE 0.101);
 * - honest-p (Sem1-like only): g = p, the answer right as often as the model's own probability; the
 *   confidence k/50 is then only nearly calibrated (a small true ECE from the sampling of k).
 */
import { equalWidthBinOf, equalWidthEdges } from '../src/core/binning';
import type { Generator } from '../src/core/rng';

export type Family = 'beta52' | 'sem1';
export type Scenario = 'calibrated' | 'mild' | 'strong' | 'honest-p';

export interface Cell {
  family: Family;
  scenario: Scenario;
  n: number;
}

const SEM1_SAMPLES = 50;
const SEM1_A = 4;
const SEM1_B = 1.5;

/** P(Y = 1) of a question with own probability p and confidence c. */
export function correctness(family: Family, scenario: Scenario): (p: number, c: number) => number {
  switch (scenario) {
    case 'calibrated':
      return (_p, c) => c;
    case 'mild':
      return (_p, c) => Math.max(0, c - 0.05);
    case 'strong':
      return family === 'beta52' ? (_p, c) => c * c : (p) => p ** 1.55;
    case 'honest-p':
      return (p) => p;
  }
}

function normal(rng: Generator): number {
  // Box–Muller (one of the pair): plenty for simulation.
  const u = 1 - rng.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.random());
}

/** Gamma(a, 1) by Marsaglia & Tsang (2000); a < 1 through Gamma(a + 1)·U^(1/a). */
function gamma(rng: Generator, a: number): number {
  if (a < 1) return gamma(rng, a + 1) * (1 - rng.random()) ** (1 / a);
  const d = a - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number, v: number;
    do {
      x = normal(rng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.random();
    if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

function beta(rng: Generator, a: number, b: number): number {
  const x = gamma(rng, a);
  return x / (x + gamma(rng, b));
}

/** One data set of the cell: confidences and 0/1 correctness. */
export function simulateCell(cell: Cell, rng: Generator): { conf: Float64Array; y: Float64Array } {
  const g = correctness(cell.family, cell.scenario);
  const conf = new Float64Array(cell.n);
  const y = new Float64Array(cell.n);
  for (let i = 0; i < cell.n; i++) {
    let p: number, c: number;
    if (cell.family === 'beta52') {
      p = c = beta(rng, 5, 2);
    } else {
      p = beta(rng, SEM1_A, SEM1_B);
      let k = 0;
      for (let s = 0; s < SEM1_SAMPLES; s++) if (rng.random() < p) k++;
      c = k / SEM1_SAMPLES;
    }
    conf[i] = c;
    y[i] = rng.random() < g(p, c) ? 1 : 0;
  }
  return { conf, y };
}

/** Unnormalised Beta(a, b) density on a midpoint grid of [0, 1], normalised to sum 1. */
function betaGrid(a: number, b: number, points: number): { x: Float64Array; w: Float64Array } {
  const x = new Float64Array(points);
  const w = new Float64Array(points);
  let total = 0;
  for (let j = 0; j < points; j++) {
    x[j] = (j + 0.5) / points;
    w[j] = x[j] ** (a - 1) * (1 - x[j]) ** (b - 1);
    total += w[j];
  }
  for (let j = 0; j < points; j++) w[j] /= total;
  return { x, w };
}

/**
 * The population ECE of the cell's process over the paper's bins:
 * Σ_b |E[(P(Y=1|c) − c)·1(c ∈ b)]|, by quadrature over p (200,000 points) and, for Sem1-like,
 * exact enumeration of k = 0..50.
 */
export function trueEce(family: Family, scenario: Scenario, bins = 10): number {
  const g = correctness(family, scenario);
  const edges = equalWidthEdges(bins);
  const gapMass = new Float64Array(bins);
  const { x, w } = betaGrid(family === 'beta52' ? 5 : SEM1_A, family === 'beta52' ? 2 : SEM1_B, 200_000);
  if (family === 'beta52') {
    for (let j = 0; j < x.length; j++) gapMass[equalWidthBinOf(x[j], edges)] += w[j] * (g(x[j], x[j]) - x[j]);
  } else {
    const m = SEM1_SAMPLES;
    // log C(m, k) once.
    const logChoose = new Float64Array(m + 1);
    for (let k = 1; k <= m; k++) logChoose[k] = logChoose[k - 1] + Math.log((m - k + 1) / k);
    for (let j = 0; j < x.length; j++) {
      const p = x[j];
      for (let k = 0; k <= m; k++) {
        const pk = Math.exp(logChoose[k] + k * Math.log(p) + (m - k) * Math.log1p(-p));
        const c = k / m;
        gapMass[equalWidthBinOf(c, edges)] += w[j] * pk * (g(p, c) - c);
      }
    }
  }
  let ece = 0;
  for (const v of gapMass) ece += Math.abs(v);
  return ece;
}
