/**
 * How well `semece compare`'s ECE difference does (pipeline/report-comparison.ts): two models
 * answer the same N questions; per scenario, over SEMECE_COMPARE_REPS data sets (default 200),
 * the share whose 95% interval covers the true difference of the population ECEs (coverage), the
 * share whose p is ≤ 0.05 (rejection: the test's size under a null, its power otherwise) and the
 * interval's median width — for the method `compare` uses (each model's headline inversion joined
 * by Bonferroni, core/ece-difference-inference.ts) and, beside it, the paired bootstrap's basic
 * interval (core/paired-difference.ts) that it replaced. `npm run bench -- compare`.
 * Seeded: the same figures every run. Figures are printed, never asserted.
 *
 * A data set: each question has an easiness e ~ U(0.3, 1) and one uniform u shared by both
 * models (a question one model finds hard the other tends to as well: the outcomes are positively
 * correlated, as on real questions). Model m's confidence is e plus its own noise, rounded to
 * tenths (as Sem1 with n = 10 samples) and kept in [0.1, 1]; it answers correctly when
 * u < g_m(confidence). The population ECE of a model is the 10-bin ECE of g_m against the
 * confidence over 200,000 draws (eceEqualWidth with the expected correctness as outcome).
 */
import { eceEqualWidth } from '../src/core/ece';
import { eceDifference, eceLevelIntervals } from '../src/core/ece-difference-inference';
import { pairedDifferences } from '../src/core/paired-difference';
import { defaultRng, type Generator } from '../src/core/rng';

const SIZES = [200, 1000];
const B = 500;
const REPS = Number(process.env.SEMECE_COMPARE_REPS ?? 200);

interface ModelSpec {
  noise: number;
  /** P(correct | confidence). */
  g: (c: number) => number;
  /** A fixed confidence instead of the easiness (a model that always says the same). */
  constant?: number;
}

interface Scenario {
  name: string;
  a: ModelSpec;
  b: ModelSpec;
}

const clip = (x: number) => Math.min(1, Math.max(0, x));
const calibrated = (c: number) => c;

const SCENARIOS: Scenario[] = [
  { name: 'null: both calibrated, same spread', a: { noise: 0.1, g: calibrated }, b: { noise: 0.1, g: calibrated } },
  { name: 'null: both calibrated, B constant 0.7', a: { noise: 0.1, g: calibrated }, b: { noise: 0, g: calibrated, constant: 0.7 } },
  { name: 'null: both overconfident by 0.1', a: { noise: 0.1, g: (c) => clip(c - 0.1) }, b: { noise: 0.05, g: (c) => clip(c - 0.1) } },
  { name: 'B overconfident by 0.05', a: { noise: 0.1, g: calibrated }, b: { noise: 0.1, g: (c) => clip(c - 0.05) } },
  { name: 'B overconfident by 0.1', a: { noise: 0.1, g: calibrated }, b: { noise: 0.1, g: (c) => clip(c - 0.1) } },
  { name: 'A off by 0.05, B by 0.15', a: { noise: 0.1, g: (c) => clip(c - 0.05) }, b: { noise: 0.1, g: (c) => clip(c - 0.15) } },
];

function confidence(rng: Generator, m: ModelSpec, e: number): number {
  if (m.constant !== undefined) return m.constant;
  const noisy = e + m.noise * (2 * rng.random() - 1);
  return Math.min(1, Math.max(0.1, Math.round(noisy * 10) / 10));
}

function draw(rng: Generator, s: Scenario, N: number) {
  const ca = new Float64Array(N), cb = new Float64Array(N), ya = new Float64Array(N), yb = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    const e = 0.3 + 0.7 * rng.random();
    const u = rng.random();
    ca[i] = confidence(rng, s.a, e);
    cb[i] = confidence(rng, s.b, e);
    ya[i] = u < s.a.g(ca[i]) ? 1 : 0;
    yb[i] = u < s.b.g(cb[i]) ? 1 : 0;
  }
  return { ca, cb, ya, yb };
}

function populationEce(s: Scenario, which: 'a' | 'b'): number {
  const rng = defaultRng(99);
  const M = 200_000;
  const c = new Float64Array(M), p = new Float64Array(M);
  const m = s[which];
  for (let i = 0; i < M; i++) {
    const e = 0.3 + 0.7 * rng.random();
    c[i] = confidence(rng, m, e);
    p[i] = m.g(c[i]);
  }
  return eceEqualWidth(c, p);
}

/** Coverage, rejections at 5% and the median width of one method's intervals. */
function tally() {
  let covered = 0, rejected = 0, n = 0;
  const widths: number[] = [];
  return {
    add(interval: [number, number], p: number, truth: number) {
      n++;
      if (interval[0] <= truth && truth <= interval[1]) covered++;
      if (p <= 0.05) rejected++;
      widths.push(interval[1] - interval[0]);
    },
    line() {
      widths.sort((a, b) => a - b);
      const pct = (k: number) => `${((100 * k) / n).toFixed(1)}%`;
      return `${pct(covered)} | ${pct(rejected)} | ${widths[(widths.length - 1) >> 1].toFixed(4)}`;
    },
  };
}

export default async function bench(): Promise<void> {
  const ece = (c: ArrayLike<number>, y: ArrayLike<number>) => eceEqualWidth(c, y);
  console.log(`data sets per cell: ${REPS}; inversion: 2000 draws per hypothesis; bootstrap: B = ${B}, basic interval, two-sided p`);
  console.log('scenario | N | true ECE_b − ECE_a | mean plug-in difference | inversion: coverage | rejections | median width | bootstrap: coverage | rejections | median width');
  for (const s of SCENARIOS) {
    const truth = populationEce(s, 'b') - populationEce(s, 'a');
    for (const N of SIZES) {
      const rng = defaultRng(20261204 + N);
      const inv = tally(), boot = tally();
      let sum = 0;
      for (let r = 0; r < REPS; r++) {
        const d = draw(rng, s, N);
        const [res] = pairedDifferences([{ confA: d.ca, yA: d.ya, confB: d.cb, yB: d.yb, stat: ece }], N, { B, seed: r });
        sum += res.difference;
        boot.add(res.interval, res.p, truth);
        const joint = eceDifference(eceLevelIntervals(d.ca, d.ya, 0.95, { seed: r }), eceLevelIntervals(d.cb, d.yb, 0.95, { seed: r }));
        inv.add(joint.interval, joint.p, truth);
      }
      console.log(`${s.name} | ${N} | ${truth.toFixed(4)} | ${(sum / REPS).toFixed(4)} | ${inv.line()} | ${boot.line()}`);
    }
  }
}
