/**
 * Presets for the paper's claims (Sem-ECE, seeds/000 and the summary in seeds/003): each sets
 * the simulation so the claim can be seen, and says in one sentence what to look for.
 */
import { DEFAULT_SETTINGS, type ClassroomSettings } from './classroom-model';

export interface Preset {
  id: string;
  label: string;
  claim: string;
  look: string;
  settings: ClassroomSettings;
}

export const PRESETS: Preset[] = [
  {
    id: 'hard',
    label: 'Hard questions: Sem1 over, Sem2 under',
    claim: 'On low-margin questions the same-sample Sem1 overshoots the oracle confidence c* (Jensen: the maximum of noisy frequencies is biased up), and the held-out Sem2 undershoots it.',
    look: 'In the bias chart the Sem1 dots sit above zero and the Sem2 dots below it; the mean biases have opposite signs, each several standard errors from zero.',
    settings: { ...DEFAULT_SETTINGS, questions: 1000, n: 20, marginLow: 0, marginHigh: 0.15 },
  },
  {
    id: 'easy',
    label: 'Easy questions: both agree',
    claim: 'When one answer clearly dominates (large margin), Sem1 and Sem2 both sit close to c* and to each other.',
    look: 'Both bias bars are near zero and the Sem1 − Sem2 gap meter reads "easy".',
    settings: { ...DEFAULT_SETTINGS, questions: 1000, n: 20, marginLow: 0.5, marginHigh: 0.95 },
  },
  {
    id: 'sem2-better',
    label: 'Sem2 calibrates better on hard questions',
    claim: 'In the Jensen-dominated regime (standardized margin √n·Δ below 0.612) Sem2-ECE is strictly smaller than Sem1-ECE: the paper’s main theoretical result. Here n = 50 and Δ ≤ 0.05, so √n·Δ ≤ 0.35.',
    look: 'Compare the two ECEs: Sem2-ECE is the smaller one (try other seeds), and ECE* shows how low an ideal estimate could go. With wider margins the two ECEs come close and noise decides.',
    settings: { ...DEFAULT_SETTINGS, questions: 3000, n: 50, marginLow: 0, marginHigh: 0.05 },
  },
  {
    id: 'converge',
    label: 'Both converge as n grows',
    claim: 'Both estimators are asymptotically unbiased: with more samples they meet c* from opposite sides (Sem1 from above, Sem2 from below).',
    look: 'In the convergence chart the Sem1 bias falls and the Sem2 bias rises towards zero as n doubles.',
    settings: { ...DEFAULT_SETTINGS, questions: 500, n: 50, marginLow: 0, marginHigh: 0.3 },
  },
  {
    id: 'gap',
    label: 'The gap is a difficulty meter',
    claim: 'The Sem1 − Sem2 gap is observable without knowing π, and it is large exactly on hard (low-margin) questions.',
    look: 'In the bias chart the gap grows as the margin shrinks; the meter reads the average over all questions.',
    settings: { ...DEFAULT_SETTINGS, questions: 1500, n: 20, marginLow: 0, marginHigh: 0.95 },
  },
  {
    id: 'overconfident',
    label: 'Consistent but wrong: overconfidence',
    claim: 'A model can agree with itself (high c*) and still be wrong; sampling-based ECE exposes that without trusting self-reports.',
    look: 'With accuracy fixed at 50% on easy questions, Sem1 and Sem2 are both high and both ECEs are large.',
    settings: { ...DEFAULT_SETTINGS, questions: 1000, n: 20, marginLow: 0.5, marginHigh: 0.95, accuracy: 0.5 },
  },
];
