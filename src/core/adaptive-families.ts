/**
 * Question sets the adaptive rule is tuned and measured on (bench/adaptive.bench.ts) and the
 * budget planner predicts from (budget-plan.ts), built from the simulator's families
 * (simulate-families.ts). All calibrated: the correct class is drawn from π, so the population
 * ECE of the oracle confidence max π is exactly 0 and any measured ECE is the estimator's bias.
 *
 * - 'easy-hard-mix': half easy questions (top answer 0.85–0.99, the rest spread evenly over three
 *   more classes), half split among 4 answers (Dirichlet(5,5,5,5), the simulator's hard preset):
 *   the mix docs/STATISTICS.md and the research note measured small-n inflation on.
 * - 'near-certain-mix': 80% near-certain questions (top answer 0.97–1), 20% split as above: the
 *   shape of a strong model on an easy benchmark, where adaptive sampling saves most.
 * - 'two-leading-mixed', 'dirichlet-mixed': the simulator's own 'mixed' presets.
 */
import type { Generator } from './rng';
import type { QuestionSpec } from './simulate';
import { dirichletPi, minTopTwoMass, questionSet, twoLeadingClasses, DIRICHLET_ALPHA } from './simulate-families';

export type AdaptiveFamily = 'easy-hard-mix' | 'near-certain-mix' | 'two-leading-mixed' | 'dirichlet-mixed';

export const ADAPTIVE_FAMILIES: { id: AdaptiveFamily; label: string }[] = [
  { id: 'easy-hard-mix', label: 'half easy (top 0.85–0.99), half split among 4' },
  { id: 'near-certain-mix', label: '80% near-certain (top 0.97–1), 20% split among 4' },
  { id: 'two-leading-mixed', label: "simulator 'mixed', two-leading family" },
  { id: 'dirichlet-mixed', label: "simulator 'mixed', Dirichlet family" },
];

/** π with top answer c and the rest spread evenly over K − 1 classes (K = 4). */
function dominant(c: number): number[] {
  // A two-leading π at its smallest top-two mass is exactly (c, (1−c)/3, (1−c)/3, (1−c)/3).
  const margin = (4 * c - 1) / 3;
  return twoLeadingClasses(margin, Math.min(1, minTopTwoMass(margin, 4)), 4);
}

function pick(pi: readonly number[], u: number): number {
  let acc = 0;
  for (let k = 0; k < pi.length; k++) {
    acc += pi[k];
    if (u < acc) return k;
  }
  return pi.length - 1;
}

function mix(count: number, easyShare: number, easy: (rng: Generator) => number[], rng: Generator): QuestionSpec[] {
  const specs: QuestionSpec[] = [];
  for (let q = 0; q < count; q++) {
    const pi = rng.random() < easyShare ? easy(rng) : dirichletPi(DIRICHLET_ALPHA.hard, 4, rng);
    specs.push({ pi, correct: [pick(pi, rng.random())] });
  }
  return specs;
}

/** `count` question specs of a family, drawn from `rng`. */
export function familySpecs(family: AdaptiveFamily, count: number, rng: Generator): QuestionSpec[] {
  switch (family) {
    case 'easy-hard-mix':
      return mix(count, 0.5, (r) => dominant(0.85 + 0.14 * r.random()), rng);
    case 'near-certain-mix':
      return mix(count, 0.8, (r) => dominant(0.97 + 0.03 * r.random()), rng);
    case 'two-leading-mixed':
      return questionSet({ count, difficulty: 'mixed' }, rng);
    case 'dirichlet-mixed':
      return questionSet({ count, difficulty: 'mixed', family: 'dirichlet' }, rng);
  }
}
