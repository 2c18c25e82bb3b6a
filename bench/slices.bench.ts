/**
 * `npm run bench -- slices`: the size and power of the test of whether calibration differs across
 * slices (core/slice-heterogeneity.ts), by a seeded simulation (docs/STATISTICS.md, "Calibration
 * by subgroup"). Each scenario draws data sets of 600 questions in three slices (300, 200, 100),
 * confidences uniform on [0.2, 1] (shifted per slice where said), outcomes Bernoulli(f(c)), and
 * counts how often the test rejects at α = 0.05 and 0.10 (199 shuffles each).
 *   null, shared curve:        every slice f(c) = c^1.5 (overconfident alike): should reject ≈ α
 *   null, shifted confidences: the same curve, slice s's confidences shifted down by 0.1·s
 *   alternative:               slice 2 overconfident by 0.15 more than the others (power)
 */
import { sliceHeterogeneity } from '../src/core/slice-heterogeneity';
import { defaultRng } from '../src/core/rng';

const SIZES = [300, 200, 100];
const REPS = 400;

function draw(seed: number, scenario: 'shared' | 'shifted' | 'alternative') {
  const rng = defaultRng(seed);
  const conf: number[] = [];
  const y: number[] = [];
  const slice: number[] = [];
  SIZES.forEach((n, s) => {
    for (let i = 0; i < n; i++) {
      const shift = scenario === 'shifted' ? 0.1 * s : 0;
      const c = Math.min(1, Math.max(0, 0.2 + 0.8 * rng.random() - shift));
      const extra = scenario === 'alternative' && s === 2 ? 0.15 : 0;
      const p = Math.max(0, c ** 1.5 - extra);
      conf.push(c);
      y.push(rng.random() < p ? 1 : 0);
      slice.push(s);
    }
  });
  return { conf, y, slice };
}

export default async function bench(): Promise<void> {
  const start = performance.now();
  for (const scenario of ['shared', 'shifted', 'alternative'] as const) {
    let at05 = 0;
    let at10 = 0;
    for (let r = 0; r < REPS; r++) {
      const { conf, y, slice } = draw(1000 + r, scenario);
      const { p } = sliceHeterogeneity(conf, y, slice, { draws: 199, seed: r });
      if (p <= 0.05) at05++;
      if (p <= 0.1) at10++;
    }
    // A rejection rate's Monte Carlo standard error at 0.05 over 400 data sets is about 0.011.
    console.log(`${scenario.padEnd(12)} rejects at 0.05: ${(at05 / REPS).toFixed(3)}   at 0.10: ${(at10 / REPS).toFixed(3)}   (${REPS} data sets)`);
  }
  console.log(`cpu ${((performance.now() - start) / 1000).toFixed(1)} s`);
}
